// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The lpm family: the kernel's lpm trie bench, its baselines and the free of a full trie. */
#include "families/family.h"

extern const struct mb_bench mb_bench_lpm_trie_noop;
extern const struct mb_bench mb_bench_lpm_trie_baseline;
extern const struct mb_bench mb_bench_lpm_trie_lookup;
extern const struct mb_bench mb_bench_lpm_trie_insert;
extern const struct mb_bench mb_bench_lpm_trie_update;
extern const struct mb_bench mb_bench_lpm_trie_delete;
extern const struct mb_bench mb_bench_lpm_trie_free;

const struct mb_family mb_family_lpm = {
	.name = "lpm",
	.desc = "LPM trie: lookup, insert, update, delete and free, beside their baselines",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_lpm_trie_noop, &mb_bench_lpm_trie_baseline, &mb_bench_lpm_trie_lookup,
		&mb_bench_lpm_trie_insert, &mb_bench_lpm_trie_update, &mb_bench_lpm_trie_delete,
		&mb_bench_lpm_trie_free, NULL,
	},
	/* The kernel bench requires --nr_entries; 10000 is its published size. */
	.suite = (const struct mb_suite_entry[]){
		{ .bench = "lpm-trie-lookup",
		  .args = (const char *const[]){ "--nr_entries", "10000", NULL } },
		{ .bench = NULL },
	},
};
