// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The candidate with the lowest mean figure in each group (group_min.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "group_min.h"

#define GROUP_MIN_MAX_CELLS	(1L << 24)

int mb_group_min_init(struct mb_group_min *m, int groups, int candidates)
{
	memset(m, 0, sizeof(*m));
	if (groups < 1 || candidates < 1 || (long)groups * candidates > GROUP_MIN_MAX_CELLS)
		return -EINVAL;
	m->sum = calloc((size_t)groups * (size_t)candidates, sizeof(*m->sum));
	m->n = calloc((size_t)groups * (size_t)candidates, sizeof(*m->n));
	if (!m->sum || !m->n) {
		mb_group_min_free(m);
		return -ENOMEM;
	}
	m->groups = groups;
	m->candidates = candidates;
	return 0;
}

void mb_group_min_add(struct mb_group_min *m, int g, int c, double x)
{
	size_t i;

	if (!isfinite(x) || g < 0 || g >= m->groups || c < 0 || c >= m->candidates)
		return;
	i = (size_t)g * (size_t)m->candidates + (size_t)c;
	m->sum[i] += x;
	m->n[i]++;
}

int mb_group_min_best(const struct mb_group_min *m, int g, double *mean)
{
	double best = INFINITY;
	int at = -1;

	if (g < 0 || g >= m->groups)
		return -1;
	for (int c = 0; c < m->candidates; c++) {
		size_t i = (size_t)g * (size_t)m->candidates + (size_t)c;
		double v;

		if (!m->n[i])
			continue;
		v = m->sum[i] / m->n[i];
		if (at < 0 || v < best) {
			best = v;
			at = c;
		}
	}
	if (mean)
		*mean = at < 0 ? NAN : best;
	return at;
}

void mb_group_min_free(struct mb_group_min *m)
{
	free(m->sum);
	free(m->n);
	m->sum = NULL;
	m->n = NULL;
	m->groups = m->candidates = 0;
}
