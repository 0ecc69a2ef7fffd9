// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --latency's injected-delay test (tests/unit/test_lat_inject.c): an op that is empty except
 * on some of the ops the timed twin times, where it spins on the clock for a known time. Of
 * every eight timed ops (op numbers 0, MB_LAT_EVERY, ... within a call whose length is a
 * multiple of 8 * MB_LAT_EVERY), five are empty, two spin for short_ns and one for long_ns.
 */
#include "drivers/kloop.bpf.h"

const volatile __u64 short_ns = 20000;
const volatile __u64 long_ns = 80000;

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

static __always_inline int inject_cb(__u32 index, struct mb_loop_ctx *lc)
{
	__u32 k;

	if (index & (MB_LAT_EVERY - 1))
		return 0;
	k = (index / MB_LAT_EVERY) & 7;
	if (k == 5 || k == 6)
		return spin(lc, short_ns);
	if (k == 7)
		return spin(lc, long_ns);
	return 0;
}

MB_LOOP_PROG(mb_lat_inject, inject_cb)
