/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The bloom family's own counter, shared by its BPF (lc->counter[i]) and its C (bl_counters[],
 * s->total.counter[i]): one index, one name.
 */
#ifndef MB_BLOOM_COUNTERS_H
#define MB_BLOOM_COUNTERS_H

/* "Maybe" answers of the filter for values that were never inserted. */
#define BL_FALSE_HITS	0

#endif
