// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The bloom family: the bloom filter map, alone and in front of a hash map. */
#include "families/family.h"

extern const struct mb_bench mb_bench_bloom_lookup;
extern const struct mb_bench mb_bench_bloom_update;
extern const struct mb_bench mb_bench_bloom_false_positive;
extern const struct mb_bench mb_bench_hashmap_without_bloom;
extern const struct mb_bench mb_bench_hashmap_with_bloom;

const struct mb_family mb_family_bloom = {
	.name = "bloom",
	.desc = "bloom filter: lookup, update, false positives, and a hash map behind a filter",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_bloom_lookup, &mb_bench_bloom_update, &mb_bench_bloom_false_positive,
		&mb_bench_hashmap_without_bloom, &mb_bench_hashmap_with_bloom, NULL,
	},
	.suite = (const struct mb_suite_entry[]){ { .bench = "bloom-lookup" }, { .bench = NULL } },
};
