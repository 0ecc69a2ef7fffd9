/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The tailcall family's layout, shared by tailcall.bpf.c and user space: the ops per
 * test_run call, what the callee returns, and the callees' own count of ops. The includer
 * provides __u64 (vmlinux.h on the BPF side, <linux/types.h> in user space).
 */
#ifndef MB_TAILCALL_SHARED_H
#define MB_TAILCALL_SHARED_H

/*
 * Ops per test_run call. One program run may make at most 33 tail calls (the kernel's
 * MAX_TAIL_CALL_CNT), a count shared by its subprograms: 32 leaves one spare, and a 34th
 * would fall through, which the ops' check counts.
 */
#define TC_OPS_PER_CALL 32

#define TC_SLOT_HIT 0		/* the prog_array slot that holds the target */
#define TC_SLOT_EMPTY 1		/* the slot left empty: a tail call there falls through */

/* What an op's callee returns: the tail-called program (or the direct callee), or none. */
enum tc_ret {
	TC_RET_TARGET = 7,	/* the target ran: its return became the subprogram's */
	TC_RET_FELL = 9,	/* the tail call fell through (empty slot, or over the limit) */
};

/* Ops each callee saw, per producer, on cache lines of their own (like mb_slots). */
struct tc_count {
	__u64 target;		/* runs of the tail-called program or of the direct callee */
	__u64 fell;		/* tail calls that fell through */
} __attribute__((aligned(128)));

#endif
