/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The Mann-Whitney U test (Wilcoxon rank-sum): do two sets of samples come from the same
 * distribution? Rank-based, so it needs no normality and shrugs off a single wild sample.
 */
#ifndef MB_MWU_H
#define MB_MWU_H

#include <stdbool.h>
#include <stddef.h>

/* Up to this many samples on each side without ties, the exact distribution is used. */
#define MB_MWU_EXACT_MAX	50

enum mb_mwu_method {
	MB_MWU_EXACT,		/* exact permutation distribution of U */
	MB_MWU_NORMAL,		/* normal approximation, tie and continuity corrections */
};

struct mb_mwu {
	double u;		/* U of @y: pairs (x_i, y_j) with y_j > x_i, ties counting 1/2 */
	double p;		/* two-sided p-value */
	double z;		/* normal approximation: the standardised U (0 for exact) */
	double p_min;		/* the smallest two-sided p-value m and n samples can give */
	enum mb_mwu_method method;
	bool ties;		/* some value occurs in both or twice */
};

/*
 * Two-sided test of @x (m values) against @y (n values). NaNs must have been removed.
 * Returns 0, -EINVAL when a side is empty, or -ENOMEM.
 */
int mb_mwu_test(const double *x, size_t m, const double *y, size_t n, struct mb_mwu *r);

/*
 * P(U <= u) under the null hypothesis for sample sizes m and n without ties (exact, by the
 * recurrence over the largest element). Returns NaN for sizes above MB_MWU_EXACT_MAX.
 */
double mb_mwu_exact_cdf(size_t m, size_t n, double u);

#endif
