/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The LRU benches' text lines (lru_text.c): what lru-dist and lru-loss found, kept by the
 * benches while they run, and the functions that render it once a run is over. The benches
 * print nothing themselves.
 */
#ifndef MB_FAMILIES_LRU_TEXT_H
#define MB_FAMILIES_LRU_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lru_common.h"

/* lru-loss parallel: stable keys per task. */
#define LRU_LOSS_PAR_STABLE	1000

/* What one lru-dist variant measured, for one task or summed over its tasks. */
struct lru_dist_total {
	uint64_t accesses, unique, bpf_misses, perfect_misses, insert_failures;
	uint64_t resident, syscalls, wall_ns, kernel_ns;
};

/* One lru-dist variant's lines: none until it finished (nr_tasks 0). */
struct lru_dist_found {
	struct lru_variant v;
	uint32_t max_entries;
	int nr_tasks;
	int cpu[LRU_MAX_TASKS];
	struct lru_dist_total task[LRU_MAX_TASKS];
	struct lru_dist_total total;
	bool interrupted;		/* a signal ended a task's replay early */
};

/* One lru-loss variant: [1] of each pair is the perfect LRU's figure; how far it got. */
struct lru_loss_found {
	struct lru_variant v;
	uint32_t older[2], active[2], newer[2];		/* loss0 */
	uint32_t loss1[2];
	uint64_t par[2];				/* parallel, all tasks */
	uint32_t lost[LRU_MAX_TASKS], plost[LRU_MAX_TASKS];	/* parallel, per task */
	bool loss0_done, loss1_done;
	bool par_checked;		/* the map was read: the parallel test's heading */
	int par_tasks;			/* tasks compared with the perfect LRU */
	bool done;			/* every test of the variant */
};

/*
 * What lru-dist and lru-loss pass to mb_run_partial() after their variants ran: the lines
 * are the first ones and each variant's test_lru_dist lines (not with -q), then, with
 * @summary, the Summary lines from run->extra.
 */
struct lru_text_view {
	enum lru_access access;
	const void *found;	/* struct lru_dist_found or lru_loss_found [nr] */
	int nr;
	bool summary;
};

/* .result: the Summary lines from run->extra (a text document). */
extern const struct mb_text_style lru_dist_text;
extern const struct mb_text_style lru_loss_text;

#endif
