// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Hash family: map-lookup, map-lookup-miss, map-update, map-insert, map-delete, map-mixed on
 * hash, per-CPU hash, LRU, array and map-in-map maps, in the kernel (one op loop per
 * operation) or from user space (hash_user.c). This file: options, validation, map creation,
 * the fill, the in-kernel producer and the results.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "benchs/hash.h"
#include "env.h"
#include "hash.skel.h"
#include "json.h"
#include "kloop.h"
#include "log.h"
#include "probe.h"
#include "report.h"
#include "runner.h"
#include "summary.h"

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
	*why = "unknown map type (valid: " HASH_TYPES ")";
	return -EINVAL;
}

static int parse_inner_type(const char *arg, void *field, const char **why)
{
	const struct mb_map_type_info *t = mb_map_type_by_name(arg);

	if (!t || t->map_in_map || parse_map_type(arg, field, why)) {
		*why = "not an inner map type (valid: " INNER_TYPES ")";
		return -EINVAL;
	}
	return 0;
}

static void format_map_type(const void *field, char *buf, size_t len)
{
	const struct mb_map_type_info *t = *(const struct mb_map_type_info *const *)field;

	snprintf(buf, len, "%s", t ? t->name : "");
}

static int parse_flags(const char *arg, void *field, const char **why)
{
	return mb_map_flags_parse(arg, field, why);
}

static void format_flags(const void *field, char *buf, size_t len)
{
	mb_map_flags_format(*(const uint32_t *)field, buf, len);
}

static int parse_dist(const char *arg, void *field, const char **why)
{
	return mb_key_dist_parse(arg, field, why);
}

static void format_dist(const void *field, char *buf, size_t len)
{
	mb_key_dist_format(field, buf, len);
}

static const char *const path_names[] = { "kernel", "syscall", "batch", NULL };
static const char *const fill_order_names[] = { "bucket", "key", NULL };

static const struct mb_opt hash_opts[] = {
	MB_OPT_CUSTOM_DEF("map_type", struct hash_args, map_type, "hash", parse_map_type,
			  format_map_type, HASH_TYPES, "TYPE", "Map type to measure"),
	MB_OPT_CUSTOM_DEF("inner_type", struct hash_args, inner_type, "lru_hash", parse_inner_type,
			  format_map_type, INNER_TYPES, "TYPE",
			  "Map-in-map: type of the inner maps (one per CPU) the ops go to"),
	MB_OPT_CUSTOM_DEF("map_flags", struct hash_args, map_flags, "0", parse_flags, format_flags,
			  "a number or names: no_prealloc, no_common_lru, zero_seed, numa_node, mmapable",
			  "FLAGS", "Map flags (map-in-map: of the inner maps)"),
	MB_OPT_U32_DEF("max_entries", struct hash_args, max_entries, NULL, 1, UINT32_MAX, "N",
		       "Map capacity (default: what the bench needs, plus LRU head room)"),
	MB_OPT_U32_DEF("nr_entries", struct hash_args, nr_entries, "10000", 1, 1u << 30, "N",
		       "Keys in the map (fill level), or keys inserted per round (map-insert)"),
	MB_OPT_U32_DEF("key_size", struct hash_args, key_size, "4", 4, 65536, "BYTES",
		       "Key size (arrays: 4; the kernel's limit is checked)"),
	MB_OPT_U32_DEF("value_size", struct hash_args, value_size, "8", 1, MB_HASH_VALUE_MAX, "BYTES",
		       "Value size (the kernel's limit is checked)"),
	MB_OPT_CUSTOM_DEF("key_dist", struct hash_args, key_dist, "seq", parse_dist, format_dist,
			  "seq, uniform or zipf:THETA (0 < THETA <= 10)", "DIST",
			  "Order of the keys each producer uses"),
	MB_OPT_U64_DEF("seed", struct hash_args, seed, "1", 0, UINT64_MAX, "N",
		       "Seed of the key streams (each producer derives its own)"),
	MB_OPT_ENUM_DEF("path", struct hash_args, path, "kernel", path_names,
			"Where the ops run: in-kernel loop, bpf_map_*_elem syscalls, batch syscalls"),
	MB_OPT_U32_DEF("batch_size", struct hash_args, batch_size, "256", 1, 1u << 20, "N",
		       "Elements per batch syscall (--path batch)"),
	MB_OPT_ENUM_DEF("fill_order", struct hash_args, fill_order, "bucket", fill_order_names,
			"Order the fill inserts keys in: by hash bucket (fast, memory in bucket order) or by key (the kernel bench's layout)"),
	MB_OPT_END,
};

static const struct mb_metric_desc hash_metrics[] = {
	{ "op_ns", "ns/op" },
	{ "cpu_share", "fraction" },
	{ NULL },
};

/* ---- which bench is which op ---- */

extern const struct mb_bench mb_bench_map_lookup, mb_bench_map_lookup_miss, mb_bench_map_update,
	mb_bench_map_insert, mb_bench_map_delete, mb_bench_map_mixed,
	mb_bench_bpf_hashmap_lookup, mb_bench_bpf_hashmap_full_update;

static enum hash_op bench_op(const struct mb_bench *b)
{
	if (b == &mb_bench_bpf_hashmap_lookup)
		return HASH_KB_LOOKUP;
	if (b == &mb_bench_bpf_hashmap_full_update)
		return HASH_KB_FULL;
	if (b == &mb_bench_map_lookup_miss)
		return HASH_MISS;
	if (b == &mb_bench_map_update)
		return HASH_UPDATE;
	if (b == &mb_bench_map_insert)
		return HASH_INSERT;
	if (b == &mb_bench_map_delete)
		return HASH_DELETE;
	if (b == &mb_bench_map_mixed)
		return HASH_MIXED;
	return HASH_LOOKUP;
}

static const struct mb_map_type_info *leaf_type(const struct hash_args *a)
{
	return a->map_type->map_in_map ? a->inner_type : a->map_type;
}

static int possible_cpus(void)
{
	int n = libbpf_num_possible_cpus();

	return n > 0 ? n : 1;
}

/* ---- validation ---- */

#define KNOWN_FLAGS (BPF_F_NO_PREALLOC | BPF_F_NO_COMMON_LRU | BPF_F_NUMA_NODE | \
		     BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG | BPF_F_ZERO_SEED | BPF_F_MMAPABLE)

