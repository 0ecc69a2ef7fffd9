// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <math.h>
#include <string.h>

#include "hist.h"
#include "stats.h"

void mb_hist_init(struct mb_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void mb_hist_merge(struct mb_hist *a, const struct mb_hist *b)
{
	if (!b->count)
		return;
	if (!a->count || b->min < a->min)
		a->min = b->min;
	if (b->max > a->max)
		a->max = b->max;
	a->count += b->count;
	for (unsigned int i = 0; i < MB_HIST_BUCKETS; i++)
		a->bucket[i] += b->bucket[i];
}

uint64_t mb_hist_bucket_low(unsigned int i)
{
	unsigned int shift;

	if (i < MB_HIST_SUB)
		return i;
	shift = i / MB_HIST_SUB - 1;
	return (uint64_t)(MB_HIST_SUB + i % MB_HIST_SUB) << shift;
}

uint64_t mb_hist_bucket_high(unsigned int i)
{
	unsigned int shift;

	if (i < MB_HIST_SUB)
		return i;
	shift = i / MB_HIST_SUB - 1;
	return mb_hist_bucket_low(i) + ((1ULL << shift) - 1);
}

double mb_hist_percentile(const struct mb_hist *h, double p)
{
	uint64_t rank, seen = 0;
	double mid;

	if (!h->count)
		return NAN;
	rank = mb_nearest_rank(h->count, p);
	for (unsigned int i = 0; i < MB_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen < rank)
			continue;
		mid = ((double)mb_hist_bucket_low(i) + (double)mb_hist_bucket_high(i)) / 2;
		if (mid < (double)h->min)
			mid = (double)h->min;
		if (mid > (double)h->max)
			mid = (double)h->max;
		return mid;
	}
	return (double)h->max;
}
