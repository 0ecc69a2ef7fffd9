/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Which producer a thread is, for programs that run in a producer's thread but are not fired
 * with its slot (a tracepoint, an LSM or cgroup hook on the owner it made, a read of its
 * socket): a hash of thread id -> slot that each producer fills for itself from user space
 * (thread_slots.h), before the programs can run for it. Preallocated, so a lookup allocates
 * nothing; the includer defines its license.
 */
#ifndef MB_THREAD_SLOTS_BPF_H
#define MB_THREAD_SLOTS_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "kloop_shared.h"	/* MB_MAX_SLOTS */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MB_MAX_SLOTS);
	__type(key, __u32);	/* the thread's id */
	__type(value, __u32);	/* its slot */
} mb_thread_slots SEC(".maps");

/* The calling thread's slot, or -1 where it registered none. */
static __always_inline int mb_thread_slot(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u32 *slot = bpf_map_lookup_elem(&mb_thread_slots, &tid);

	return slot && *slot < MB_MAX_SLOTS ? (int)*slot : -1;
}

#endif
