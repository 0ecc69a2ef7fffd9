// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "iqr.h"
#include "stats.h"

size_t mb_iqr_filter(double *v, size_t n)
{
	double q1, q3, lo, hi;
	size_t m = mb_sort_numbers(v, n), k = 0;

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
