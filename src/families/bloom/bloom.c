// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Bloom filter family, with the kernel bench's names and options: bloom-lookup, bloom-update,
 * bloom-false-positive, hashmap-without-bloom, hashmap-with-bloom.
 *
 * Each producer runs its bench's in-kernel op loop (src/families/bloom/bloom.bpf.c) over its own region of
 * precomputed values. Values are numbered: 0..nr_entries-1 are inserted, higher numbers are
 * never inserted (bloom_model.h), so every lookup's right answer is known without a set, and
 * a false positive is told apart from a hit without asking the hash map.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "maps/map_mmap.h"
#include "core/bench.h"
#include "bloom.h"
#include "drivers/kloop.h"	/* struct mb_slot, before the skeleton */
#include "bloom.skel.h"
#include "bloom_model.h"
#include "util/json.h"
#include "maps/keys.h"
#include "util/log.h"
#include "maps/maps.h"
#include "drivers/map_fill.h"
#include "drivers/map_report.h"
#include "sys/probe.h"
#include "core/runner.h"
#include "core/env.h"

/* Per-producer query regions: at least this many values where absent ones are looked up... */
#define BL_MIN_QUERIES		16384ULL
/* ...and at most this much memory per producer and in all. */
#define BL_REGION_BYTES		(64ULL << 20)
#define BL_QUERY_BYTES		(256ULL << 20)
#define BL_MAX_ITERS		(1ULL << 23)
/* Comparison calls are this many times --call_us long; per turn, in-kernel ns (bl_compare). */
#define BL_CMP_CALL_FACTOR	10
#define BL_CMP_WARM_NS		2000000ULL
#define BL_CMP_MEASURE_NS	5000000ULL

/* Value sizes: the range the kernel's bloom bench takes (mapbench's programs hold 256 bytes). */
#define BLOOM_VALUE_MIN	2
#define BLOOM_VALUE_MAX	256

static const struct mb_opt bloom_opts[] = {
	MB_OPT_NR_ENTRIES(struct bloom_args, nr_entries, "1000", 1, MB_MAP_ENTRIES_MAX,
			  "values inserted; the filter is sized for them (max_entries)"),
	MB_OPT_U32_DEF("nr_hash_funcs", struct bloom_args, nr_hash_funcs, "3", 1, 15, "K",
		       "Hash functions of the filter (map_extra)"),
	MB_OPT_VALUE_SIZE(struct bloom_args, value_size, "8", BLOOM_VALUE_MIN, BLOOM_VALUE_MAX,
			  "of the filter's values"),
	MB_OPT_SEED(struct bloom_args, seed,
		    "the inserted and looked-up values (the filter's hash seed is the kernel's)"),
	MB_OPT_END,
};

static const struct mb_opt hashmap_opts[] = {
	MB_OPT_NR_ENTRIES(struct bloom_args, nr_entries, "1000", 1, MB_MAP_ENTRIES_MAX,
			  "values inserted into the hash map (full: max_entries) and the filter"),
	MB_OPT_U32_DEF("nr_hash_funcs", struct bloom_args, nr_hash_funcs, "3", 1, 15, "K",
		       "Hash functions of the filter (hashmap-without-bloom has none: accepted for the kernel's scripts)"),
	MB_OPT_VALUE_SIZE(struct bloom_args, value_size, "8", BLOOM_VALUE_MIN, BLOOM_VALUE_MAX,
			  "of the values, also the hash map's key"),
	MB_OPT_SEED(struct bloom_args, seed, "the inserted and looked-up values"),
	MB_OPT_DOUBLE_DEF("hit_ratio", struct bloom_args, hit_ratio, "0", 0.0, 1.0, "R",
			  "Fraction of lookups for inserted values (the filter only saves the others)"),
	MB_OPT_END,
};

static bool bl_needs_absent(enum bl_kind kind, const struct bloom_args *a)
{
	return kind == BL_FP || ((kind == BL_HASH || kind == BL_HASH_BLOOM) && a->hit_ratio < 1.0);
}

