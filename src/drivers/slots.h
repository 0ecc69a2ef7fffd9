/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The op loop's per-producer slots (struct mb_slot, kloop_shared.h) as user space reads them
 * back after a run: the counts of every producer added up, for the check that the ops happened.
 */
#ifndef MB_DRIVERS_SLOTS_H
#define MB_DRIVERS_SLOTS_H

#include <linux/types.h>

#include "kloop_shared.h"

/*
 * The counts of @n slots added up in *@sum: ops, hits, misses, errors, the bench's counters,
 * kernel_ns and calls. The per-producer state (cursor, rng, arg, the running call) is not a
 * count: it is 0 in *@sum. @n <= 0 gives all zeros.
 */
void mb_slots_sum(const struct mb_slot *slots, int n, struct mb_slot *sum);

#endif
