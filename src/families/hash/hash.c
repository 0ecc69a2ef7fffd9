// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Hash family: map-lookup, map-lookup-miss, map-update, map-insert, map-delete, map-mixed on
 * hash, per-CPU hash, LRU, array and map-in-map maps, in the kernel (one op loop per
 * operation) or from user space (hash_user.c). This file: options, validation, the in-kernel
 * producer and the results; hash_setup.c creates and fills the maps.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>

#include "hash.h"
#include "hash.skel.h"
#include "util/json.h"
#include "core/kloop.h"
#include "util/log.h"
#include "output/report.h"
#include "core/summary.h"

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

static int parse_dist(const char *arg, void *field, const char **why)
{
	return mb_key_dist_parse(arg, field, why);
}

static void format_dist(const void *field, char *buf, size_t len)
{
	mb_key_dist_format(field, buf, len);
}

const char *const hash_path_names[] = { "kernel", "syscall", "batch", NULL };
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
	MB_OPT_CUSTOM_DEF("key_dist", struct hash_args, key_dist, "seq", parse_dist, format_dist,
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

/* ---- which bench is which op ---- */

extern const struct mb_bench mb_bench_map_lookup, mb_bench_map_lookup_miss, mb_bench_map_update,
	mb_bench_map_insert, mb_bench_map_delete, mb_bench_map_mixed,
	mb_bench_bpf_hashmap_lookup, mb_bench_bpf_hashmap_full_update;

enum hash_op hash_bench_op(const struct mb_bench *b)
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

const struct mb_map_type_info *hash_leaf_type(const struct hash_args *a)
{
	return a->map_type->map_in_map ? a->inner_type : a->map_type;
}

int hash_possible_cpus(void)
{
	int n = libbpf_num_possible_cpus();

	return n > 0 ? n : 1;
}

/* ---- validation ---- */

#define KNOWN_FLAGS (BPF_F_NO_PREALLOC | BPF_F_NO_COMMON_LRU | BPF_F_NUMA_NODE | \
		     BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG | BPF_F_ZERO_SEED | BPF_F_MMAPABLE)

int hash_validate_flags(struct mb_run *run, const struct hash_args *a, enum hash_op op)
{
	const struct mb_map_type_info *leaf = hash_leaf_type(a);
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
	const struct mb_map_type_info *leaf = hash_leaf_type(a);
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
	const struct mb_map_type_info *leaf = hash_leaf_type(a);
	int np = run->nr_producers, ncpus = hash_possible_cpus();
	uint64_t need = hash_need(op, a->nr_entries, np), max;

	if ((op == HASH_INSERT || op == HASH_DELETE || op == HASH_MIXED) &&
	    a->nr_entries < (uint32_t)np)
		return mb_run_bad_num(run, "nr_entries", a->nr_entries,
				      ">= %d (map-%s gives each of the %d producers its own keys)",
				      np, hash_op_name(op), np);
	if (leaf->array) {
		if (!a->max_entries)
			a->max_entries = a->nr_entries;
		if (a->nr_entries > a->max_entries)
			return mb_run_usage(run, "--nr_entries %u: must be <= --max_entries %u",
					    a->nr_entries, a->max_entries);
		/* Absent indices start at max_entries. */
		if (op == HASH_MISS &&
		    (uint64_t)a->max_entries + a->nr_entries >= MB_HASH_BAD_INDEX)
			return mb_run_bad_num(run, "max_entries", a->max_entries,
					      "< %u - --nr_entries (map-lookup-miss looks up indices from max_entries on)",
					      MB_HASH_BAD_INDEX);
		return 0;
	}
	if (!a->max_entries) {
		max = hash_default_max_entries(leaf, a->map_flags, need, ncpus);
		if (!max)
			return mb_run_bad_num(run, "nr_entries", a->nr_entries,
					      "smaller (the map it needs has more than %u entries)",
					      UINT32_MAX);
		a->max_entries = (uint32_t)max;
		a->max_entries_headroom = (uint32_t)(max - need);
		return 0;
	}
	if (need > a->max_entries) {
		if (op == HASH_MIXED)
			return mb_run_bad_num(run, "nr_entries", a->nr_entries,
					      "<= --max_entries %u - %d (map-mixed needs room for one more key per producer)",
					      a->max_entries, np);
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
	enum hash_op op = hash_bench_op(run->bench);
	const struct mb_map_type_info *leaf = hash_leaf_type(a);
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
	return err;
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
	/* The CPU time is published with the counters: the time of the calls counted. */
	double busy = (double)s->covered_ns * run->nr_producers - (double)s->total.excluded_ns;
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
	enum hash_op op = hash_bench_op(run->bench);

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
	struct mb_json *setup = mb_json_get(extra, "setup"), *bpe;
	char flags[128], per[48];

	if (mb_log_quiet() || !mem)
		return;
	mb_map_flags_format(a->map_flags, flags, sizeof(flags));
	fprintf(f, "Map: %s%s%s, flags %s, %u entries", a->map_type->name,
		a->map_type->map_in_map ? " of " : "",
		a->map_type->map_in_map ? a->inner_type->name : "", flags, a->max_entries);
	if (a->max_entries_headroom)
		fprintf(f, " (%u asked + %u LRU head room)", a->max_entries - a->max_entries_headroom,
			a->max_entries_headroom);
	if (hash_bench_op(run->bench) == HASH_INSERT)
		fprintf(f, " (empty, %u keys inserted per round)", a->nr_entries);
	else
		fprintf(f, " (%u filled)", a->nr_entries);
	bpe = mb_json_get(mem, "bytes_per_entry");
	if (mb_json_is(bpe, MB_JSON_NUMBER))
		snprintf(per, sizeof(per), "%.1f B/entry", mb_json_num(bpe, 0));
	else
		snprintf(per, sizeof(per), "empty: no B/entry");
	fprintf(f, ", key %u B, value %u B: memlock %.0f B (%s); setup %.1f ms (create %.1f ms, fill %.1f ms)\n",
		a->key_size, a->value_size, mb_json_num(mb_json_get(mem, "memlock_bytes"), 0), per,
		mb_json_num(mb_json_get(extra, "setup_ns"), 0) / 1e6,
		mb_json_num(mb_json_get(setup, "create_ns"), 0) / 1e6,
		mb_json_num(mb_json_get(setup, "fill_ns"), 0) / 1e6);
}

static void hash_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	const struct hash_args *a = run->args;
	struct mb_stats rate = {};
	char sd[32];
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
	fprintf(f, "Summary: throughput %8.3lf \u00B1 %5s M ops/s (%7.3lfM ops/prod), latency %8.3lf ns/op\n",
		rate.mean / 1e6, mb_text_num(sd, sizeof(sd), 5, 3, rate.stddev / 1e6),
		rate.mean / 1e6 / run->nr_producers,
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
