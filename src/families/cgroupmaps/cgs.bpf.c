// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * cgroupmaps family: bpf_get_local_storage() and an update of the value, in a loop inside a
 * cgroup_skb program run by BPF_PROG_TEST_RUN. test_run gives the run a storage of each type
 * the program uses, fresh and zeroed for the call and freed after it (it is not the map's:
 * the map stays empty), so the value after the call's last op must equal the call's ops: the
 * program leaves it in mb_cgs_value for user space to compare.
 *
 * The loop is bounded by may_goto (kloop.bpf.h's loop, written out here: that one is a raw_tp
 * program whose arguments come in its context, this one's context is a packet), four ops a
 * budget check; the count of ops comes in .bss. One producer: its counters are slot 0.
 */
#include "drivers/slots.bpf.h"
#include "drivers/may_goto.bpf.h"
#include "cgs_shared.h"

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_STORAGE);
	__type(key, struct bpf_cgroup_storage_key);
	__type(value, __u64);
} mb_cgs_shared SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE);
	__type(key, struct bpf_cgroup_storage_key);
	__type(value, __u64);
} mb_cgs_percpu SEC(".maps");

__u64 mb_cgs_iters;	/* ops of the next call, set by user space */
__u64 mb_cgs_value;	/* the storage's value after the call's last op */

/*
 * One op: the storage, then one more in its value. The shared storage is every CPU's of the
 * cgroup, so its count is an atomic add, as a program that counts in it needs; the per-CPU
 * one is this CPU's copy, a plain add.
 */
#define CGS_OP_SHARED								\
	__sync_fetch_and_add((__u64 *)bpf_get_local_storage(&mb_cgs_shared, 0), 1)
#define CGS_OP_PERCPU	(*(__u64 *)bpf_get_local_storage(&mb_cgs_percpu, 0))++

#define CGS_PROG(_prog, _map, _op)						\
SEC("cgroup_skb/egress")							\
int _prog(struct __sk_buff *skb)						\
{										\
	struct mb_slot *slot = &mb_slots[0];					\
	__u64 n = mb_cgs_iters, left = n;					\
										\
	slot->start_ns = bpf_ktime_get_ns();					\
	while (left >= 4) {							\
		MB_MAY_GOTO(out);						\
		_op;								\
		_op;								\
		_op;								\
		_op;								\
		left -= 4;							\
	}									\
	while (left) {								\
		MB_MAY_GOTO(out);						\
		_op;								\
		left--;								\
	}									\
out:										\
	slot->kernel_ns += bpf_ktime_get_ns() - slot->start_ns;		\
	slot->calls++;								\
	slot->ops += n - left;							\
	mb_cgs_value = *(__u64 *)bpf_get_local_storage(&_map, 0);		\
	return MB_CGS_RET;							\
}

CGS_PROG(mb_cgs_shared_get, mb_cgs_shared, CGS_OP_SHARED)
CGS_PROG(mb_cgs_percpu_get, mb_cgs_percpu, CGS_OP_PERCPU)
