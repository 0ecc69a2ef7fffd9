// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <linux/types.h>
#include <math.h>
#include <stdint.h>

#include "lat_hist.h"
#include "stats.h"

__u64 mb_lat_bucket_low(__u32 i)
{
	__u32 shift;

	if (i < MB_LAT_SUB)
		return i;
	shift = i / MB_LAT_SUB - 1;
	return (__u64)(MB_LAT_SUB + i % MB_LAT_SUB) << shift;
}

__u64 mb_lat_bucket_high(__u32 i)
{
	if (i < MB_LAT_SUB)
		return i;
	if (i == MB_LAT_BUCKETS - 1)
		return UINT64_MAX;
	return mb_lat_bucket_low(i + 1) - 1;
}

void mb_lat_hist_merge(struct mb_lat_hist *a, const struct mb_lat_hist *b)
{
	if (b->max > a->max)
		a->max = b->max;
	a->count += b->count;
	a->sum += b->sum;
	for (__u32 i = 0; i < MB_LAT_BUCKETS; i++)
		a->bucket[i] += b->bucket[i];
}

/* The bucket's middle, kept at or below max (the last bucket has no top of its own). */
static double bucket_mid(const struct mb_lat_hist *h, __u32 i)
{
	double lo = (double)mb_lat_bucket_low(i), mid;

	if (i == MB_LAT_BUCKETS - 1)
		return h->max > lo ? (double)h->max : lo;
	mid = (lo + (double)mb_lat_bucket_high(i)) / 2;
	return h->max >= lo && mid > (double)h->max ? (double)h->max : mid;
}

void mb_lat_hist_add_difference(struct mb_lat_hist *acc, const struct mb_lat_hist *now,
				const struct mb_lat_hist *then)
{
	acc->sum += now->sum - then->sum;
	if (now->max > acc->max)
		acc->max = now->max;
	for (__u32 i = 0; i < MB_LAT_BUCKETS; i++) {
		acc->bucket[i] += now->bucket[i] - then->bucket[i];
		acc->count += now->bucket[i] - then->bucket[i];
	}
}

double mb_lat_hist_percentile(const struct mb_lat_hist *h, double p)
{
	__u64 rank, seen = 0;

	if (!h->count)
		return NAN;
	rank = mb_nearest_rank(h->count, p);
	for (__u32 i = 0; i < MB_LAT_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			return bucket_mid(h, i);
	}
	return mb_lat_hist_max(h);
}

double mb_lat_hist_max(const struct mb_lat_hist *h)
{
	for (__u32 i = MB_LAT_BUCKETS; i-- > 0;) {
		if (!h->bucket[i])
			continue;
		if (h->max >= mb_lat_bucket_low(i) && h->max <= mb_lat_bucket_high(i))
			return (double)h->max;
		return i == MB_LAT_BUCKETS - 1 ? (double)mb_lat_bucket_low(i) :
						 (double)mb_lat_bucket_high(i);
	}
	return NAN;
}
