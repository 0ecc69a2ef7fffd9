// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The harness family: what measuring costs, before any map is involved. */
#include "families/family.h"

extern const struct mb_bench mb_bench_count_global;
extern const struct mb_bench mb_bench_count_local;
extern const struct mb_bench mb_bench_bpf_noop;
extern const struct mb_bench mb_bench_bpf_loop;

const struct mb_family mb_family_harness = {
	.name = "harness",
	.desc = "the harness itself: user-space counters and the empty in-kernel loop",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_count_global, &mb_bench_count_local, &mb_bench_bpf_noop,
		&mb_bench_bpf_loop, NULL,
	},
	.suite = (const struct mb_suite_entry[]){
		{ .bench = "count-local" }, { .bench = "bpf-noop" }, { .bench = NULL },
	},
};