static int bl_validate(struct mb_run *run, enum bl_kind kind)
{
	const struct bloom_args *a = run->args;
	uint64_t space = mb_bloom_value_space(a->value_size);

	/* The kernel's check_args(): values must be unique, and small values run out. */
	if (space && a->nr_entries > space)
		return mb_run_usage(run, "--nr_entries %u: must be 1..%llu with --value_size %u (not enough unique values)",
				    a->nr_entries, (unsigned long long)space, a->value_size);
	if (space && a->nr_entries == space && bl_needs_absent(kind, a))
		return mb_run_usage(run, "--nr_entries %u: must be 1..%llu with --value_size %u (every value is inserted, none is left to look up as absent%s)",
				    a->nr_entries, (unsigned long long)space - 1, a->value_size,
				    kind == BL_FP ? "" : "; or use --hit_ratio 1");
	if (kind == BL_HASH_BLOOM && run->nr_producers > BL_MAX_PRODUCERS_CMP)
		return mb_run_usage(run, "-p/--producers %d: must be 1..%d (the comparison with hashmap-without-bloom uses a second slot per producer)",
				    run->nr_producers, BL_MAX_PRODUCERS_CMP);
	return 0;
}

static uint64_t bl_region_len(const struct bloom_args *a, enum bl_kind kind, int np,
			      uint32_t stride)
{
	uint64_t want = a->nr_entries, cap;

	/*
	 * Lookups of inserted values walk all of them; absent ones need enough distinct values
	 * for a false-positive rate to mean something at small sizes.
	 */
	if (bl_needs_absent(kind, a) && want < BL_MIN_QUERIES)
		want = BL_MIN_QUERIES;
	cap = BL_QUERY_BYTES / (uint64_t)np;
	if (cap > BL_REGION_BYTES)
		cap = BL_REGION_BYTES;
	cap /= stride;
	if (cap < 1)
		cap = 1;
	return want < cap ? want : cap;
}

static struct bpf_program *bl_prog(const struct bl_state *st)
{
	switch (st->kind) {
	case BL_LOOKUP:
		return st->skel->progs.mb_bloom_lookup;
	case BL_UPDATE:
		return st->skel->progs.mb_bloom_update;
	case BL_FP:
		return st->skel->progs.mb_bloom_fp;
	case BL_HASH:
		return st->skel->progs.mb_hash_nobloom;
	case BL_HASH_BLOOM:
		return st->skel->progs.mb_hash_bloom;
	}
	return NULL;
}

