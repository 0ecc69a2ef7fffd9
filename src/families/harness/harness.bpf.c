// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Harness benches: the empty op loop (bpf-noop, the same program as the drivers' reference,
 * src/drivers/reference.bpf.c) and bpf-loop.
 */
#include "drivers/kloop.bpf.h"

/* Iterations of the inner bpf_loop for bpf-loop (set before load). */
const volatile __u32 mb_nr_loops = 10;

static __always_inline int noop_cb(__u32 index, void *ctx)
{
	return 0;
}

MB_LOOP_PROG(mb_noop, noop_cb)

static __always_inline int empty_cb(__u32 index, void *ctx)
{
	return 0;
}

/* One outer iteration calls the helper once with mb_nr_loops callback iterations. */
static __always_inline int loop_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	long n = bpf_loop(mb_nr_loops, empty_cb, NULL, 0);

	if (n > 0)
		lc->hits += n;
	return 0;
}

MB_LOOP_PROG(mb_bpf_loop, loop_cb)
