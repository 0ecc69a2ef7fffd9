// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <math.h>
#include <stdlib.h>

#include "iqr.h"
#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

size_t mb_iqr_filter(double *v, size_t n)
{
	double q1, q3, lo, hi;
	size_t m = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[m++] = v[i];
	qsort(v, m, sizeof(*v), cmp_double);
	if (m < MB_IQR_MIN_N)
		return m;
	q1 = mb_percentile_sorted(v, m, 25);
	q3 = mb_percentile_sorted(v, m, 75);
	lo = q1 - 1.5 * (q3 - q1);
	hi = q3 + 1.5 * (q3 - q1);
	/* Sorted: the kept values stay in order as they move down. */
	for (size_t i = 0; i < m; i++)
		if (v[i] >= lo && v[i] <= hi)
			v[k++] = v[i];
	return k;
}
