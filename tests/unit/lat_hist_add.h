/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * For the tests of latency histograms: a value added to one as the BPF side adds each timed
 * op (drivers/kloop_lat.bpf.h), @times over.
 */
#ifndef MB_TEST_LAT_HIST_ADD_H
#define MB_TEST_LAT_HIST_ADD_H

#include <linux/types.h>

#include "util/lat_hist.h"

static inline void lat_hist_add(struct mb_lat_hist *h, __u64 v, __u64 times)
{
	h->bucket[mb_lat_bucket(v)] += times;
	h->count += times;
	h->sum += v * times;
	if (v > h->max)
		h->max = v;
}

#endif
