// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Hash family: map-lookup, map-lookup-miss, map-update, map-insert, map-delete, map-mixed on
 * hash, per-CPU hash, LRU, array and map-in-map maps, in the kernel (one op loop per
 * operation) or from user space (hash_user.c). This file: the options and the bench
 * descriptors, on top of the family's layers (lowest first): hash_plan.c (keys, sizes, names),
 * hash_validate.c, hash_setup.c (maps, fill, teardown), hash_user.c and hash_run.c (the
 * producers, measure, finish); hash_text.c writes the text lines.
 */
#include <errno.h>
#include <string.h>

#include "hash.h"

/* ---- options ---- */

static const char *const hash_type_names[] = {
	"hash", "percpu_hash", "lru_hash", "lru_percpu_hash", "array", "percpu_array",
	"array_of_maps", "hash_of_maps", NULL,
};

#define HASH_TYPES "hash, percpu_hash, lru_hash, lru_percpu_hash, array, percpu_array, array_of_maps, hash_of_maps"
#define INNER_TYPES "hash, percpu_hash, lru_hash, lru_percpu_hash, array, percpu_array"

static int parse_map_type(const char *arg, void *field, const char **why)
{
	for (int i = 0; hash_type_names[i]; i++) {
		if (!strcmp(arg, hash_type_names[i])) {
			*(const struct mb_map_type_info **)field = mb_map_type_by_name(arg);
			return 0;
		}
	}
	*why = "unknown map type";
	return -EINVAL;
}

static int parse_inner_type(const char *arg, void *field, const char **why)
{
	const struct mb_map_type_info *t = mb_map_type_by_name(arg);

	if (!t || t->map_in_map || parse_map_type(arg, field, why)) {
		*why = "not an inner map type";
		return -EINVAL;
	}
	return 0;
}

static void format_map_type(const void *field, char *buf, size_t len)
{
	const struct mb_map_type_info *t = *(const struct mb_map_type_info *const *)field;

	snprintf(buf, len, "%s", t ? t->name : "");
}

static const char *const fill_order_names[] = { "bucket", "key", NULL };

/*
 * Below the kernel's u32: map-lookup-miss and map-mixed use the keys nr_entries..2 nr_entries,
 * and 2^30 keeps twice the fill (plus producers and LRU head room) a u32 key index.
 */
#define HASH_NR_ENTRIES_MAX	(1u << 30)

static const struct mb_opt hash_opts[] = {
	MB_OPT_CUSTOM_DEF("map_type", struct hash_args, map_type, "hash", parse_map_type,
			  format_map_type, HASH_TYPES, "TYPE", "Map type to measure"),
	MB_OPT_CUSTOM_DEF("inner_type", struct hash_args, inner_type, "lru_hash", parse_inner_type,
			  format_map_type, INNER_TYPES, "TYPE",
			  "Map-in-map: type of the inner maps (one per CPU) the ops go to"),
	MB_OPT_MAP_FLAGS(struct hash_args, map_flags,
			 "a number or names: no_prealloc, no_common_lru, zero_seed, numa_node, mmapable",
			 "for the types that take them (map-in-map: of the inner maps)"),
	MB_OPT_MAX_ENTRIES(struct hash_args, max_entries, NULL, MB_MAP_ENTRIES_MAX,
			   "by default what the bench needs, plus LRU head room"),
	MB_OPT_NR_ENTRIES(struct hash_args, nr_entries, "10000", 1, HASH_NR_ENTRIES_MAX,
			  "the fill level, or keys inserted per round (map-insert)"),
	/* 512: the kernel's limit for hash keys (MAX_BPF_STACK) and the programs' key buffer. */
	MB_OPT_KEY_SIZE(struct hash_args, key_size, "4", 4, MB_HASH_KEY_MAX,
			"arrays: 4; the kernel's limit is checked"),
	MB_OPT_VALUE_SIZE(struct hash_args, value_size, "8", 1, MB_HASH_VALUE_MAX,
			  "the kernel's limit is checked"),
	MB_OPT_CUSTOM_DEF("key_dist", struct hash_args, key_dist, "seq", mb_key_dist_opt_parse, mb_key_dist_opt_format,
			  "seq, uniform or zipf:THETA (0 < THETA <= 10)", "DIST",
			  "Order of the keys each producer uses"),
	MB_OPT_SEED(struct hash_args, seed, "the key streams (each producer derives its own)"),
	MB_OPT_ENUM_DEF("path", struct hash_args, path, "kernel", hash_path_names,
			"Where the ops run: in-kernel loop, bpf_map_*_elem syscalls, batch syscalls"),
	MB_OPT_U32_DEF("batch_size", struct hash_args, batch_size, "256", 1, 1u << 20, "N",
		       "Elements per batch syscall (--path batch)"),
	/* Key order by default: bucket order changes the lookups measured, not only the fill. */
	MB_OPT_ENUM_DEF("fill_order", struct hash_args, fill_order, "key", fill_order_names,
			"Order the fill inserts keys in: key (the kernel bench's layout: seq lookups walk the elements in memory order) or bucket (a large fill about 2x faster, but consecutive keys' elements scatter: seq lookups measure 11-25 % slower at 10k entries)"),
	MB_OPT_END,
};

static const struct mb_metric_desc hash_metrics[] = {
	{ "op_ns", "ns/op" },
	{ "cpu_share", "fraction" },
	{ NULL },
};

#define HASH_BENCH(_var, _name, _desc)						\
const struct mb_bench _var = {							\
	.name = _name,								\
	.family = "hash",							\
	.desc = _desc,								\
	.opts = hash_opts,							\
	.args_size = sizeof(struct hash_args),					\
	.flags = MB_BENCH_NEEDS_BPF,						\
	.map_types = hash_type_names,						\
	.instrument = &mb_kloop_instrument,					\
	.text = &hash_text,							\
	.metrics = hash_metrics,						\
	.validate = hash_validate,						\
	.setup = hash_setup,							\
	.producer = hash_producer,						\
	.measure = hash_measure,						\
	.finish = hash_finish,							\
	.teardown = hash_teardown,						\
}

HASH_BENCH(mb_bench_map_lookup, "map-lookup",
	   "lookup of keys in the map (a miss is an error): hash, LRU, array, map-in-map");
HASH_BENCH(mb_bench_map_lookup_miss, "map-lookup-miss",
	   "lookup of keys that are not in the map");
HASH_BENCH(mb_bench_map_update, "map-update",
	   "update of existing keys (BPF_EXIST)");
HASH_BENCH(mb_bench_map_insert, "map-insert",
	   "insert of new keys (BPF_NOEXIST); each producer's range is emptied between rounds");
HASH_BENCH(mb_bench_map_delete, "map-delete",
	   "delete of existing keys; each producer's range is refilled between rounds");
HASH_BENCH(mb_bench_map_mixed, "map-mixed",
	   "update, lookup and delete of one absent key (map_perf_test's pattern): 3 ops");