int hash_validate_flags(struct mb_run *run, const struct hash_args *a, enum hash_op op)
{
	const struct mb_map_type_info *leaf = leaf_type(a);
	uint32_t bad = a->map_flags & KNOWN_FLAGS & ~leaf->flags_ok;
	char given[128], bad_s[128], ok_s[160];

	mb_map_flags_format(a->map_flags, given, sizeof(given));
	if (bad) {
		mb_map_flags_format(bad, bad_s, sizeof(bad_s));
		mb_map_flags_format(leaf->flags_ok, ok_s, sizeof(ok_s));
		return mb_run_usage(run, "--map_flags %s: %s maps do not take %s (they take %s)",
				    given, leaf->name, bad_s, ok_s);
	}
	/* Read-only or write-only for programs: the in-kernel ops would not load. */
	if (a->path == HASH_PATH_KERNEL && (a->map_flags & BPF_F_WRONLY_PROG) &&
	    op != HASH_DELETE && op != HASH_INSERT && op != HASH_KB_FULL)
		return mb_run_usage(run, "--map_flags %s: wronly_prog keeps the in-kernel %s from reading the map (use --path syscall)",
				    given, hash_op_name(op));
	if ((a->map_flags & BPF_F_RDONLY_PROG) &&
	    ((hash_op_fills(op) && !leaf->array) ||
	     (op != HASH_LOOKUP && op != HASH_MISS && op != HASH_KB_LOOKUP)))
		return mb_run_usage(run, "--map_flags %s: rdonly_prog keeps programs from writing the map, and the fill is a program",
				    given);
	if ((a->map_flags & BPF_F_WRONLY_PROG) && hash_op_fills(op) && leaf->lru)
		return mb_run_usage(run, "--map_flags %s: wronly_prog keeps the fill check from reading the map",
				    given);
	return 0;
}

static const char *errno_name(int err)
{
	switch (-err) {
	case E2BIG:
		return "E2BIG";
	case EINVAL:
		return "EINVAL";
	case ENOMEM:
		return "ENOMEM";
	default:
		return strerror(-err);
	}
}

/* The kernel's own limits on sizes and flags, found with one-entry maps. */
int hash_validate_kernel(struct mb_run *run, const struct hash_args *a)
{
	const struct mb_map_type_info *leaf = leaf_type(a);
	struct mb_map_refusal r;
	char flags[128];

	if (!mb_map_probe_create(leaf->type, a->key_size, a->value_size, a->map_flags, &r))
		return 0;
	mb_map_flags_format(a->map_flags, flags, sizeof(flags));
	if (r.what && !strcmp(r.what, "key_size")) {
		if (r.min == r.max)
			return mb_run_usage(run, "--key_size %u: %s maps take keys of exactly %u bytes",
					    a->key_size, leaf->name, r.min);
		return mb_run_usage(run, "--key_size %u: %s maps take keys of %u..%u bytes on this kernel (%s)",
				    a->key_size, leaf->name, r.min, r.max, errno_name(r.err));
	}
	if (r.what && !strcmp(r.what, "value_size"))
		return mb_run_usage(run, "--value_size %u: %s maps take values of %u..%u bytes on this kernel (%s)",
				    a->value_size, leaf->name, r.min, r.max, errno_name(r.err));
	if (r.what)
		return mb_run_usage(run, "--map_flags %s: this kernel refuses them for %s maps (%s)",
				    flags, leaf->name, errno_name(r.err));
	return mb_run_usage(run, "--map_type %s --key_size %u --value_size %u --map_flags %s: this kernel refuses the combination (%s)",
			    leaf->name, a->key_size, a->value_size, flags, errno_name(r.err));
}

static int validate_sizes(struct mb_run *run, struct hash_args *a, enum hash_op op)
{
	const struct mb_map_type_info *leaf = leaf_type(a);
	int np = run->nr_producers, ncpus = possible_cpus();
	uint64_t need = hash_need(op, a->nr_entries, np), max;

	if ((op == HASH_INSERT || op == HASH_DELETE || op == HASH_MIXED) &&
	    a->nr_entries < (uint32_t)np)
		return mb_run_usage(run, "--nr_entries %u: map-%s gives each of the %d producers its own keys: must be >= %d",
				    a->nr_entries, hash_op_name(op), np, np);
	if (leaf->array) {
		if (!a->max_entries)
			a->max_entries = a->nr_entries;
		if (a->nr_entries > a->max_entries)
			return mb_run_usage(run, "--nr_entries %u: must be <= --max_entries %u",
					    a->nr_entries, a->max_entries);
		/* Absent indices start at max_entries. */
		if (op == HASH_MISS &&
		    (uint64_t)a->max_entries + a->nr_entries >= MB_HASH_BAD_INDEX)
			return mb_run_usage(run, "--max_entries %u: map-lookup-miss looks up indices from max_entries on: --max_entries + --nr_entries must be < %u",
					    a->max_entries, MB_HASH_BAD_INDEX);
		return 0;
	}
	if (!a->max_entries) {
		max = hash_default_max_entries(leaf, a->map_flags, need, ncpus);
		if (!max)
			return mb_run_usage(run, "--nr_entries %u: the map it needs has more than %u entries",
					    a->nr_entries, UINT32_MAX);
		a->max_entries = (uint32_t)max;
		return 0;
	}
	if (need > a->max_entries) {
		if (op == HASH_MIXED)
			return mb_run_usage(run, "--nr_entries %u: map-mixed needs room for one more key per producer: must be <= --max_entries %u - %d",
					    a->nr_entries, a->max_entries, np);
		return mb_run_usage(run, "--nr_entries %u: must be <= --max_entries %u",
				    a->nr_entries, a->max_entries);
	}
	if (leaf->lru && (a->map_flags & BPF_F_NO_COMMON_LRU) && hash_op_resident(op)) {
		uint32_t cap = hash_lru_cpu_capacity(a->max_entries, ncpus);

		/* One CPU's list may come to hold every key: it must not have to evict. */
		if (need + HASH_LRU_PERCPU_SLACK > cap)
			return mb_run_usage(run, "--nr_entries %u: with no_common_lru the LRU capacity is per CPU: each of the %d possible CPUs gets --max_entries / %d = %u nodes, and one CPU's list must hold every key plus %d: raise --max_entries to %llu or leave it out",
					    a->nr_entries, ncpus, ncpus, cap, HASH_LRU_PERCPU_SLACK,
					    (unsigned long long)((need + HASH_LRU_PERCPU_SLACK) *
								 (uint64_t)ncpus));
	}
	return 0;
}

