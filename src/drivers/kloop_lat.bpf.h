/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Per-op latency of the in-kernel op loop (--latency, docs/methodology.md). Every op loop
 * has a third program, _prog##_lat: the may_goto loop, where one op in MB_LAT_EVERY runs
 * between two bpf_ktime_get_ns() reads and a third read follows at once. The op's duration
 * (gross: it includes one clock read's cost) goes to this CPU's histogram MB_LAT_OP, the
 * empty pair's (that cost alone) to MB_LAT_TIMER. The program runs with preemption off
 * (test_run), so a CPU's histogram has one writer at a time and needs no atomics.
 */
#ifndef MB_KLOOP_LAT_BPF_H
#define MB_KLOOP_LAT_BPF_H

#include "kloop_shared.h"
#include "util/lat_hist.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, MB_LAT_HISTS);
	__type(key, __u32);
	__type(value, struct mb_lat_hist);
} mb_lat_hists SEC(".maps");

/* The timed twin's own fields beside the loop state @lc (kloop_shared.h). */
#define MB_LAT_SLOT(lc)	((struct mb_loop_ctx_slot *)(lc))

/*
 * Adds the difference of two of @w's clock reads, @hi less @lo, to histogram @key. They are
 * read after the lookup, so nothing waits in a register across its call.
 */
#define MB_LAT_ADD(w, key, hi, lo)						\
	do {									\
		struct mb_lat_hist *mb_h;					\
		__u64 mb_ns;							\
		__u32 mb_b;							\
										\
		(w)->lat_key = (key);						\
		mb_h = bpf_map_lookup_elem(&mb_lat_hists, &(w)->lat_key);	\
		if (!mb_h)							\
			break;							\
		mb_ns = (w)->hi - (w)->lo;					\
		mb_b = mb_lat_bucket(mb_ns);					\
		if (mb_b >= MB_LAT_BUCKETS)					\
			break;							\
		mb_h->bucket[mb_b]++;						\
		mb_h->count++;							\
		mb_h->sum += mb_ns;						\
		if (mb_ns > mb_h->max)						\
			mb_h->max = mb_ns;					\
	} while (0)

/* Whether the step that starts with @l ops left times its first op (below). */
#define MB_LAT_DUE(lc, l)							\
	(MB_LAT_SLOT(lc)->lat_base - (l) >= MB_LAT_SLOT(lc)->lat_next)

/*
 * The XDP loop's test (xdp_loop_lat.bpf.h): the op run while @left ops are left (before it),
 * number lat_base - left, is due when that number is at least lat_next: when left <=
 * lat_base - lat_next. So this is the number of ops left at the next due op, or 0 where none
 * is due in this call.
 */
#define MB_LAT_DUE_AT(lc)							\
	(MB_LAT_SLOT(lc)->lat_base > MB_LAT_SLOT(lc)->lat_next ?		\
	 MB_LAT_SLOT(lc)->lat_base - MB_LAT_SLOT(lc)->lat_next : 0)

/*
 * Before and after the timed op: the first clock read, with lat_timing set while the op runs
 * (an op that must know it is the timed one can read it: the tests' injected delays).
 */
#define MB_LAT_BEGIN(lc)							\
	do {									\
		MB_LAT_SLOT(lc)->lat_timing = 1;				\
		MB_LAT_SLOT(lc)->lat_t0 = bpf_ktime_get_ns();			\
	} while (0)

/*
 * The next timed op, drawn after op number @done was timed: a gap uniform in MB_LAT_EVERY / 2
 * .. 3 * MB_LAT_EVERY / 2, its mean MB_LAT_EVERY. Not a fixed gap: a fixed one aliases
 * with anything the map does every 2^k ops (an LRU hash refills its per-CPU free list every
 * 128 updates, and a gap of 8192 timed that refill 14 times as often as it happens).
 * xorshift64: cheap, and seeded the same in every run, so runs time the same op numbers.
 */
