// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * map-in-map-replace: which RCU grace-period waits an update of the outer map makes, and how
 * long they take. fentry/fexit on synchronize_rcu() and synchronize_rcu_expedited(), counted
 * only on the thread that updates (mb_mim_tid), so another process's waits never count. A
 * kernel before commit ff34657aa72a (6.19) waits with synchronize_rcu(), one from then on with
 * synchronize_rcu_expedited(); synchronize_rcu() itself calls the expedited one where
 * /sys/kernel/rcu_expedited is 1, so both may count for one wait.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* bpf_get_current_pid_tgid() of the updating thread, set by user space; 0: count nothing. */
__u64 mb_mim_tid;

/* Written here, read by user space through the mmapped .bss. */
__u64 mb_mim_sync_calls, mb_mim_sync_ns, mb_mim_sync_t0;
__u64 mb_mim_exp_calls, mb_mim_exp_ns, mb_mim_exp_t0;

static __always_inline bool mine(void)
{
	return mb_mim_tid && bpf_get_current_pid_tgid() == mb_mim_tid;
}

SEC("fentry/synchronize_rcu")
int BPF_PROG(mb_mim_sync_in)
{
	if (mine())
		mb_mim_sync_t0 = bpf_ktime_get_ns();
	return 0;
}

SEC("fexit/synchronize_rcu")
int BPF_PROG(mb_mim_sync_out)
{
	if (!mine() || !mb_mim_sync_t0)
		return 0;
	mb_mim_sync_ns += bpf_ktime_get_ns() - mb_mim_sync_t0;
	mb_mim_sync_t0 = 0;
	mb_mim_sync_calls++;
	return 0;
}

SEC("fentry/synchronize_rcu_expedited")
int BPF_PROG(mb_mim_exp_in)
{
	if (mine())
		mb_mim_exp_t0 = bpf_ktime_get_ns();
	return 0;
}

SEC("fexit/synchronize_rcu_expedited")
int BPF_PROG(mb_mim_exp_out)
{
	if (!mine() || !mb_mim_exp_t0)
		return 0;
	mb_mim_exp_ns += bpf_ktime_get_ns() - mb_mim_exp_t0;
	mb_mim_exp_t0 = 0;
	mb_mim_exp_calls++;
	return 0;
}