static int hash_validate(struct mb_run *run)
{
	struct hash_args *a = run->args;
	enum hash_op op = bench_op(run->bench);
	const struct mb_map_type_info *leaf = leaf_type(a);
	int err;

	if (mb_run_opt_given(run, "inner_type") && !a->map_type->map_in_map)
		return mb_run_usage(run, "--inner_type %s: only for array_of_maps and hash_of_maps (--map_type %s has no inner maps)",
				    a->inner_type->name, a->map_type->name);
	if (leaf->array && (op == HASH_INSERT || op == HASH_DELETE || op == HASH_MIXED))
		return mb_run_usage(run, "--map_type %s: %s%s maps cannot delete elements, so map-%s needs a hash type (use map-update)",
				    a->map_type->name, leaf->name,
				    a->map_type->map_in_map ? " inner" : "", hash_op_name(op));
	if (leaf->array && a->key_size != 4)
		return mb_run_usage(run, "--key_size %u: %s maps take keys of exactly 4 bytes (the index)",
				    a->key_size, leaf->name);
	if (a->key_dist.kind == MB_DIST_ZIPF && !hash_op_wraps(op))
		return mb_run_usage(run, "--key_dist zipf:%g: map-%s uses each key of its range once per round: seq or uniform",
				    a->key_dist.theta, hash_op_name(op));
	if (a->path == HASH_PATH_BATCH && (op == HASH_MISS || op == HASH_MIXED))
		return mb_run_usage(run, "--path batch: there is no keyed batch lookup, so map-%s has no batch form (use --path syscall)",
				    hash_op_name(op));
	if (a->path == HASH_PATH_BATCH && op == HASH_LOOKUP && a->key_dist.kind != MB_DIST_SEQ)
		return mb_run_usage(run, "--key_dist: map-lookup --path batch dumps the map in its own order (BPF_MAP_LOOKUP_BATCH): seq only");
	if (mb_run_opt_given(run, "batch_size") && a->path != HASH_PATH_BATCH)
		return mb_run_usage(run, "--batch_size %u: only with --path batch", a->batch_size);
	err = hash_validate_flags(run, a, op);
	if (!err)
		err = validate_sizes(run, a, op);
	if (!err)
		err = hash_validate_kernel(run, a);
	if (!err && a->key_size > MB_HASH_KEY_MAX)
		return mb_run_usage(run, "--key_size %u: must be 4..%u (the in-kernel key buffer the programs read keys from)",
				    a->key_size, MB_HASH_KEY_MAX);
	return err;
}

/* ---- map creation ---- */

static int create_leaf(struct mb_run *run, const char *name, int *fd)
{
	const struct hash_args *a = run->args;
	const struct mb_map_type_info *leaf = leaf_type(a);
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = a->map_flags);
	char why[512], what[160];

	*fd = bpf_map_create(leaf->type, name, a->key_size, a->value_size, a->max_entries, &opts);
	if (*fd >= 0)
		return 0;
	snprintf(what, sizeof(what), "cannot create the %s map (%u entries of %u + %u bytes)",
		 leaf->name, a->max_entries, a->key_size, a->value_size);
	mb_explain_map_create(-errno, what, why, sizeof(why));
	return mb_run_fail(run, -errno, "%s", why);
}

static int create_maps(struct mb_run *run, struct hash_state *st)
{
	const struct hash_args *a = run->args;
	const struct mb_cpuset *online = &run->env->online;
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	int last = -1, err;

	if (!st->mim)
		return create_leaf(run, "mb_hash", &st->map_fd);
	for (int cpu = mb_cpuset_next(online, 0); cpu >= 0; cpu = mb_cpuset_next(online, cpu + 1))
		last = cpu;
	st->nr_outer = last + 1;
	st->inner_fd = malloc(sizeof(int) * (size_t)st->nr_outer);
	if (!st->inner_fd)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	for (int i = 0; i < st->nr_outer; i++)
		st->inner_fd[i] = -1;
	for (int cpu = mb_cpuset_next(online, 0); cpu >= 0; cpu = mb_cpuset_next(online, cpu + 1)) {
		err = create_leaf(run, "mb_hash_inner", &st->inner_fd[cpu]);
		if (err)
			return err;
		opts.inner_map_fd = (__u32)st->inner_fd[cpu];
	}
	st->outer_fd = bpf_map_create(a->map_type->type, "mb_hash_outer", 4, 4,
				      (uint32_t)st->nr_outer, &opts);
	if (st->outer_fd < 0)
		return mb_run_fail(run, -errno, "cannot create the %s map: %s", a->map_type->name,
				   strerror(errno));
	for (int cpu = 0; cpu < st->nr_outer; cpu++) {
		uint32_t key = (uint32_t)cpu;

		if (st->inner_fd[cpu] < 0)
			continue;
		if (bpf_map_update_elem(st->outer_fd, &key, &st->inner_fd[cpu], BPF_ANY))
			return mb_run_fail(run, -errno, "cannot add CPU %d's inner map to the %s map: %s",
					   cpu, a->map_type->name, strerror(errno));
	}
	return 0;
}

int hash_user_fd(const struct hash_state *st, int cpu)
{
	if (!st->mim)
		return st->map_fd;
	if (cpu < 0 || cpu >= st->nr_outer || st->inner_fd[cpu] < 0) {
		/* Not an online CPU at setup: the first inner map. */
		for (cpu = 0; cpu < st->nr_outer && st->inner_fd[cpu] < 0; cpu++)
			;
	}
	return st->inner_fd[cpu];
}

/* ---- fill, empty, check ---- */

int64_t hash_range_call(int prog_fd, uint32_t base, uint32_t count, int slot, int cpu,
			int outer_key)
{
	int64_t failed = 0;

	for (uint32_t done = 0; done < count;) {
		uint32_t n = count - done < HASH_FILL_CHUNK ? count - done : HASH_FILL_CHUNK;
		struct mb_hash_fill_args args = {
			.base = base + done, .count = n, .slot = (__u64)slot,
			.outer_key = (__u64)(outer_key < 0 ? 0 : outer_key),
		};
		LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &args, .ctx_size_in = sizeof(args));

		if (cpu >= 0) {
			opts.flags = BPF_F_TEST_RUN_ON_CPU;
			opts.cpu = (__u32)cpu;
		}
		if (bpf_prog_test_run_opts(prog_fd, &opts))
			return -errno;
		failed += opts.retval;
		done += n;
	}
	return failed;
}

