/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A log-linear histogram of non-negative integers (latencies in ns): each power of two is cut
 * into MB_HIST_SUB equal buckets, so a percentile read from it is within 1 / MB_HIST_SUB
 * (about 3 %) of the value it stands for, at any scale, in a fixed 16 KiB and one add per value.
 */
#ifndef MB_HIST_H
#define MB_HIST_H

#include <stdint.h>

#define MB_HIST_SUB_BITS	5
#define MB_HIST_SUB		(1u << MB_HIST_SUB_BITS)
#define MB_HIST_BUCKETS		((64 - MB_HIST_SUB_BITS + 1) * MB_HIST_SUB)

struct mb_hist {
	uint64_t count;
	uint64_t min, max;
	uint64_t bucket[MB_HIST_BUCKETS];
};

/* The bucket of @v: values below MB_HIST_SUB have one each, above they share by power of two. */
static inline unsigned int mb_hist_bucket(uint64_t v)
{
	unsigned int msb, shift;

	if (v < MB_HIST_SUB)
		return (unsigned int)v;
	msb = 63u - (unsigned int)__builtin_clzll(v);
	shift = msb - MB_HIST_SUB_BITS;
	return (shift + 1) * MB_HIST_SUB + (unsigned int)((v >> shift) & (MB_HIST_SUB - 1));
}

static inline void mb_hist_add(struct mb_hist *h, uint64_t v)
{
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->bucket[mb_hist_bucket(v)]++;
}

void mb_hist_init(struct mb_hist *h);
/* Add @b's values to @a. */
void mb_hist_merge(struct mb_hist *a, const struct mb_hist *b);
/* The smallest and largest value bucket @i holds. */
uint64_t mb_hist_bucket_low(unsigned int i);
uint64_t mb_hist_bucket_high(unsigned int i);
/*
 * Percentile @p (0..100): the middle of the bucket that holds the value of that rank, kept
 * within the smallest and largest value added. NaN when the histogram is empty.
 */
double mb_hist_percentile(const struct mb_hist *h, double p);

#endif
