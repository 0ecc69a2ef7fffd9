// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The hash family: hash, LRU, array and map-in-map maps, and the kernel benches of them. */
#include "families/family.h"

extern const struct mb_bench mb_bench_map_lookup;
extern const struct mb_bench mb_bench_map_lookup_miss;
extern const struct mb_bench mb_bench_map_update;
extern const struct mb_bench mb_bench_map_insert;
extern const struct mb_bench mb_bench_map_delete;
extern const struct mb_bench mb_bench_map_mixed;
extern const struct mb_bench mb_bench_bpf_hashmap_lookup;
extern const struct mb_bench mb_bench_bpf_hashmap_full_update;
extern const struct mb_bench mb_bench_map_perf;

const struct mb_family mb_family_hash = {
	.name = "hash",
	.desc = "hash, LRU, array and map-in-map maps: lookup, update, insert, delete, mixed",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_map_lookup, &mb_bench_map_lookup_miss, &mb_bench_map_update,
		&mb_bench_map_insert, &mb_bench_map_delete, &mb_bench_map_mixed,
		&mb_bench_bpf_hashmap_lookup, &mb_bench_bpf_hashmap_full_update,
		&mb_bench_map_perf, NULL,
	},
	.suite = (const struct mb_suite_entry[]){
		{ .bench = "map-lookup",
		  .args = (const char *const[]){ "--map_type", "hash", "--nr_entries", "10000",
						 NULL } },
		{ .bench = NULL },
	},
};