/* Run a fill/empty/check program over @count keys from @base on every map the op uses. */
static int64_t range_all(struct hash_state *st, struct bpf_program *direct,
			 struct bpf_program *mim, uint32_t base, uint32_t count, int slot, int cpu)
{
	int64_t failed = 0, n;

	if (!st->mim)
		return hash_range_call(bpf_program__fd(direct), base, count, slot, cpu, -1);
	for (int c = 0; c < st->nr_outer; c++) {
		if (st->inner_fd[c] < 0)
			continue;
		n = hash_range_call(bpf_program__fd(mim), base, count, slot, cpu, c);
		if (n < 0)
			return n;
		failed += n;
	}
	return failed;
}

int hash_refill_range(struct hash_state *st, int idx, int cpu)
{
	const struct hash_stream *s = &st->streams[idx];
	struct hash_bpf *skel = st->skel;
	int64_t n;

	if (st->op == HASH_INSERT) {
		/* Keys an LRU evicted meanwhile are already gone: count them. */
		n = range_all(st, skel->progs.mb_hash_empty, skel->progs.mb_hash_empty_mim, s->base,
			      s->range, idx, cpu);
		if (n > 0 && !st->mim)
			__atomic_add_fetch(&st->evicted, (uint64_t)n, __ATOMIC_RELAXED);
	} else {
		/* Map-in-map: other CPUs' inner maps still hold the keys (EEXIST is fine). */
		n = range_all(st, skel->progs.mb_hash_fill, skel->progs.mb_hash_fill_mim, s->base,
			      s->range, idx, cpu);
	}
	return n < 0 ? (int)n : 0;
}

/* Load only what this run uses: one op program, and the fill programs it needs. */
static void choose_programs(struct hash_state *st, const struct hash_args *a)
{
	struct hash_bpf *skel = st->skel;
	struct bpf_program *prog;
	struct bpf_program *ops[HASH_OP_NR][2] = {
		[HASH_LOOKUP] = { skel->progs.mb_hash_lookup, skel->progs.mb_hash_lookup_mim },
		[HASH_MISS] = { skel->progs.mb_hash_miss, skel->progs.mb_hash_miss_mim },
		[HASH_UPDATE] = { skel->progs.mb_hash_update, skel->progs.mb_hash_update_mim },
		[HASH_INSERT] = { skel->progs.mb_hash_insert, skel->progs.mb_hash_insert_mim },
		[HASH_DELETE] = { skel->progs.mb_hash_delete, skel->progs.mb_hash_delete_mim },
		[HASH_MIXED] = { skel->progs.mb_hash_mixed, skel->progs.mb_hash_mixed_mim },
		[HASH_KB_LOOKUP] = { skel->progs.mb_hml_lookup, NULL },
		[HASH_KB_FULL] = { skel->progs.mb_fu_update, NULL },
	};
	int m = st->mim;

	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, false);
	st->op_prog = a->path == HASH_PATH_KERNEL ? ops[st->op][m] : NULL;
	if (st->op_prog)
		bpf_program__set_autoload(st->op_prog, true);
	if ((hash_op_fills(st->op) && !st->leaf->array) || st->op == HASH_DELETE)
		bpf_program__set_autoload(m ? skel->progs.mb_hash_fill_mim :
					      skel->progs.mb_hash_fill, true);
	if (st->op == HASH_INSERT)
		bpf_program__set_autoload(m ? skel->progs.mb_hash_empty_mim :
					      skel->progs.mb_hash_empty, true);
	if (st->leaf->lru && hash_op_fills(st->op))
		bpf_program__set_autoload(m ? skel->progs.mb_hash_check_mim :
					      skel->progs.mb_hash_check, true);
}

/* ---- setup ---- */

/* The mb_hash_idx array, mapped into user space: fill order first, then key streams. */
static int map_index_array(struct mb_run *run, struct hash_state *st)
{
	int fd = bpf_map__fd(st->skel->maps.mb_hash_idx);
	long page = sysconf(_SC_PAGESIZE);
	void *mem;

	if (!st->bucket_fill &&
	    (st->args->path != HASH_PATH_KERNEL || st->src != MB_HASH_SRC_ARRAY))
		return 0;
	/* Array elements are 8-byte aligned: one __u64 per index. */
	st->idx_bytes = ((size_t)st->idx_entries * 8 + (size_t)page - 1) & ~((size_t)page - 1);
	mem = mmap(NULL, st->idx_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED)
		return mb_run_fail(run, -errno, "cannot map the key index array: %s",
				   strerror(errno));
	st->idx = mem;
	return 0;
}

/* Precomputed key indices for the in-kernel op (zipf draws, shuffled ranges). */
static int write_streams(struct mb_run *run, struct hash_state *st)
{
	const struct hash_args *a = run->args;
	uint32_t *tmp;
	int err = 0;

	if (a->path != HASH_PATH_KERNEL || st->src != MB_HASH_SRC_ARRAY)
		return 0;
	tmp = malloc(sizeof(uint32_t) * st->idx_stride);
	if (!tmp)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	for (int p = 0; p < st->nr_producers && !err; p++) {
		uint32_t len = hash_stream_len(st->op, &st->streams[p]);

		err = hash_stream_indices(st->op, &st->streams[p], &a->key_dist, tmp, len);
		for (uint32_t i = 0; !err && i < len; i++)
			st->idx[(size_t)p * st->idx_stride + i] = tmp[i];
	}
	free(tmp);
	if (err)
		return mb_run_fail(run, err, "cannot build the producers' key streams");
	return 0;
}

struct fill_job {
	int prog_fd;
	uint32_t base, count;
	int slot, cpu, outer_key;
	int64_t failed;
	pthread_t thread;
	bool started;
};

static void *fill_thread(void *arg)
{
	struct fill_job *j = arg;

	j->failed = hash_range_call(j->prog_fd, j->base, j->count, j->slot, j->cpu, j->outer_key);
	return NULL;
}

/*
 * Run a fill program over [0, count) with one thread per online CPU, each pinned and filling
 * its share on its CPU: the inserts of a large map wait on cache misses, which CPUs overlap.
 */