#define MB_LAT_NEXT(lc, done)							\
	do {									\
		__u64 mb_x = MB_LAT_SLOT(lc)->lat_rng;				\
										\
		if (!mb_x)							\
			mb_x = 0x9e3779b97f4a7c15ULL;				\
		mb_x ^= mb_x << 13;						\
		mb_x ^= mb_x >> 7;						\
		mb_x ^= mb_x << 17;						\
		MB_LAT_SLOT(lc)->lat_rng = mb_x;				\
		MB_LAT_SLOT(lc)->lat_next = (done) + MB_LAT_EVERY / 2 +		\
					    mb_x % (MB_LAT_EVERY + 1);		\
	} while (0)

/*
 * After the timed op: the clock's second read, a third at once (the timer alone), and both
 * differences into the histograms. The reads wait beside the loop state (in .bss), not in
 * registers that the helper calls would make the compiler spill to the stack.
 */
#define MB_LAT_RECORD(lc, done)						\
	do {									\
		MB_LAT_SLOT(lc)->lat_t1 = bpf_ktime_get_ns();			\
		MB_LAT_SLOT(lc)->lat_t2 = bpf_ktime_get_ns();			\
		MB_LAT_SLOT(lc)->lat_timing = 0;				\
		MB_LAT_ADD(MB_LAT_SLOT(lc), MB_LAT_OP, lat_t1, lat_t0);		\
		MB_LAT_ADD(MB_LAT_SLOT(lc), MB_LAT_TIMER, lat_t2, lat_t1);	\
		MB_LAT_NEXT(lc, done);						\
	} while (0)

/*
 * The may_goto loop of kloop.bpf.h with one op in MB_LAT_EVERY timed, on average. An op's
 * number over the producer's whole run is the slot's ops before the call plus the ops run in
 * it (lat_base less @left): it grows by four a step, and the first step that starts at or
 * past lat_next times its first op and draws the next lat_next (MB_LAT_NEXT). The rate holds
 * across calls of any length. The op's code is the same copy
 * timed or not, so the program holds as many copies of it as the plain loop (and the same
 * stack); the other steps pay two tests. An op that stops the loop is not recorded.
 */
#define MB_LOOP_MAY_GOTO_LAT(_prog, _pre_decl, _call)				\
SEC("raw_tp")									\
int _prog(__u64 *ctx)								\
{										\
	__u64 left = ctx[MB_ARG_ITERS];						\
	struct mb_loop_ctx *lc =						\
		&mb_loop_ctxs[ctx[MB_ARG_SLOT] & (MB_MAX_SLOTS - 1)].lc;	\
										\
	if (!mb_loop_begin(ctx, lc))						\
		return MB_RET_BAD_ARGS;						\
	_pre_decl;								\
	MB_LAT_SLOT(lc)->lat_base = mb_loop_slot(lc)->ops + left;		\
	mb_loop_start(lc, left);						\
	while (left >= 4) {							\
		MB_MAY_GOTO(out);						\
		if (MB_LAT_DUE(lc, left))					\
			MB_LAT_BEGIN(lc);					\
		MB_LOOP_STEP_CALL(_call, lc, left, out);			\
		if (MB_LAT_DUE(lc, left + 1))					\
			MB_LAT_RECORD(lc, MB_LAT_SLOT(lc)->lat_base - (left + 1)); \
		MB_LOOP_STEP_CALL(_call, lc, left, out);			\
		MB_LOOP_STEP_CALL(_call, lc, left, out);			\
		MB_LOOP_STEP_CALL(_call, lc, left, out);			\
	}									\
	while (left) {								\
		MB_MAY_GOTO(out);						\
		MB_LOOP_STEP_CALL(_call, lc, left, out);			\
	}									\
out:										\
	return mb_loop_end(lc, (long)(mb_loop_slot(lc)->call_iters - left));	\
}

#endif
