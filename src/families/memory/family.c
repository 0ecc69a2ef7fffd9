// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The memory family: what maps cost in memory, under churn and at rest. */
#include "families/family.h"

extern const struct mb_bench mb_bench_htab_mem;
extern const struct mb_bench mb_bench_map_mem;

const struct mb_family mb_family_memory = {
	.name = "memory",
	.desc = "memory of maps: a hash map's cgroup usage under churn, every type's footprint",
	.benches = (const struct mb_bench *const[]){ &mb_bench_htab_mem, &mb_bench_map_mem, NULL },
	.suite = (const struct mb_suite_entry[]){ { .bench = "htab-mem" }, { .bench = NULL } },
};