static int64_t fill_parallel(struct mb_run *run, int prog_fd, uint32_t base, uint32_t count,
			     int outer_key)
{
	const struct mb_cpuset *online = &run->env->online;
	int n = online->count < MB_MAX_SLOTS ? online->count : MB_MAX_SLOTS;
	struct fill_job *jobs;
	int64_t failed = 0;

	/* Small maps: threads cost more than they save. */
	if (count < HASH_FILL_PARALLEL_MIN || n < 2)
		return hash_range_call(prog_fd, base, count, 0, -1, outer_key);
	jobs = calloc((size_t)n, sizeof(*jobs));
	if (!jobs)
		return -ENOMEM;
	for (int i = 0, cpu = -1; i < n; i++) {
		uint32_t share = count / (uint32_t)n;
		pthread_attr_t attr;
		cpu_set_t set;

		cpu = mb_cpuset_next(online, cpu + 1);
		/* Contiguous shares: in bucket order each thread keeps to its own buckets. */
		jobs[i] = (struct fill_job){
			.prog_fd = prog_fd, .base = base + (uint32_t)i * share,
			.count = i == n - 1 ? count - (uint32_t)i * share : share,
			.slot = i, .cpu = cpu, .outer_key = outer_key,
		};
		pthread_attr_init(&attr);
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		jobs[i].started = !pthread_create(&jobs[i].thread, &attr, fill_thread, &jobs[i]);
		pthread_attr_destroy(&attr);
		if (!jobs[i].started) {
			jobs[i].cpu = -1;
			fill_thread(&jobs[i]);
		}
	}
	for (int i = 0; i < n; i++) {
		if (jobs[i].started)
			pthread_join(jobs[i].thread, NULL);
		if (failed >= 0)
			failed = jobs[i].failed < 0 ? jobs[i].failed : failed + jobs[i].failed;
	}
	free(jobs);
	return failed;
}

/* Put the fill's keys in the bucket order of one map into the index array (mb_hash_seed). */
static int bucket_order(struct mb_run *run, struct hash_state *st, int outer_key)
{
	const struct hash_args *a = run->args;
	struct hash_bpf *skel = st->skel;
	struct mb_hash_fill_args args = { .outer_key = (__u64)(outer_key < 0 ? 0 : outer_key) };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &args, .ctx_size_in = sizeof(args));
	struct bpf_program *prog = st->mim ? skel->progs.mb_hash_seed_mim :
					     skel->progs.mb_hash_seed;
	uint32_t *order;
	int err;

	if (bpf_prog_test_run_opts(bpf_program__fd(prog), &opts) || opts.retval)
		return mb_run_fail(run, -EIO, "cannot read the map's hash seed");
	st->hash_seed = skel->bss->mb_hash_rnd;
	st->nbuckets = skel->bss->mb_hash_nbuckets;
	order = malloc(sizeof(uint32_t) * st->fill_count);
	if (!order)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	err = hash_bucket_order(st->fill_base, st->fill_count, a->key_size, st->hash_seed,
			       st->nbuckets, order);
	for (uint32_t i = 0; !err && i < st->fill_count; i++)
		st->idx[i] = order[i];
	free(order);
	if (err)
		return mb_run_fail(run, err, "cannot order the fill by bucket (%u buckets)",
				   st->nbuckets);
	return 0;
}

/* Fill one map (the measured one, or inner map @outer_key). */
static int64_t fill_one(struct mb_run *run, struct hash_state *st, int outer_key)
{
	struct hash_bpf *skel = st->skel;
	struct bpf_program *prog;
	int err;

	if (st->bucket_fill) {
		err = bucket_order(run, st, outer_key);
		if (err)
			return err;
		prog = st->mim ? skel->progs.mb_hash_fill_idx_mim : skel->progs.mb_hash_fill_idx;
	} else {
		prog = st->mim ? skel->progs.mb_hash_fill_mim : skel->progs.mb_hash_fill;
	}
	/* In bucket order the program reads positions 0.. of the index array. */
	return fill_parallel(run, bpf_program__fd(prog), st->bucket_fill ? 0 : st->fill_base,
			     st->fill_count, outer_key);
}

static int fill_maps(struct mb_run *run, struct hash_state *st, uint64_t *fill_ns)
{
	const struct hash_args *a = run->args;
	struct hash_bpf *skel = st->skel;
	uint64_t t0 = mb_now_ns();
	int64_t failed = 0, n;

	*fill_ns = 0;
	if (!hash_op_fills(st->op) || st->leaf->array)
		return 0;
	if (!st->mim) {
		failed = fill_one(run, st, -1);
	} else {
		for (int c = 0; c < st->nr_outer && failed >= 0; c++) {
			if (st->inner_fd[c] < 0)
				continue;
			n = fill_one(run, st, c);
			failed = n < 0 ? n : failed + n;
		}
	}
	if (failed < 0 && run->status != MB_RUN_OK)
		return (int)failed;
	*fill_ns = mb_now_ns() - t0;
	if (failed < 0)
		return mb_run_fail(run, (int)failed, "cannot run the fill program: %s",
				   strerror((int)-failed));
	if (failed)
		return mb_run_fail(run, -ENOSPC, "the %s map refused %lld of the %u keys of the fill",
				   st->leaf->name, (long long)failed, st->fill_count);
	if (!st->leaf->lru)
		return 0;
	/* An LRU map evicts silently: check that every key stayed. */
	failed = range_all(st, skel->progs.mb_hash_check, skel->progs.mb_hash_check_mim,
			   st->fill_base, st->fill_count, 0, -1);
	if (failed < 0)
		return mb_run_fail(run, (int)failed, "cannot run the check program: %s",
				   strerror((int)-failed));
	if (failed)
		return mb_run_fail(run, -ENOSPC, "the %s map evicted %lld of the %u keys while being filled to %u entries: an LRU map evicts before it is full (each CPU holds up to 128 free nodes); raise --max_entries or leave it out (the default adds %d per possible CPU)",
				   st->leaf->name, (long long)failed, a->nr_entries, a->max_entries,
				   HASH_LRU_SLACK_PER_CPU);
	return 0;
}

