// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --latency's injected-delay tests (tests/unit/test_lat_inject.c), for the timed twin of the
 * op loop (its _lat program) in calls of a multiple of four ops:
 * - mb_lat_inject: an op that is empty except when it is the op being timed, where it spins
 *   on the clock for a known time: of every eight timed ops, five are empty, two spin for
 *   short_ns and one for long_ns;
 * - mb_lat_period: an op that spins for short_ns on every 128th op number, as an LRU hash
 *   refills its free list every 128 updates: the timed ops must not fall on it more often
 *   than other ops do.
 */
#include "drivers/kloop.bpf.h"

const volatile __u64 short_ns = 20000;
const volatile __u64 long_ns = 80000;
__u64 timed_seen;

/* Spins until @ns have passed since it began; a spin cut short by the budget is an error. */
static __always_inline int spin(struct mb_loop_ctx *lc, __u64 ns)
{
	__u64 end = bpf_ktime_get_ns() + ns;

	while (bpf_ktime_get_ns() < end)
		MB_MAY_GOTO(cut);
	lc->hits++;
	return 0;
cut:
	lc->errors++;
	return 0;
}

/* The op's number over the producer's run (lat_base: its ops before the call plus the call's). */
static __always_inline __u64 op_number(__u32 index, struct mb_loop_ctx *lc)
{
	return MB_LAT_SLOT(lc)->lat_base - mb_loop_slot(lc)->call_iters + index;
}

/* Whether this op is the one being timed (the twin sets lat_timing around it). */
static __always_inline bool being_timed(struct mb_loop_ctx *lc)
{
	return MB_LAT_SLOT(lc)->lat_timing;
}

static __always_inline int inject_cb(__u32 index, struct mb_loop_ctx *lc)
{
	__u64 k;

	(void)index;
	if (!being_timed(lc))
		return 0;
	k = timed_seen++ & 7;
	if (k == 5 || k == 6)
		return spin(lc, short_ns);
	if (k == 7)
		return spin(lc, long_ns);
	return 0;
}

MB_LOOP_PROG(mb_lat_inject, inject_cb)

static __always_inline int period_cb(__u32 index, struct mb_loop_ctx *lc)
{
	if (op_number(index, lc) & 127)
		return 0;
	return spin(lc, short_ns);
}

MB_LOOP_PROG(mb_lat_period, period_cb)
