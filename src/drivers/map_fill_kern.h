/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The in-kernel method of drivers/map_fill.h (map_fill_kern.c), for map_fill.c. */
#ifndef MB_DRIVERS_MAP_FILL_KERN_H
#define MB_DRIVERS_MAP_FILL_KERN_H

#include "map_fill.h"

/* Test_run calls of at most this many entries: each non-preemptible call takes a few ms. */
#define MB_FILL_CALL_MAX	(1u << 16)
/* Ranges from this size on run in parallel on the request's CPUs. */
#define MB_FILL_PARALLEL_MIN	(1u << 18)

/* @op over @f's range in the kernel, with f->filler or one loaded for the call. */
int mb_filler_run(enum mb_fill_op op, const struct mb_fill *f, struct mb_fill_result *r);

#endif