/* Open the object, size it for this run, hand it the maps and load the programs it needs. */
static int load_object(struct mb_run *run, struct hash_state *st)
{
	const struct hash_args *a = run->args;
	struct hash_bpf *skel;
	uint32_t streams = 1;
	int err;

	st->skel = skel = hash_bpf__open();
	if (!skel)
		return -errno;
	skel->rodata->mb_hash_src = (__u32)st->src;
	skel->rodata->mb_hml_nr_entries = a->nr_entries;
	skel->rodata->mb_fu_key = a->max_entries;
	choose_programs(st, a);
	if (st->bucket_fill) {
		bpf_program__set_autoload(st->mim ? skel->progs.mb_hash_seed_mim :
					  skel->progs.mb_hash_seed, true);
		bpf_program__set_autoload(st->mim ? skel->progs.mb_hash_fill_idx_mim :
					  skel->progs.mb_hash_fill_idx, true);
		/* Refills (map-delete) still insert a range in key order. */
		if (st->op != HASH_DELETE)
			bpf_program__set_autoload(st->mim ? skel->progs.mb_hash_fill_mim :
						  skel->progs.mb_hash_fill, false);
	}
	st->idx_stride = 1;
	if (a->path == HASH_PATH_KERNEL && st->src == MB_HASH_SRC_ARRAY) {
		for (int p = 0; p < st->nr_producers; p++) {
			uint32_t len = hash_stream_len(st->op, &st->streams[p]);

			if (len > st->idx_stride)
				st->idx_stride = len;
		}
		streams = st->idx_stride * (uint32_t)st->nr_producers;
	}
	st->idx_entries = streams;
	if (st->bucket_fill && st->fill_count > st->idx_entries)
		st->idx_entries = st->fill_count;
	bpf_map__set_max_entries(skel->maps.mb_hash_idx, st->idx_entries);
	if (st->mim) {
		bpf_map__set_autocreate(skel->maps.mb_hash_map, false);
		err = bpf_map__reuse_fd(skel->maps.mb_hash_outer, st->outer_fd);
	} else {
		bpf_map__set_autocreate(skel->maps.mb_hash_outer, false);
		err = bpf_map__reuse_fd(skel->maps.mb_hash_map, st->map_fd);
	}
	return err ? err : hash_bpf__load(skel);
}

static void report_setup(struct mb_run *run, struct hash_state *st, uint64_t create_ns,
			 uint64_t load_ns, uint64_t fill_ns)
{
	const struct hash_args *a = run->args;
	struct mb_json *extra = mb_run_extra(run), *setup, *lru, *mim;

	mb_json_set_num(extra, "setup_ns", (double)(create_ns + fill_ns));
	setup = mb_json_child(extra, "setup");
	mb_json_set_num(setup, "create_ns", (double)create_ns);
	mb_json_set_num(setup, "fill_ns", (double)fill_ns);
	mb_json_set_num(setup, "fill_keys", hash_op_fills(st->op) && !st->leaf->array ?
						    (double)st->fill_count : 0);
	mb_json_set_str(setup, "fill_method", hash_op_fills(st->op) && !st->leaf->array ?
						      "bpf-loop" : "none");
	mb_json_set_str(setup, "fill_order", !hash_op_fills(st->op) || st->leaf->array ? "none" :
					      st->bucket_fill ? "bucket" : "key");
	mb_json_set_num(setup, "load_ns", (double)load_ns);
	mb_json_set_str(extra, "op", hash_op_name(st->op));
	mb_json_set_str(extra, "path", path_names[a->path]);
	mb_json_set_num(extra, "ops_per_iteration", st->ops_per_iter);
	mb_json_set_num(extra, "max_entries", a->max_entries);
	if (st->leaf->lru) {
		bool common = !(a->map_flags & BPF_F_NO_COMMON_LRU);

		lru = mb_json_child(extra, "lru");
		mb_json_set_bool(lru, "common", common);
		mb_json_set_num(lru, "possible_cpus", possible_cpus());
		mb_json_set(lru, "capacity_per_cpu", common ? mb_json_null() :
				     mb_json_number(hash_lru_cpu_capacity(a->max_entries,
									  possible_cpus())));
	}
	if (st->mim) {
		int n = 0;

		for (int c = 0; c < st->nr_outer; c++)
			n += st->inner_fd[c] >= 0;
		mim = mb_json_child(extra, "map_in_map");
		mb_json_set_str(mim, "outer_type", a->map_type->name);
		mb_json_set_str(mim, "inner_type", st->leaf->name);
		mb_json_set_num(mim, "inner_maps", n);
		mb_json_set_num(setup, "fill_keys", hash_op_fills(st->op) && !st->leaf->array ?
							    (double)st->fill_count * n : 0);
		mb_run_report_map_memory(run, "map", hash_user_fd(st, 0), a->max_entries);
		mb_run_report_map_memory(run, "outer", st->outer_fd, (uint64_t)st->nr_outer);
	} else {
		mb_run_report_map_memory(run, "map", st->map_fd, a->max_entries);
	}
}

static void report_streams(struct mb_run *run, struct hash_state *st)
{
	static const char *const src_names[] = { "seq", "random", "array" };
	struct mb_json *arr = mb_json_array();
	const struct hash_args *a = run->args;

	for (int p = 0; p < st->nr_producers; p++) {
		const struct hash_stream *s = &st->streams[p];
		struct mb_json *o = mb_json_object();

		mb_json_set_num(o, "producer", p);
		mb_json_set_num(o, "base", s->base);
		mb_json_set_num(o, "range", s->range);
		mb_json_set_num(o, "start", s->start);
		mb_json_set_str(o, "source", a->path == HASH_PATH_KERNEL ? src_names[st->src] :
					     a->key_dist.kind == MB_DIST_SEQ ? "seq" : "array");
		mb_json_append(arr, o);
	}
	mb_json_set(mb_run_extra(run), "key_streams", arr);
}

