/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Tukey's fences: the outlier filter of the kernel bench's RESULT line (bench_bpf_timing.c),
 * kept here so that mapbench's RESULT lines count their samples the same way.
 */
#ifndef MB_IQR_H
#define MB_IQR_H

#include <stddef.h>

/* Fewer values than this are kept whole: quartiles of a handful of samples mean little. */
#define MB_IQR_MIN_N	8

/*
 * Sort @v (@n values, NaNs dropped) in place and, when at least MB_IQR_MIN_N are left, drop
 * those outside Q1 - 1.5 IQR .. Q3 + 1.5 IQR (quartiles by mb_percentile_sorted()). The kept
 * values are the first ones of @v, in ascending order. Returns how many were kept.
 */
size_t mb_iqr_filter(double *v, size_t n);

#endif
