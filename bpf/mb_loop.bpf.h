/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The in-kernel op loop (docs/methodology.md). A raw_tp program, run by
 * bpf_prog_test_run_opts() on the producer's CPU, times bpf_loop() over a constant callback
 * with bpf_ktime_get_ns(). The verifier inlines bpf_loop only when its call site has a single
 * constant callback: so one program per operation, each made with MB_LOOP_PROG.
 */
#ifndef MB_LOOP_BPF_H
#define MB_LOOP_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "mb_shared.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct mb_slot mb_slots[MB_MAX_SLOTS];

/* State a callback sees, on the program's stack (bpf_loop's context must be on the stack). */
struct mb_loop_ctx {
	__u64 hits;
	__u64 misses;
	__u64 errors;
	__u64 false_hits;
	__u64 cursor;
	__u64 rng;
	__u64 arg;
	__u32 slot;
	__u32 ret;		/* program return value when the callback stops the loop */
};

/* xorshift64*: a few cycles, unlike the bpf_get_prandom_u32() helper call. */
static __always_inline __u64 mb_rand(struct mb_loop_ctx *lc)
{
	__u64 x = lc->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	lc->rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [0, n) by multiply-shift: no divide in the loop. */
static __always_inline __u32 mb_rand_below(struct mb_loop_ctx *lc, __u32 n)
{
	return (__u32)(((mb_rand(lc) >> 32) * (__u64)n) >> 32);
}

#define MB_LOOP_PROG(_prog, _callback)						\
SEC("raw_tp")									\
int _prog(__u64 *ctx)								\
{										\
	struct mb_loop_ctx lc = {};						\
	struct mb_slot *slot;							\
	__u64 idx = ctx[MB_ARG_SLOT], t0, t1;					\
	long n;									\
										\
	if (idx >= MB_MAX_SLOTS)						\
		return MB_RET_BAD_ARGS;						\
	slot = &mb_slots[idx];							\
	lc.slot = idx;								\
	lc.cursor = slot->cursor;						\
	lc.rng = slot->rng;							\
	lc.arg = slot->arg;							\
	t0 = bpf_ktime_get_ns();						\
	n = bpf_loop(ctx[MB_ARG_ITERS], _callback, &lc, 0);			\
	t1 = bpf_ktime_get_ns();						\
	slot->kernel_ns += t1 - t0;						\
	slot->calls++;								\
	if (n > 0)								\
		slot->ops += n;							\
	else if (n < 0)								\
		slot->errors++;							\
	slot->hits += lc.hits;							\
	slot->misses += lc.misses;						\
	slot->errors += lc.errors;						\
	slot->false_hits += lc.false_hits;					\
	slot->cursor = lc.cursor;						\
	slot->rng = lc.rng;							\
	return lc.ret;								\
}

#endif
