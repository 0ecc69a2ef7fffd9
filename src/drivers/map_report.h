/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* What a map takes, in a result's extra.memory. */
#ifndef MB_DRIVERS_MAP_REPORT_H
#define MB_DRIVERS_MAP_REPORT_H

#include <stdint.h>

struct mb_run;

/*
 * Add extra.memory.<label> = { memlock_bytes, max_entries, entries, bytes_per_entry,
 * memlock_counts } to a result: memlock is the kernel's estimate (docs/methodology.md),
 * max_entries the capacity the kernel holds (with any head room), entries those present now
 * (read back: arrays hold max_entries, hash-like maps are walked; @inserted where the map
 * cannot say, as the bloom filter), bytes_per_entry memlock / entries (null when empty).
 */
void mb_run_report_map_memory(struct mb_run *run, const char *label, int map_fd,
			      uint64_t inserted);

#endif
