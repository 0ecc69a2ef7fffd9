// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

uint64_t mb_nearest_rank(uint64_t count, double p)
{
	double r;
	uint64_t rank;

	if (p < 0)
		p = 0;
	if (p > 100)
		p = 100;
	r = p / 100.0 * (double)count;
	rank = (uint64_t)ceil(r - r * 1e-12);
	return rank < 1 ? 1 : rank;
}

double mb_percentile_sorted(const double *sorted, size_t n, double p)
{
	double rank, frac;
	size_t lo;

	if (!n)
		return NAN;
	if (p <= 0)
		return sorted[0];
	if (p >= 100)
		return sorted[n - 1];
	rank = p / 100.0 * (double)(n - 1);
	lo = (size_t)rank;
	frac = rank - (double)lo;
	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

size_t mb_sort_numbers(double *v, size_t n)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[m++] = v[i];
	qsort(v, m, sizeof(*v), cmp_double);
	return m;
}

double mb_median(double *v, size_t n)
{
	return mb_percentile_sorted(v, mb_sort_numbers(v, n), 50);
}

int mb_stats_compute(const double *values, size_t n, struct mb_stats *st)
{
	double *v, sum = 0, sq = 0;
	size_t m = 0;

	memset(st, 0, sizeof(*st));
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!isnan(values[i]))
			v[m++] = values[i];
	if (!m) {
		free(v);
		return -EINVAL;
	}
	qsort(v, m, sizeof(*v), cmp_double);
	for (size_t i = 0; i < m; i++)
		sum += v[i];
	st->n = m;
	st->mean = sum / (double)m;
	/* Two-pass variance: exact enough for rates around 1e9 with few samples. */
	for (size_t i = 0; i < m; i++)
		sq += (v[i] - st->mean) * (v[i] - st->mean);
	/* One value shows no spread: unknown, not zero (JSON null, text n/a). */
	st->stddev = m > 1 ? sqrt(sq / (double)(m - 1)) : NAN;
	st->min = v[0];
	st->max = v[m - 1];
	st->median = mb_percentile_sorted(v, m, 50);
	st->p5 = mb_percentile_sorted(v, m, 5);
	st->p95 = mb_percentile_sorted(v, m, 95);
	st->cv = m < 2 ? NAN : st->mean != 0 ? st->stddev / fabs(st->mean) : 0;
	for (size_t i = 0; i < m; i++)
		v[i] = fabs(v[i] - st->median);
	qsort(v, m, sizeof(*v), cmp_double);
	st->mad = mb_percentile_sorted(v, m, 50);
	free(v);
	return 0;
}

int mb_is_outlier(double x, const struct mb_stats *st, double k, double min_rel)
{
	double scale = 1.4826 * st->mad, dev = fabs(x - st->median);

	/* A MAD of 0 (most samples equal) leaves the relative distance to judge alone. */
	if (isnan(x))
		return 0;
	return dev > k * scale && dev > min_rel * fabs(st->median);
}
