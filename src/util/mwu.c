// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mwu.h"

/*
 * P(i, j, u), the probability that U = u for i x-values and j y-values, follows from where the
 * largest of the i + j values comes from: a y-value (probability j / (i + j)) is above all i
 * x-values and adds i to U; an x-value (probability i / (i + j)) adds nothing:
 *	P(i, j, u) = j / (i + j) * P(i, j - 1, u - i) + i / (i + j) * P(i - 1, j, u)
 * with P(0, j, 0) = P(i, 0, 0) = 1. Probabilities, not counts, so nothing overflows.
 * Two rows of (n + 1) distributions are kept: O(m n) memory per row, O(m^2 n^2) time.
 */
double mb_mwu_exact_cdf(size_t m, size_t n, double u)
{
	size_t width = m * n + 1;
	double *prev, *cur, cdf = 0;

	if (m > MB_MWU_EXACT_MAX || n > MB_MWU_EXACT_MAX)
		return NAN;
	if (u < 0)
		return 0;
	prev = calloc((n + 1) * width, sizeof(double));
	cur = calloc((n + 1) * width, sizeof(double));
	if (!prev || !cur) {
		free(prev);
		free(cur);
		return NAN;
	}
	/* Row i = 0: no x-value, U is 0 whatever j is. */
	for (size_t j = 0; j <= n; j++)
		prev[j * width] = 1;
	for (size_t i = 1; i <= m; i++) {
		double *tmp;

		memset(cur, 0, (n + 1) * width * sizeof(double));
		cur[0] = 1;	/* j = 0 */
		for (size_t j = 1; j <= n; j++) {
			double py = (double)j / (double)(i + j), px = (double)i / (double)(i + j);
			const double *left = &cur[(j - 1) * width], *up = &prev[j * width];
			double *out = &cur[j * width];

			for (size_t v = 0; v <= i * j; v++)
				out[v] = px * up[v] + (v >= i ? py * left[v - i] : 0);
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	for (size_t v = 0; v < width && (double)v <= u + 1e-9; v++)
		cdf += prev[n * width + v];
	free(prev);
	free(cur);
	return cdf > 1 ? 1 : cdf;
}

struct ranked {
	double v;
	bool is_y;
};

static int cmp_ranked(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;

	return x < y ? -1 : x > y;
}

int mb_mwu_test(const double *x, size_t m, const double *y, size_t n, struct mb_mwu *r)
{
	size_t total = m + n;
	struct ranked *all;
	double rank_sum_y = 0, tie_term = 0, mu, var, dev;

	memset(r, 0, sizeof(*r));
	if (!m || !n)
		return -EINVAL;
	all = calloc(total, sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (size_t i = 0; i < m; i++)
		all[i] = (struct ranked){ .v = x[i] };
	for (size_t j = 0; j < n; j++)
		all[m + j] = (struct ranked){ .v = y[j], .is_y = true };
	qsort(all, total, sizeof(*all), cmp_ranked);
	/* Mid-ranks: a run of t equal values shares the mean of its ranks. */
	for (size_t i = 0; i < total;) {
		size_t k = i;
		double mid, t;

		while (k + 1 < total && all[k + 1].v == all[i].v)
			k++;
		t = (double)(k - i + 1);
		mid = ((double)i + (double)k) / 2 + 1;
		for (size_t q = i; q <= k; q++)
			if (all[q].is_y)
				rank_sum_y += mid;
		if (t > 1) {
			r->ties = true;
			tie_term += t * t * t - t;
		}
		i = k + 1;
	}
	free(all);
	r->u = rank_sum_y - (double)n * (double)(n + 1) / 2;
	mu = (double)m * (double)n / 2;
	r->p_min = 2 * exp(lgamma((double)m + 1) + lgamma((double)n + 1) - lgamma((double)total + 1));
	if (r->p_min > 1)
		r->p_min = 1;

	if (!r->ties && m <= MB_MWU_EXACT_MAX && n <= MB_MWU_EXACT_MAX) {
		/* The distribution is symmetric about mn/2: double the smaller tail. */
		double lo = r->u < mu ? r->u : (double)m * (double)n - r->u;
		double cdf = mb_mwu_exact_cdf(m, n, lo);

		if (isnan(cdf))
			return -ENOMEM;
		r->method = MB_MWU_EXACT;
		r->p = 2 * cdf > 1 ? 1 : 2 * cdf;
		return 0;
	}
	r->method = MB_MWU_NORMAL;
	var = (double)m * (double)n / 12 *
	      ((double)total + 1 - tie_term / ((double)total * ((double)total - 1)));
	if (var <= 0) {
		/* Every value is the same: no evidence of any difference. */
		r->p = 1;
		return 0;
	}
	/* Continuity correction: U moves in steps of 1/2 (ties) or 1. */
	dev = fabs(r->u - mu) - 0.5;
	if (dev < 0)
		dev = 0;
	r->z = (r->u > mu ? dev : -dev) / sqrt(var);
	r->p = erfc(fabs(r->z) / sqrt(2.0));
	if (r->p > 1)
		r->p = 1;
	return 0;
}
