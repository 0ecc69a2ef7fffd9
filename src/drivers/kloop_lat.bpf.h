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

static __always_inline void mb_lat_add(__u32 key, __u64 ns)
{
	struct mb_lat_hist *h = bpf_map_lookup_elem(&mb_lat_hists, &key);
	__u32 b = mb_lat_bucket(ns);

	if (!h || b >= MB_LAT_BUCKETS)
		return;
	h->bucket[b]++;
	h->count++;
	h->sum += ns;
	if (ns > h->max)
		h->max = ns;
}

/* One op of the loop, timed: @_call as in MB_LOOP_STEP_CALL. An op that stops the loop is not
 * recorded. */
#define MB_LOOP_STEP_TIMED(_call, lc, left, done)				\
	do {									\
		__u64 mb_t0, mb_t1, mb_t2;					\
										\
		(left)--;							\
		MB_OPAQUE(lc);							\
		mb_t0 = bpf_ktime_get_ns();					\
		if (_call)							\
			goto done;						\
		mb_t1 = bpf_ktime_get_ns();					\
		mb_t2 = bpf_ktime_get_ns();					\
		mb_lat_add(MB_LAT_OP, mb_t1 - mb_t0);				\
		mb_lat_add(MB_LAT_TIMER, mb_t2 - mb_t1);			\
	} while (0)

/*
 * The may_goto loop of kloop.bpf.h with one op in MB_LAT_EVERY timed. An op's number over the
 * producer's whole run is the slot's ops before the call plus the ops run in it (@mb_lat_d
 * less @left): it grows by four a step, so of MB_LAT_EVERY / 4 steps in a row exactly one
 * starts at a number below four modulo MB_LAT_EVERY, and that step times its first op. The
 * count is one in MB_LAT_EVERY across calls of any length; the other steps pay a test.
 */
#define MB_LOOP_MAY_GOTO_LAT(_prog, _pre_decl, _call)				\
SEC("raw_tp")									\
int _prog(__u64 *ctx)								\
{										\
	__u64 left = ctx[MB_ARG_ITERS], mb_lat_d;				\
	struct mb_loop_ctx *lc =						\
		&mb_loop_ctxs[ctx[MB_ARG_SLOT] & (MB_MAX_SLOTS - 1)].lc;	\
										\
	if (!mb_loop_begin(ctx, lc))						\
		return MB_RET_BAD_ARGS;						\
	_pre_decl;								\
	mb_lat_d = mb_loop_slot(lc)->ops + left;				\
	mb_loop_start(lc, left);						\
	while (left >= 4) {							\
		MB_MAY_GOTO(out);						\
		if (((mb_lat_d - left) & (MB_LAT_EVERY - 1)) < 4)		\
			MB_LOOP_STEP_TIMED(_call, lc, left, out);		\
		else								\
			MB_LOOP_STEP_CALL(_call, lc, left, out);		\
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