static int bl_load_fail(struct mb_run *run, int err)
{
	const struct bloom_args *a = run->args;
	char why[512];

	switch (-err) {
	case ENOMEM:
		return mb_run_fail(run, err, "not enough memory for the maps (ENOMEM) with --nr_entries %u --value_size %u: lower them, or raise the memory cgroup limit",
				   a->nr_entries, a->value_size);
	case E2BIG:
		return mb_run_fail(run, err, "the kernel refused a map size (E2BIG) with --nr_entries %u --value_size %u: an array of all values must stay under 4 GiB",
				   a->nr_entries, a->value_size);
	default:
		/* EPERM without a verifier log is a privilege problem; with one, a rejection. */
		mb_explain_load_error(err, "cannot load the BPF maps and programs", why,
				      sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
}

static int bl_load(struct mb_run *run, struct bl_state *st)
{
	const struct bloom_args *a = run->args;
	struct bloom_bpf *skel;
	struct bpf_program *prog, *mine;
	uint32_t n = a->nr_entries;
	int err;

	skel = bloom_bpf__open();
	if (!skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	st->skel = skel;
	mb_loop_prepare(skel->skeleton, &run->loop);
	mine = bl_prog(st);
	/* Maps a bench does not use still exist (the programs name them): one entry. */
	bpf_map__set_value_size(skel->maps.mb_bloom, a->value_size);
	bpf_map__set_max_entries(skel->maps.mb_bloom, st->need_bloom ? n : 1);
	bpf_map__set_map_extra(skel->maps.mb_bloom, a->nr_hash_funcs);
	bpf_map__set_key_size(skel->maps.mb_bl_hash, a->value_size);
	bpf_map__set_max_entries(skel->maps.mb_bl_hash, st->need_hash ? n : 1);
	bpf_map__set_value_size(skel->maps.mb_bl_query, a->value_size);
	/* hashmap-with-bloom's comparison runs on slots nr_prod..2*nr_prod-1, same regions. */
	bpf_map__set_max_entries(skel->maps.mb_bl_query, (uint32_t)(st->region_len * st->nr_prod));
	skel->rodata->mb_bl_region_len = (uint32_t)st->region_len;
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, prog == mine || (st->kind == BL_HASH_BLOOM &&
					   prog == skel->progs.mb_hash_nobloom));
	err = bloom_bpf__load(skel);
	return err ? bl_load_fail(run, err) : 0;
}

static void *bl_mmap(struct bpf_map *map, size_t *len)
{
	size_t stride = (bpf_map__value_size(map) + 7) & ~(size_t)7;

	return mb_map_mmap(bpf_map__fd(map), stride * bpf_map__max_entries(map),
			   PROT_READ | PROT_WRITE, len);
}

static bool bl_stop(void *ctx)
{
	(void)ctx;
	return mb_interrupted();
}

/*
 * Insert values 0..n-1 into the filter and the hash map in the kernel (in parallel on the
 * online CPUs for large sets): the filter pushes them, the hash map takes them as keys.
 */
static int bl_fill(struct mb_run *run, struct bl_state *st)
{
	const struct bloom_args *a = run->args;
	struct mb_entries bloom = { .type = mb_map_type_by_type(BPF_MAP_TYPE_BLOOM_FILTER),
				    .value_size = a->value_size, .key = MB_KEY_NONE,
				    .value = MB_VALUE_GIVEN };
	struct mb_entries hash = { .type = mb_map_type_by_type(BPF_MAP_TYPE_HASH),
				   .key_size = a->value_size, .value_size = 8, .key = MB_KEY_GIVEN,
				   .value = MB_VALUE_ZERO };
	struct mb_fill f = { .count = a->nr_entries, .method = MB_FILL_KERNEL, .noexist = true,
			     .cpus = &run->env->online, .stop = bl_stop };
	struct mb_fill_result r = { 0 };
	struct mb_bloom_valgen g;
	uint8_t *vals = malloc((size_t)a->nr_entries * a->value_size);
	int err = 0;

	if (!vals)
		return mb_run_fail(run, -ENOMEM, "out of memory for %u values", a->nr_entries);
	mb_bloom_valgen_init(&g, a->value_size, a->seed);
	for (uint64_t i = 0; i < a->nr_entries; i++)
		mb_bloom_value(&g, i, vals + i * a->value_size);
	bloom.values = hash.keys = vals;
	f.e = &bloom;
	f.fd = bpf_map__fd(st->skel->maps.mb_bloom);
	if (st->need_bloom)
		err = mb_map_fill(&f, &r);
	f.e = &hash;
	f.fd = bpf_map__fd(st->skel->maps.mb_bl_hash);
	if (!err && !r.failed && st->need_hash)
		err = mb_map_fill(&f, &r);
	free(vals);
	if (err == -EINTR)
		return 0;
	if (err)
		return mb_run_fail(run, err, "filling the maps: %s", strerror(-err));
	if (r.failed)
		return mb_run_fail(run, -EIO, "filling the maps: %llu of the %u values were refused",
				   (unsigned long long)r.failed, a->nr_entries);
	return 0;
}

static void bl_shuffle(uint64_t *v, uint64_t n, struct mb_rng *rng)
{
	for (uint64_t i = n; i > 1; i--) {
		uint64_t j = mb_rng_below(rng, i), t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* Value numbers for one producer's region, in lookup order. */
static void bl_region_indexes(const struct bloom_args *a, enum bl_kind kind, uint64_t *idx,
			      uint64_t len, struct mb_rng *rng)
{
	uint64_t n = a->nr_entries, space = mb_bloom_value_space(a->value_size);
	/* Numbers n..space-1 were never inserted (space 0 stands for 2^64). */
	uint64_t absent = space ? space - n : 0 - n;
	uint64_t present;

	switch (kind) {
	case BL_LOOKUP:
	case BL_UPDATE:
		present = len;
		break;
	case BL_FP:
		present = 0;
		break;
	default:
		present = (uint64_t)llround(a->hit_ratio * (double)len);
		break;
	}
	for (uint64_t j = 0; j < len; j++) {
		if (j >= present)
			idx[j] = n + mb_rng_below(rng, absent);
		else if (present == n)
			idx[j] = j;	/* each inserted value once per pass */
		else
			idx[j] = mb_rng_below(rng, n);
	}
	bl_shuffle(idx, len, rng);
}

static int bl_queries(struct mb_run *run, struct bl_state *st)
{
	const struct bloom_args *a = run->args;
	uint64_t len = st->region_len;
	struct mb_bloom_valgen g;
	uint64_t *idx;
	uint8_t *q;
	size_t qlen;

	q = bl_mmap(st->skel->maps.mb_bl_query, &qlen);
	if (!q)
		return mb_run_fail(run, -errno, "cannot mmap the query array: %s", strerror(errno));
	idx = malloc(len * sizeof(*idx));
	if (!idx) {
		munmap(q, qlen);
		return mb_run_fail(run, -ENOMEM, "out of memory for %llu query values",
				   (unsigned long long)len);
	}
	mb_bloom_valgen_init(&g, a->value_size, a->seed);
	for (int p = 0; p < st->nr_prod && !mb_interrupted(); p++) {
		struct bl_prod *bp = &st->prod[p];
		struct mb_rng rng;

		bp->present = calloc((len + 7) / 8, 1);
		if (!bp->present)
			break;
		/* A stream per producer, apart from the value generator's constants. */
		mb_rng_seed(&rng, a->seed ^ (0xa0761d6478bd642fULL * (uint64_t)(p + 1)));
		bl_region_indexes(a, st->kind, idx, len, &rng);
		for (uint64_t j = 0; j < len; j++) {
			mb_bloom_value(&g, idx[j], q + ((uint64_t)p * len + j) * st->stride);
			if (idx[j] < a->nr_entries) {
				bp->present[j / 8] |= (uint8_t)(1u << (j % 8));
				bp->nr_present++;
			}
		}
		st->skel->bss->mb_slots[p].arg = (uint64_t)p * len;
	}
	free(idx);
	munmap(q, qlen);
	for (int p = 0; p < st->nr_prod; p++)
		if (!st->prod[p].present && !mb_interrupted())
			return mb_run_fail(run, -ENOMEM, "out of memory");
	return 0;
}

static void bl_report_filter(struct mb_run *run, struct bl_state *st)
{
	const struct bloom_args *a = run->args;
	struct mb_json *f = mb_json_child(mb_run_extra(run), "filter");
	int fd = bpf_map__fd(st->skel->maps.mb_bloom);
	uint64_t bytes = st->nr_bits / 8, memlock;

	mb_json_set_num(f, "nr_entries", a->nr_entries);
	mb_json_set_num(f, "nr_hash_funcs", a->nr_hash_funcs);
	mb_json_set_num(f, "value_size", a->value_size);
	mb_json_set_num(f, "nr_bits", (double)st->nr_bits);
	mb_json_set_num(f, "bitset_bytes", (double)bytes);
	mb_json_set_num(f, "bits_per_entry", (double)st->nr_bits / a->nr_entries);
	mb_json_set_num(f, "optimal_hash_funcs",
			mb_bloom_optimal_hash_funcs(st->nr_bits, a->nr_entries));
	mb_json_set_num(f, "theoretical_fp_rate",
			mb_bloom_fp_rate(st->nr_bits, a->nr_hash_funcs, a->nr_entries));
	/*
	 * The bit count comes from the kernel's sizing rule; the map's memlock (bit array plus a
	 * small header) confirms it on this kernel.
	 */
	if (!mb_map_memlock(fd, &memlock) && memlock >= bytes && memlock - bytes < 4096) {
		mb_json_set_bool(f, "nr_bits_confirmed", true);
	} else {
		mb_json_set_bool(f, "nr_bits_confirmed", false);
		mb_run_warn(run, "the filter's memlock does not match %llu bits: the theoretical false-positive rate may not fit this kernel",
			    (unsigned long long)st->nr_bits);
	}
	mb_run_report_map_memory(run, "bloom", fd, a->nr_entries);
}

static void bl_report_setup(struct mb_run *run, struct bl_state *st)
{
	const struct bloom_args *a = run->args;
	struct mb_json *q = mb_json_child(mb_run_extra(run), "queries");
	uint64_t present = 0;

	if (st->need_bloom)
		bl_report_filter(run, st);
	if (st->need_hash)
		mb_run_report_map_memory(run, "hashmap", bpf_map__fd(st->skel->maps.mb_bl_hash),
					 a->nr_entries);
	for (int p = 0; p < st->nr_prod; p++)
		present += st->prod[p].nr_present;
	mb_json_set_num(q, "per_producer", (double)st->region_len);
	mb_json_set_num(q, "hit_ratio", (double)present / (double)(st->region_len * st->nr_prod));
	mb_json_set_num(q, "distinct_values", a->value_size >= 8 ? pow(2, 64) :
			(double)mb_bloom_value_space(a->value_size));
	if ((st->kind == BL_LOOKUP || st->kind == BL_UPDATE) && st->region_len < a->nr_entries)
		mb_run_warn(run, "each producer looks up %llu of the %u values (memory cap of its region)",
			    (unsigned long long)st->region_len, a->nr_entries);
}

static int bl_setup(struct mb_run *run, enum bl_kind kind)
{
	const struct bloom_args *a = run->args;
	int np = run->nr_producers, err;
	struct bl_state *st;
	char why[256];

	if (mb_probe_map_type(BPF_MAP_TYPE_BLOOM_FILTER, "bloom filter", why, sizeof(why)))
		return mb_run_skip(run, "%s (it came with Linux 5.16)", why);
	st = calloc(1, sizeof(*st) + (size_t)np * sizeof(st->prod[0]));
	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	run->runner = "kernel-loop";
	st->kind = kind;
	st->nr_prod = run->nr_producers;
	st->need_bloom = kind != BL_HASH;
	st->need_hash = kind == BL_HASH || kind == BL_HASH_BLOOM;
	st->stride = (a->value_size + 7) & ~7u;
	st->region_len = bl_region_len(a, kind, run->nr_producers, st->stride);
	st->nr_bits = mb_bloom_nr_bits(a->nr_entries, a->nr_hash_funcs);
	if (kind == BL_HASH_BLOOM) {
		for (int p = 0; p < st->nr_prod; p++) {
			st->prod[p].rounds = calloc(BL_MAX_ROUNDS, sizeof(struct bl_round));
			if (!st->prod[p].rounds)
				return mb_run_fail(run, -ENOMEM, "out of memory");
		}
	}
	err = bl_load(run, st);
	if (!err)
		err = bl_fill(run, st);
	if (!err)
		err = bl_queries(run, st);
	if (err || mb_interrupted())
		return err;
	bl_report_setup(run, st);
	return 0;
}

static void bl_teardown(struct mb_run *run)
{
	struct bl_state *st = run->priv;

	if (!st)
		return;
	for (int p = 0; p < st->nr_prod; p++) {
		free(st->prod[p].present);
		free(st->prod[p].rounds);
	}
	bloom_bpf__destroy(st->skel);
	free(st);
	run->priv = NULL;
}

/* The comparison's length: a quarter of the measured time, within 0.1..2 s. */
static uint64_t bl_compare_ns(const struct mb_run *run)
{
	uint64_t ms = (uint64_t)run->env->duration * run->env->interval_ms / 4;

	if (ms < 100)
		ms = 100;
	if (ms > 2000)
		ms = 2000;
	return ms * 1000000ULL;
}

/* One side of the comparison (the program with the filter, or without). */
struct bl_side {
	int fd;
	int slot_idx;
	struct mb_slot *slot;
	double ns_op;		/* last measured, to size its calls */
	uint64_t ns, ops;	/* measured in the current round */
	uint64_t *cmp_ops, *expected, *cursor;	/* totals kept for bl_check */
};

/*
 * One call of @side on the next values of the producer's region from position *@pos; the
 * hits it must find are added up for bl_check.
 */
static int bl_side_call(const struct bl_state *st, const struct bl_prod *bp,
			struct bl_side *side, uint64_t iters, int cpu, uint64_t *pos,
			uint64_t *ns, uint64_t *ops)
{
	uint64_t ns0 = side->slot->kernel_ns, ops0 = side->slot->ops;
	int ret;

	side->slot->cursor = *pos;
	ret = mb_kloop_call(side->fd, side->slot_idx, iters, cpu);
	if (ret < 0)
		return ret;
	*ns = side->slot->kernel_ns - ns0;
	*ops = side->slot->ops - ops0;
	*side->cmp_ops += *ops;
	*side->expected += bl_present_in(st, bp, *pos, *ops);
	*pos = (*pos + *ops) % st->region_len;
	*side->cursor = *pos;
	if (*ops && *ns)
		side->ns_op = (double)*ns / (double)*ops;
	return 0;
}

/*
 * One turn of @side: calls of ~10 x --call_us until BL_CMP_WARM_NS of in-kernel time went
 * by unmeasured (its working set returns to the caches after the other program's turn, and
 * after neighbours had them), then until BL_CMP_MEASURE_NS measured.
 */
static int bl_side_turn(const struct mb_run *run, const struct bl_state *st,
			const struct bl_prod *bp, struct bl_side *side, int cpu, uint64_t *pos)
{
	double call_ns = BL_CMP_CALL_FACTOR * run->env->call_us * 1000.0;
	uint64_t warm = 0, ns, ops;
	int err;

	while (warm < BL_CMP_WARM_NS || side->ns < BL_CMP_MEASURE_NS) {
		uint64_t iters = (uint64_t)(call_ns / side->ns_op);

		if (iters < 1)
			iters = 1;
		if (iters > BL_MAX_ITERS)
			iters = BL_MAX_ITERS;
		err = bl_side_call(st, bp, side, iters, cpu, pos, &ns, &ops);
		if (err)
			return err;
		if (!ops)
			return -EIO;
		if (warm < BL_CMP_WARM_NS) {
			warm += ns;
		} else {
			side->ns += ns;
			side->ops += ops;
		}
	}
	return 0;
}

/*
 * hashmap-with-bloom, after the measured samples: the program with the filter (A) and the
 * one without (B) in rounds of turns A B B A, so that each runs after the other as often as
 * after itself, under the same machine state: a level shift of the machine moves both. The
 * turns walk consecutive values of the producer's region (the same workload, none of it
 * brought into the cache by the previous turn). Each turn first runs unmeasured until its
 * program's working set is back in the caches: measured right after the other program's
 * turn, a hash map that fits in the LLC looked up to 2x slower than in its own run, and the
 * ratio with it. Each round gives both programs' ns/op; bl_finish takes medians.
 */
static int bl_compare(struct mb_run *run, struct mb_producer *p)
{
	struct bl_state *st = run->priv;
	struct bl_prod *bp = &st->prod[p->idx];
	struct mb_slot *sa = &st->skel->bss->mb_slots[p->idx];
	double ns_op = sa->ops && sa->kernel_ns ? (double)sa->kernel_ns / (double)sa->ops : 100;
	struct bl_side a = {
		.fd = bpf_program__fd(st->skel->progs.mb_hash_bloom),
		.slot_idx = p->idx,
		.slot = sa,
		.ns_op = ns_op,
		.cmp_ops = &bp->cmp_ops_a,
		.expected = &bp->cmp_expected_a,
		.cursor = &bp->cmp_cursor_a,
	};
	struct bl_side b = {
		.fd = bpf_program__fd(st->skel->progs.mb_hash_nobloom),
		.slot_idx = p->idx + st->nr_prod,
		.slot = &st->skel->bss->mb_slots[p->idx + st->nr_prod],
		.ns_op = ns_op,
		.cmp_ops = &bp->cmp_ops_b,
		.expected = &bp->cmp_expected_b,
		.cursor = &bp->cmp_cursor_b,
	};
	uint64_t end = mb_now_ns() + bl_compare_ns(run), pos = sa->cursor;

	b.slot->arg = sa->arg;
	/* Where the measured part left the slot: checked here, before the jumps begin. */
	bp->cmp_ran = true;
	bp->cmp_start_ok = sa->cursor == sa->ops % st->region_len;
	bp->cmp_cursor_a = sa->cursor;
	while (bp->nr_rounds < BL_MAX_ROUNDS && mb_now_ns() < end && !mb_interrupted()) {
		int err;

		a.ns = a.ops = b.ns = b.ops = 0;
		err = bl_side_turn(run, st, bp, &a, p->cpu, &pos);
		if (!err)
			err = bl_side_turn(run, st, bp, &b, p->cpu, &pos);
		if (!err)
			err = bl_side_turn(run, st, bp, &b, p->cpu, &pos);
		if (!err)
			err = bl_side_turn(run, st, bp, &a, p->cpu, &pos);
		if (err) {
			mb_err("%s: producer %d: comparison run failed: %s", run->bench->name,
			       p->idx, strerror(-err));
			return err;
		}
		bp->rounds[bp->nr_rounds].with_ns = (double)a.ns / (double)a.ops;
		bp->rounds[bp->nr_rounds].without_ns = (double)b.ns / (double)b.ops;
		bp->nr_rounds++;
	}
	return 0;
}

static int bl_producer(struct mb_run *run, struct mb_producer *p)
{
	struct bl_state *st = run->priv;
	struct mb_kloop_cfg cfg = {
		.prog_fd = bpf_program__fd(bl_prog(st)),
		.slots = st->skel->bss->mb_slots,
	};
	int err = mb_kloop_produce(run, p, &cfg);

	if (err || st->kind != BL_HASH_BLOOM || mb_interrupted())
		return err;
	return bl_compare(run, p);
}

#define BL_HOOKS(_kind, _sfx)								\
static int bl_validate_##_sfx(struct mb_run *run) { return bl_validate(run, _kind); }	\
static int bl_setup_##_sfx(struct mb_run *run) { return bl_setup(run, _kind); }

BL_HOOKS(BL_LOOKUP, lookup)
BL_HOOKS(BL_UPDATE, update)
BL_HOOKS(BL_FP, fp)
BL_HOOKS(BL_HASH, hash)
BL_HOOKS(BL_HASH_BLOOM, hash_bloom)

/* The map types each bench measures. */
static const char *const bl_types_lookup[] = { "bloom_filter", NULL };
static const char *const bl_types_update[] = { "bloom_filter", NULL };
static const char *const bl_types_fp[] = { "bloom_filter", NULL };
static const char *const bl_types_hash[] = { "hash", NULL };
static const char *const bl_types_hash_bloom[] = { "bloom_filter", "hash", NULL };

#define BL_BENCH(_name, _sfx, _opts, _text, _metrics, _counters, _measure, _desc)	\
	{									\
		.name = _name,							\
		.family = "bloom",						\
		.desc = _desc,							\
		.opts = _opts,							\
		.args_size = sizeof(struct bloom_args),				\
		.flags = MB_BENCH_NEEDS_BPF,					\
		.map_types = bl_types_##_sfx,					\
		.instrument = &mb_kloop_instrument,				\
		.text = _text,							\
		.metrics = _metrics,						\
		.counters = _counters,						\
		.validate = bl_validate_##_sfx,					\
		.setup = bl_setup_##_sfx,					\
		.producer = bl_producer,					\
		.measure = _measure,						\
		.finish = bl_finish,						\
		.teardown = bl_teardown,					\
	}

const struct mb_bench mb_bench_bloom_lookup =
	BL_BENCH("bloom-lookup", lookup, bloom_opts, &bl_text_hits_drops, NULL, NULL, NULL,
		 "bloom filter lookup (peek) of an inserted value");

const struct mb_bench mb_bench_bloom_update =
	BL_BENCH("bloom-update", update, bloom_opts, &bl_text_hits_drops, NULL, NULL, NULL,
		 "bloom filter update (push) of an inserted value");

const struct mb_bench mb_bench_bloom_false_positive =
	BL_BENCH("bloom-false-positive", fp, bloom_opts, &bl_text_false_hits, bl_fp_metrics,
		 bl_counters, bl_measure,
		 "bloom filter lookup of values never inserted: false-positive rate vs theory");

const struct mb_bench mb_bench_hashmap_without_bloom =
	BL_BENCH("hashmap-without-bloom", hash, hashmap_opts, &bl_text_hits_drops, NULL, NULL, NULL,
		 "hash map lookup, --hit_ratio of them for inserted values");

const struct mb_bench mb_bench_hashmap_with_bloom =
	BL_BENCH("hashmap-with-bloom", hash_bloom, hashmap_opts, &bl_text_hits_drops,
		 bl_fp_metrics, bl_counters, bl_measure,
		 "bloom filter then hash map lookup; speed-up over hashmap-without-bloom");
