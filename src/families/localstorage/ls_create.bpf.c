// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * local-storage-create: one storage made on each new owner, as the kernel's bench does, and
 * the kmallocs that costs. Every program is off until user space picks it (the "?" sections):
 *
 *  - task: tp_btf/sched_process_fork makes task storage on each thread our producers start;
 *  - socket: lsm.s/socket_post_create (the kernel's) where the BPF LSM and trampolines are
 *    allowed, else cgroup/sock_create on a cgroup v2 directory only this process is in: both
 *    run in the creating thread, on the new socket;
 *  - kmallocs: raw_tp/kmalloc (the kernel's), else tp_btf/kmalloc, else tp/kmem/kmalloc.
 *
 * A create counts in the slot of the thread that made the owner (mb_thread_slots: producer
 * threads register there, drivers/thread_slots.h), anything else in the MB_LSC_OTHER slot.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "drivers/thread_slots.bpf.h"
#include "ls_create_shared.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct mb_lsc_value {
	char data[MB_LSC_VALUE_SIZE];
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct mb_lsc_value);
} mb_lsc_task SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct mb_lsc_value);
} mb_lsc_sk SEC(".maps");

const volatile __u32 mb_lsc_tgid;		/* our process */
const volatile bool mb_lsc_kmalloc_all;		/* count every process's kmallocs */

struct mb_lsc_slot mb_lsc_slots[MB_LSC_MAX_PRODUCERS + 1];
__u64 mb_lsc_kmallocs;

static __always_inline bool ours(void)
{
	return bpf_get_current_pid_tgid() >> 32 == mb_lsc_tgid;
}

static __always_inline void count_create(void *storage)
{
	int slot = mb_thread_slot();
	__u32 i = slot < 0 || slot > MB_LSC_OTHER ? MB_LSC_OTHER : (__u32)slot;

	if (storage)
		__sync_fetch_and_add(&mb_lsc_slots[i].creates, 1);
	else
		__sync_fetch_and_add(&mb_lsc_slots[i].create_errs, 1);
}

/* Runs in the parent, the thread that called clone(). */
SEC("?tp_btf/sched_process_fork")
int BPF_PROG(mb_lsc_fork, struct task_struct *parent, struct task_struct *child)
{
	if (parent->tgid != mb_lsc_tgid)
		return 0;
	count_create(bpf_task_storage_get(&mb_lsc_task, child, 0,
					  BPF_LOCAL_STORAGE_GET_F_CREATE));
	return 0;
}

SEC("?lsm.s/socket_post_create")
int BPF_PROG(mb_lsc_sock_lsm, struct socket *sock, int family, int type, int protocol, int kern)
{
	if (!ours())
		return 0;
	count_create(bpf_sk_storage_get(&mb_lsc_sk, sock->sk, 0,
					BPF_LOCAL_STORAGE_GET_F_CREATE));
	return 0;
}

/* The cgroup holds only this process; the tgid check keeps that true of a shared one. */
SEC("?cgroup/sock_create")
int mb_lsc_sock_cg(struct bpf_sock *sk)
{
	if (ours())
		count_create(bpf_sk_storage_get(&mb_lsc_sk, sk, 0,
						BPF_LOCAL_STORAGE_GET_F_CREATE));
	return 1;	/* allow the socket */
}

static __always_inline void count_kmalloc(void)
{
	if (mb_lsc_kmalloc_all || ours())
		__sync_fetch_and_add(&mb_lsc_kmallocs, 1);
}

SEC("?raw_tp/kmalloc")
int mb_lsc_kmalloc_raw(void *ctx)
{
	count_kmalloc();
	return 0;
}

SEC("?tp_btf/kmalloc")
int mb_lsc_kmalloc_btf(void *ctx)
{
	count_kmalloc();
	return 0;
}

SEC("?tp/kmem/kmalloc")
int mb_lsc_kmalloc_tp(void *ctx)
{
	count_kmalloc();
	return 0;
}
