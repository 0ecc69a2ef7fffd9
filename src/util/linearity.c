// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The linearity self-check's decision (linearity.h). */
#include <errno.h>
#include <math.h>

#include "linearity.h"
#include "stats.h"

int mb_linearity_judge(double *n_ns, double *n2_ns, size_t calls, struct mb_linearity *out)
{
	double m1 = mb_median(n_ns, calls), m2 = mb_median(n2_ns, calls);

	out->done = false;
	/* NaN (no call) and 0 (a clock that did not move) give no ratio. */
	if (!(m1 > 0) || !(m2 > 0))
		return -EINVAL;
	out->median_n_ns = m1;
	out->median_2n_ns = m2;
	out->ratio = m2 / m1;
	out->ok = fabs(out->ratio - 2.0) / 2.0 <= MB_LINEARITY_TOL;
	out->done = true;
	return 0;
}

uint64_t mb_linearity_iters(double ns_per_iter, uint64_t target_ns, uint64_t max_iters)
{
	double n;

	if (max_iters < 2 || !(ns_per_iter > 0) || isinf(ns_per_iter))
		return 0;
	n = (double)target_ns / ns_per_iter;
	/* An op slower than the target still runs whole: one iteration, and two. */
	if (n < 1)
		n = 1;
	if (n > (double)(max_iters / 2))
		return max_iters / 2;
	return (uint64_t)n;
}