int hash_setup(struct mb_run *run)
{
	struct hash_args *a = run->args;
	struct hash_state *st = calloc(1, sizeof(*st));
	uint64_t t0, create_ns, load_ns, fill_ns = 0;
	uint32_t miss_base;
	int err;

	if (!st)
		return -ENOMEM;
	run->priv = st;
	st->op = bench_op(run->bench);
	st->args = a;
	st->leaf = leaf_type(a);
	st->mim = a->map_type->map_in_map;
	st->map_fd = st->outer_fd = -1;
	st->nr_producers = run->nr_producers;
	st->ops_per_iter = st->op == HASH_MIXED ? 3 : 1;
	st->src = hash_kernel_src(st->op, &a->key_dist);
	st->bucket_fill = a->fill_order == HASH_FILL_BUCKET && !st->leaf->array &&
			  hash_op_fills(st->op);
	/* The kernel benches' keys: 1..nr_entries (lookup), 0..max_entries-1 (full map). */
	st->fill_base = st->op == HASH_KB_LOOKUP ? 1 : 0;
	st->fill_count = st->op == HASH_KB_FULL ? a->max_entries : a->nr_entries;
	if (st->op == HASH_KB_LOOKUP)
		st->fixed_iters = a->nr_loops / a->nr_entries ? a->nr_loops / a->nr_entries : 1;
	else if (st->op == HASH_KB_FULL)
		st->fixed_iters = a->nr_loops;
	if (st->op == HASH_KB_LOOKUP)
		st->ops_per_iter = a->nr_entries;
	run->runner = a->path == HASH_PATH_KERNEL ? "kernel-loop" : "syscall";
	st->streams = calloc((size_t)run->nr_producers, sizeof(*st->streams));
	if (!st->streams)
		return -ENOMEM;
	if (a->path != HASH_PATH_KERNEL) {
		st->cpu = aligned_alloc(128, sizeof(*st->cpu) * (size_t)run->nr_producers);
		st->last_cpu_ns = calloc((size_t)run->nr_producers, sizeof(*st->last_cpu_ns));
		if (!st->cpu || !st->last_cpu_ns)
			return -ENOMEM;
		memset(st->cpu, 0, sizeof(*st->cpu) * (size_t)run->nr_producers);
	}
	miss_base = st->leaf->array ? a->max_entries : a->nr_entries;
	hash_streams(st->op, a->nr_entries, miss_base, a->seed, run->nr_producers, st->streams);

	/* Create the measured map(s) ourselves: their creation is timed apart from the load. */
	t0 = mb_now_ns();
	err = create_maps(run, st);
	create_ns = mb_now_ns() - t0;
	if (err)
		return err;
	t0 = mb_now_ns();
	err = load_object(run, st);
	if (err && st->bucket_fill) {
		/* A kernel that does not let programs read map fields: fill in key order. */
		mb_debug("%s: no bucket-order fill: %s", run->bench->name, strerror(-err));
		mb_verifier_log_clear();
		hash_bpf__destroy(st->skel);
		st->bucket_fill = false;
		err = load_object(run, st);
	}
	load_ns = mb_now_ns() - t0;
	if (err) {
		char why[1024];

		mb_explain_load_error(err, "cannot load the BPF programs", why, sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	err = map_index_array(run, st);
	if (err)
		return err;
	for (int i = 0; i < MB_MAX_SLOTS; i++)
		hash_key_pattern((uint8_t *)&st->skel->bss->mb_hash_keys[i], a->key_size);
	err = fill_maps(run, st, &fill_ns);
	if (!err)
		err = write_streams(run, st);
	if (err)
		return err;
	report_setup(run, st, create_ns, load_ns, fill_ns);
	report_streams(run, st);
	return 0;
}

void hash_teardown(struct mb_run *run)
{
	struct hash_state *st = run->priv;

	if (!st)
		return;
	if (st->idx)
		munmap(st->idx, st->idx_bytes);
	hash_bpf__destroy(st->skel);
	if (st->map_fd >= 0)
		close(st->map_fd);
	if (st->outer_fd >= 0)
		close(st->outer_fd);
	for (int i = 0; st->inner_fd && i < st->nr_outer; i++)
		if (st->inner_fd[i] >= 0)
			close(st->inner_fd[i]);
	free(st->inner_fd);
	free(st->streams);
	free(st->cpu);
	free(st->last_cpu_ns);
	free(st);
	run->priv = NULL;
}

/* ---- producers ---- */

static int hash_on_ret(struct mb_run *run, struct mb_producer *p, uint32_t ret, void *ctx)
{
	struct hash_state *st = ctx;
	int err;

	if (ret != MB_HASH_RET_REFILL) {
		mb_err("%s: producer %d: unexpected program return value %u", run->bench->name,
		       p->idx, ret);
		return -EPROTO;
	}
	err = hash_refill_range(st, p->idx, p->cpu);
	if (err)
		mb_err("%s: producer %d: cannot refill its key range: %s", run->bench->name, p->idx,
		       strerror(-err));
	st->skel->bss->mb_slots[p->idx].cursor = 0;
	return err;
}

int hash_kernel_producer(struct mb_run *run, struct mb_producer *p)
{
	struct hash_state *st = run->priv;
	const struct hash_stream *s = &st->streams[p->idx];
	struct mb_slot *slot = &st->skel->bss->mb_slots[p->idx];
	struct bpf_program *prog = st->op_prog;
	struct mb_kloop_cfg cfg = {
		.slots = st->skel->bss->mb_slots,
		.ops_per_iter = st->ops_per_iter,
		.fixed_iters = st->fixed_iters,
		.on_ret = hash_on_ret,
		.ctx = st,
	};

	if (!prog)
		return -ENOENT;
	cfg.prog_fd = bpf_program__fd(prog);
	if (st->src == MB_HASH_SRC_ARRAY) {
		slot->arg = MB_HASH_ARG((uint32_t)p->idx * st->idx_stride,
					hash_stream_len(st->op, s));
		slot->cursor = 0;
	} else {
		slot->arg = MB_HASH_ARG(s->base, s->range);
		slot->cursor = s->start;
	}
	slot->rng = s->seed | 1;
	return mb_kloop_produce(run, p, &cfg);
}

static int hash_producer(struct mb_run *run, struct mb_producer *p)
{
	const struct hash_args *a = run->args;

	if (a->path == HASH_PATH_KERNEL)
		return hash_kernel_producer(run, p);
	return hash_user_producer(run, p);
}

/* The op's cost: in-kernel ns/op, or wall-clock ns/op per producer minus refills. */
static void hash_measure(struct mb_run *run, struct mb_sample *s)
{
	struct hash_state *st = run->priv;
	double busy = (double)s->elapsed_ns * run->nr_producers - (double)s->total.excluded_ns;
	uint64_t cpu = 0;

	if (!st->cpu) {
		if (s->total.ops && s->total.kernel_ns)
			s->metric[0] = (double)s->total.kernel_ns / (double)s->total.ops;
		return;
	}
	for (int i = 0; i < st->nr_producers; i++) {
		uint64_t now = __atomic_load_n(&st->cpu[i].ns, __ATOMIC_ACQUIRE);

		cpu += now - st->last_cpu_ns[i];
		st->last_cpu_ns[i] = now;
	}
	if (s->total.ops && cpu)
		s->metric[0] = (double)cpu / (double)s->total.ops;
	if (busy > 0)
		s->metric[1] = (double)cpu / busy;
}

static void hash_finish(struct mb_run *run)
{
	struct hash_state *st = run->priv;
	uint64_t ops = 0, errors = 0;
	double share = 0;
	int n = 0;

	for (int i = 0; i < run->nr_samples; i++) {
		const struct mb_sample *s = &run->samples[i];

		if (s->warmup)
			continue;
		ops += s->total.ops;
		errors += s->total.errors;
		if (!isnan(s->metric[1])) {
			share += s->metric[1];
			n++;
		}
	}
	if (n && share / n < HASH_CPU_SHARE_MIN)
		mb_run_warn(run, "the producers ran %.0f %% of the wall time (other load on their CPUs): op_ns is per CPU time of the producers, the wall-clock throughput is lower",
			    100.0 * share / n);
	if (errors)
		mb_run_warn(run, "%llu of %llu operations failed and count as errors, not hits%s",
			    (unsigned long long)errors, (unsigned long long)ops,
			    st->leaf->lru ? ": an LRU map evicts keys when its free lists run low (more head room in --max_entries avoids it)" : "");

	if (st->op == HASH_INSERT && st->leaf->lru)
		mb_json_set(mb_run_extra(run), "evicted_keys",
			    st->mim ? mb_json_null() : mb_json_number((double)st->evicted));
}

/* ---- text ---- */

static bool uses_refills(const struct mb_run *run)
{
	enum hash_op op = bench_op(run->bench);

	return op == HASH_INSERT || op == HASH_DELETE;
}

static void hash_progress(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s)
{
	const struct hash_args *a = run->args;
	double rate;

	if (a->path == HASH_PATH_KERNEL) {
		/* Inserts and deletes: per second of in-kernel time, refills excluded. */
		if (uses_refills(run))
			mb_text_frac_second.progress(f, run, iter, s);
		else
			mb_text_ops.progress(f, run, iter, s);
		return;
	}
	/* Per second of the producers' CPU time, like the in-kernel rates. */
	rate = s->metric[0] > 0 ? 1e3 / s->metric[0] * run->nr_producers : 0;
	mb_text_iter_prefix(f, run, iter, s);
	fprintf(f, "hits %8.3lfM/s (%7.3lfM/prod)\n", rate, rate / run->nr_producers);
}

static void hash_map_line(FILE *f, const struct mb_run *run)
{
	const struct hash_args *a = run->args;
	struct mb_json *extra = run->extra;
	struct mb_json *mem = mb_json_get(mb_json_get(extra, "memory"), "map");
	struct mb_json *setup = mb_json_get(extra, "setup");
	char flags[128];

	if (mb_log_quiet() || !mem)
		return;
	mb_map_flags_format(a->map_flags, flags, sizeof(flags));
	fprintf(f, "Map: %s%s%s, flags %s, %u entries", a->map_type->name,
		a->map_type->map_in_map ? " of " : "",
		a->map_type->map_in_map ? a->inner_type->name : "", flags, a->max_entries);
	if (bench_op(run->bench) == HASH_INSERT)
		fprintf(f, " (empty, %u keys inserted per round)", a->nr_entries);
	else
		fprintf(f, " (%u filled)", a->nr_entries);
	fprintf(f, ", key %u B, value %u B: memlock %.0f B (%.1f B/entry); setup %.1f ms (create %.1f ms, fill %.1f ms)\n",
		a->key_size, a->value_size, mb_json_num(mb_json_get(mem, "memlock_bytes"), 0),
		mb_json_num(mb_json_get(mem, "bytes_per_entry"), 0),
		mb_json_num(mb_json_get(extra, "setup_ns"), 0) / 1e6,
		mb_json_num(mb_json_get(setup, "create_ns"), 0) / 1e6,
		mb_json_num(mb_json_get(setup, "fill_ns"), 0) / 1e6);
}

static void hash_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	const struct hash_args *a = run->args;
	struct mb_stats rate = {};
	double *v;
	int n = 0;

	hash_map_line(f, run);
	if (a->path == HASH_PATH_KERNEL) {
		if (uses_refills(run))
			mb_text_frac_second.summary(f, run, sum);
		else
			mb_text_ops.summary(f, run, sum);
		return;
	}
	mb_text_notes(f, run, sum);
	if (!mb_log_quiet())
		fprintf(f, "Timing: per CPU time of the producer threads (they ran %.0f %% of the wall time; wall-clock %.3f M ops/s)%s\n",
			sum->has_metric[1] ? 100 * sum->metric[1].mean : 0.0,
			sum->throughput.mean / 1e6,
			uses_refills(run) ? ", refills of their key ranges excluded" : "");
	/* Rates per second of the producers' CPU time spent on the ops. */
	v = calloc((size_t)run->nr_samples + 1, sizeof(*v));
	for (int i = 0; v && i < run->nr_samples; i++) {
		const struct mb_sample *s = &run->samples[i];

		if (!s->warmup && s->metric[0] > 0)
			v[n++] = 1e9 / s->metric[0] * run->nr_producers;
	}
	if (!v || mb_stats_compute(v, (size_t)n, &rate))
		memset(&rate, 0, sizeof(rate));
	free(v);
	fprintf(f, "Summary: throughput %8.3lf \u00B1 %5.3lf M ops/s (%7.3lfM ops/prod), latency %8.3lf ns/op\n",
		rate.mean / 1e6, rate.stddev / 1e6, rate.mean / 1e6 / run->nr_producers,
		sum->has_metric[0] ? sum->metric[0].mean : 0.0);
}

static const struct mb_text_style hash_text = {
	.progress = hash_progress,
	.summary = hash_summary,
};

#define HASH_BENCH(_var, _name, _desc)						\
const struct mb_bench _var = {							\
	.name = _name,								\
	.family = "hash",							\
	.desc = _desc,								\
	.opts = hash_opts,							\
	.args_size = sizeof(struct hash_args),					\
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_KERNEL_LOOP,			\
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
