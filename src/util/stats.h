/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Descriptive statistics over a handful of samples. */
#ifndef MB_STATS_H
#define MB_STATS_H

#include <stddef.h>
#include <stdint.h>

struct mb_stats {
	size_t n;
	double mean;
	double stddev;	/* sample standard deviation (n - 1); NaN (unknown) when n < 2 */
	double median;
	double min;
	double max;
	double cv;	/* stddev / mean, as a fraction; 0 when mean is 0, NaN when n < 2 */
	double p5;	/* 5th and 95th percentiles, linear interpolation */
	double p95;
	double mad;	/* median absolute deviation (unscaled) */
};

/* Summarise @n values (NaNs are skipped). Returns 0, or -EINVAL when no value is left. */
int mb_stats_compute(const double *values, size_t n, struct mb_stats *st);

/* @v's values that are not NaN, moved to its front and sorted; returns how many there are. */
size_t mb_sort_numbers(double *v, size_t n);

/* The median of @n values (NaNs skipped), sorting them in place; NaN when none is left. */
double mb_median(double *v, size_t n);

/*
 * The 1-based nearest rank of percentile @p (clamped to 0..100) among @count values: the
 * histograms' percentiles, ceil(p / 100 * count), at least 1. A product that floating point
 * puts a hair above a whole number (99.9 % of 10000 is 9990.000000000002) is that number.
 */
uint64_t mb_nearest_rank(uint64_t count, double p);

/* Percentile @p (0..100) of a sorted array, with linear interpolation between ranks. */
double mb_percentile_sorted(const double *sorted, size_t n, double p);

/*
 * Whether @x is further than @k scaled MADs (1.4826 * MAD, the normal-consistent scale) from
 * the median, and also further than @min_rel (a fraction) of the median: with few samples
 * the MAD can be tiny (0 when most samples are equal), and a sample 0.5 % away is not noise
 * worth flagging.
 */
int mb_is_outlier(double x, const struct mb_stats *st, double k, double min_rel);

#endif
