// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>

#include "registry.h"

/* harness */
extern const struct mb_bench mb_bench_count_global;
extern const struct mb_bench mb_bench_count_local;
extern const struct mb_bench mb_bench_bpf_noop;
extern const struct mb_bench mb_bench_bpf_loop;

/* hash family (src/families/hash/hash.c) */
extern const struct mb_bench mb_bench_map_lookup;
extern const struct mb_bench mb_bench_map_lookup_miss;
extern const struct mb_bench mb_bench_map_update;
extern const struct mb_bench mb_bench_map_insert;
extern const struct mb_bench mb_bench_map_delete;
extern const struct mb_bench mb_bench_map_mixed;
extern const struct mb_bench mb_bench_bpf_hashmap_lookup;
extern const struct mb_bench mb_bench_bpf_hashmap_full_update;
extern const struct mb_bench mb_bench_map_perf;

/* memory family (src/families/memory/htab_mem.c, map_mem.c) */
extern const struct mb_bench mb_bench_htab_mem;
extern const struct mb_bench mb_bench_map_mem;

/* lpm family (src/families/lpm/lpm_trie.c) */
extern const struct mb_bench mb_bench_lpm_trie_noop;
extern const struct mb_bench mb_bench_lpm_trie_baseline;
extern const struct mb_bench mb_bench_lpm_trie_lookup;
extern const struct mb_bench mb_bench_lpm_trie_insert;
extern const struct mb_bench mb_bench_lpm_trie_update;
extern const struct mb_bench mb_bench_lpm_trie_delete;
extern const struct mb_bench mb_bench_lpm_trie_free;
static const char *const lpm_suite_args[] = { "--nr_entries", "10000", NULL };

/* bloom family (src/families/bloom/bloom.c) */
extern const struct mb_bench mb_bench_bloom_lookup;
extern const struct mb_bench mb_bench_bloom_update;
extern const struct mb_bench mb_bench_bloom_false_positive;
extern const struct mb_bench mb_bench_hashmap_without_bloom;
extern const struct mb_bench mb_bench_hashmap_with_bloom;

/* lru family (src/families/lru/lru_dist.c) */
extern const struct mb_bench mb_bench_lru_dist;
extern const struct mb_bench mb_bench_lru_loss;


const struct mb_bench *const mb_benches[] = {
	&mb_bench_count_global,
	&mb_bench_count_local,
	&mb_bench_bpf_noop,
	&mb_bench_bpf_loop,

	/* hash */
	&mb_bench_map_lookup,
	&mb_bench_map_lookup_miss,
	&mb_bench_map_update,
	&mb_bench_map_insert,
	&mb_bench_map_delete,
	&mb_bench_map_mixed,
	&mb_bench_bpf_hashmap_lookup,
	&mb_bench_bpf_hashmap_full_update,
	&mb_bench_map_perf,

	/* memory */
	&mb_bench_htab_mem,
	&mb_bench_map_mem,

	/* lpm */
	&mb_bench_lpm_trie_noop,
	&mb_bench_lpm_trie_baseline,
	&mb_bench_lpm_trie_lookup,
	&mb_bench_lpm_trie_insert,
	&mb_bench_lpm_trie_update,
	&mb_bench_lpm_trie_delete,
	&mb_bench_lpm_trie_free,

	/* bloom */
	&mb_bench_bloom_lookup,
	&mb_bench_bloom_update,
	&mb_bench_bloom_false_positive,
	&mb_bench_hashmap_without_bloom,
	&mb_bench_hashmap_with_bloom,

	/* lru */
	&mb_bench_lru_dist,
	&mb_bench_lru_loss,

	NULL,
};

const struct mb_suite_entry mb_default_suite[] = {
	{ .bench = "count-local" },
	{ .bench = "bpf-noop" },

	/* hash */
	{ .bench = "map-lookup",
	  .args = (const char *const[]){ "--map_type", "hash", "--nr_entries", "10000", NULL } },

	/* memory */
	{ .bench = "htab-mem" },

	/* lpm */
	{ .bench = "lpm-trie-lookup", .args = lpm_suite_args },

	/* bloom */
	{ .bench = "bloom-lookup" },

	/* lru */

	{ .bench = NULL },
};

const struct mb_bench *mb_bench_find(const char *name)
{
	for (int i = 0; mb_benches[i]; i++)
		if (!strcmp(mb_benches[i]->name, name))
			return mb_benches[i];
	return NULL;
}

static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int *prev, *cur, d;

	if (la > 64 || lb > 64)
		return 1000;
	prev = calloc(lb + 1, sizeof(int));
	cur = calloc(lb + 1, sizeof(int));
	if (!prev || !cur) {
		free(prev);
		free(cur);
		return 1000;
	}
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			int del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, (lb + 1) * sizeof(int));
	}
	d = prev[lb];
	free(prev);
	free(cur);
	return d;
}

int mb_bench_suggest(const char *name, const char **out, int max)
{
	int n = 0;

	/* Names within a third of their length in edits, or containing the input. */
	for (int limit = 1; limit <= 6 && n < max; limit++) {
		for (int i = 0; mb_benches[i] && n < max; i++) {
			const char *cand = mb_benches[i]->name;
			int d = edit_distance(name, cand);
			bool dup = false;

			for (int k = 0; k < n; k++)
				dup |= out[k] == cand;
			if (dup)
				continue;
			if (d == limit || (limit == 1 && strlen(name) >= 3 && strstr(cand, name)))
				if (d <= (int)strlen(cand) / 3 + 1 || strstr(cand, name))
					out[n++] = cand;
		}
	}
	return n;
}
