/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The linearity self-check of the kernel's 2026 timing method, as arithmetic alone: the same
 * op loop timed at N and at 2N iterations per call, the median of each set of calls; 2N must
 * take twice as long as N within 5 %, or the per-op figures depend on the call length (a
 * fixed cost per call, a cache that a longer call outgrows). The drivers make the calls.
 */
#ifndef MB_LINEARITY_H
#define MB_LINEARITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MB_LINEARITY_CALLS	5		/* calls at N and at 2N, as the kernel makes */
#define MB_LINEARITY_TOL	0.05		/* |ratio - 2| / 2 above this: not linear */
#define MB_LINEARITY_CALL_NS	10000000ULL	/* one call at N: about 10 ms, the kernel's */

struct mb_linearity {
	bool done;		/* the check ran to the end (else the rest is unset) */
	uint64_t n;		/* iterations of the N calls (the 2N calls ran twice as many) */
	double median_n_ns;	/* in-kernel ns of the median call at N, at 2N */
	double median_2n_ns;
	double ratio;		/* median_2n_ns / median_n_ns */
	bool ok;		/* |ratio - 2| / 2 <= MB_LINEARITY_TOL */
};

/*
 * Judge @calls timings at N (@n_ns) and at 2N (@n2_ns), in ns, into @out (n is the caller's):
 * the medians, their ratio and whether it is 2 within the tolerance. Sorts both arrays.
 * Returns 0, or -EINVAL when a median is not a positive time (out->done stays false).
 */
int mb_linearity_judge(double *n_ns, double *n2_ns, size_t calls, struct mb_linearity *out);

/*
 * N for calls of about @target_ns at @ns_per_iter (the op's cost measured so far), so that
 * 2N fits @max_iters; at least 1. 0 when 2N cannot fit (@max_iters < 2) or the cost is unknown.
 */
uint64_t mb_linearity_iters(double ns_per_iter, uint64_t target_ns, uint64_t max_iters);

#endif
