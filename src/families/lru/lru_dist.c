// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * lru-dist: how many more misses the BPF LRU hash has than a perfect LRU of the same capacity,
 * on a key trace (samples/bpf/test_lru_dist's test_parallel_lru_dist). Each task replays the
 * trace on its own CPU, on keys disjoint from the other tasks', into one map: a lookup, and on
 * a miss an insert. The perfect LRU replays the same trace with --lru_size entries.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "core/bench.h"
#include "core/env.h"
#include "util/json.h"
#include "maps/keys.h"
#include "lru_common.h"
#include "lru_sim.h"
#include "lru_text.h"
#include "lru_trace.h"
#include "util/log.h"
#include "maps/maps.h"
#include "core/runner.h"

#define DIST_MAX_KEYS		50000000ULL	/* trace length: 400 MB per task copy */
#define DIST_MAX_LRU_SIZE	10000000U
/* --access bpf: the operations of all tasks go into one array map. */
#define DIST_MAX_OPS		(1ULL << 28)

struct dist_args {
	const char *keys_file;
	struct mb_key_dist dist;
	uint64_t nr_keys;
	uint64_t key_range;
	uint64_t seed;
	uint32_t lru_size;
	uint32_t nr_tasks;
	int map_type;
	int map_flags;
	int access;
};

static const struct mb_opt dist_opts[] = {
	MB_OPT_STRING_DEF("keys_file", struct dist_args, keys_file, NULL, "PATH",
			  "Key trace: one unsigned decimal key per line (test_lru_dist's dist-file); default: a generated trace"),
	MB_OPT_CUSTOM_DEF("dist", struct dist_args, dist, "zipf:1.01", mb_key_dist_opt_parse, mb_key_dist_opt_format,
			  "zipf:THETA (0 < THETA <= 10), uniform or seq", "DIST",
			  "Generated trace: key distribution over --key_range keys (zipf: key 0 the most frequent)"),
	MB_OPT_U64_DEF("nr_keys", struct dist_args, nr_keys, "100000", 1, DIST_MAX_KEYS, "N",
		       "Generated trace: number of accesses"),
	MB_OPT_U64_DEF("key_range", struct dist_args, key_range, "100000", 1, MB_LRU_KEY_MASK, "N",
		       "Generated trace: keys are 0..N-1"),
	MB_OPT_SEED(struct dist_args, seed,
		    "the generated trace (the same seed gives the same trace)"),
	MB_OPT_U32_DEF("lru_size", struct dist_args, lru_size, "4000", 1, DIST_MAX_LRU_SIZE, "N",
		       "LRU capacity per task (no_common: per CPU, as the kernel splits it)"),
	MB_OPT_U32_DEF("nr_tasks", struct dist_args, nr_tasks, "1", 1, LRU_MAX_TASKS, "N",
		       "Tasks, one per CPU, each replaying the trace on its own keys"),
	LRU_VARIANT_OPTS(struct dist_args),
	MB_OPT_END,
};

struct dist_state {
	struct mb_trace trace;
	uint64_t perfect_misses;	/* of one task's replay (the same for every task) */
	uint64_t perfect_ns;
	uint64_t *ops;			/* [nr_tasks][trace.n] */
	struct lru_task *tasks;
	int nr_tasks;
	struct lru_variant variants[2];
	int nr_variants;
	struct lru_dist_found found[2];	/* for the text lines */
};

static int load_file(const char *path, struct mb_trace *t, char *err, size_t errlen)
{
	uint64_t *keys;
	size_t n;
	int ret = mb_keys_read_file(path, &keys, &n, err, errlen);

	if (ret)
		return ret;
	ret = mb_trace_adopt(t, keys, n);
	if (ret)
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	return ret;
}

static int dist_validate(struct mb_run *run)
{
	const struct dist_args *a = run->args;
	uint64_t nr_ops = a->nr_keys;
	char err[512];
	int ret;

	ret = lru_validate_tasks(run, "nr_tasks", a->nr_tasks);
	if (ret)
		return ret;
	if (a->keys_file) {
		static const char *const generator_opts[] = { "dist", "nr_keys", "key_range" };
		struct mb_trace t;

		for (size_t i = 0; i < sizeof(generator_opts) / sizeof(*generator_opts); i++)
			if (mb_run_opt_given(run, generator_opts[i]))
				return mb_run_usage(run, "--%s: generates a trace, so it cannot go with --keys_file %s",
						    generator_opts[i], a->keys_file);
		/* Read it all now, so that a bad file is a usage error before anything runs. */
		if (load_file(a->keys_file, &t, err, sizeof(err)))
			return mb_run_usage(run, "--keys_file %s", err);
		nr_ops = t.n;
		mb_trace_free(&t);
	}
	for (int f = LRU_FLAGS_COMMON; f <= LRU_FLAGS_NO_COMMON; f++) {
		uint32_t flags = f == LRU_FLAGS_NO_COMMON ? BPF_F_NO_COMMON_LRU : 0;

		if ((a->map_flags == LRU_FLAGS_BOTH || a->map_flags == f) &&
		    !lru_map_entries(flags, a->lru_size, a->nr_tasks))
			return mb_run_usage(run, "--lru_size %u: the %s map would need more than 4294967295 entries",
					    a->lru_size, lru_flags_names[f]);
	}
	if (a->access == LRU_ACCESS_BPF && nr_ops * a->nr_tasks > DIST_MAX_OPS)
		return mb_run_usage(run, "--nr_tasks %u: with --access bpf, tasks x trace length must be at most %llu (it is %llu)",
				    a->nr_tasks, DIST_MAX_OPS,
				    (unsigned long long)(nr_ops * a->nr_tasks));
	return 0;
}

/* The perfect LRU's misses on one task's trace (every task replays the same pattern). */
static int replay_perfect(struct dist_state *st, uint32_t capacity)
{
	struct mb_lru_sim sim;
	uint64_t t0;
	int err = mb_lru_sim_init(&sim, capacity);

	if (err)
		return err;
	t0 = mb_now_ns();
	for (size_t i = 0; i < st->trace.n; i++)
		st->perfect_misses += !mb_lru_sim_access(&sim, st->trace.keys[i]);
	st->perfect_ns = mb_now_ns() - t0;
	mb_lru_sim_free(&sim);
	return 0;
}

/*
 * What the perfect LRU gets on the first @done accesses of the trace: a task cut short by a
 * signal is compared with the perfect LRU over the same accesses, never over the whole trace.
 */
static int replay_prefix(const struct dist_state *st, uint32_t capacity, size_t done,
			 uint64_t *misses, uint64_t *unique)
{
	struct mb_u64_index seen;
	struct mb_lru_sim sim;
	int err = mb_lru_sim_init(&sim, capacity);

	if (err)
		return err;
	err = mb_u64_index_init(&seen, st->trace.unique, false);
	if (err) {
		mb_lru_sim_free(&sim);
		return err;
	}
	*misses = *unique = 0;
	for (size_t i = 0; i < done && i < st->trace.n; i++) {
		*misses += !mb_lru_sim_access(&sim, st->trace.keys[i]);
		*unique += mb_u64_index_put(&seen, st->trace.keys[i], 0) == 1;
	}
	mb_u64_index_free(&seen);
	mb_lru_sim_free(&sim);
	return 0;
}

static void dist_teardown(struct mb_run *run)
{
	struct dist_state *st = run->priv;

	if (!st)
		return;
	mb_trace_free(&st->trace);
	free(st->ops);
	free(st->tasks);
	free(st);
	run->priv = NULL;
}

static int dist_setup(struct mb_run *run)
{
	const struct dist_args *a = run->args;
	struct dist_state *st;
	char why[512];
	int err;

	err = lru_setup_begin(run, a->access, sizeof(*st));
	if (err)
		return err;
	st = run->priv;
	if (a->keys_file)
		err = load_file(a->keys_file, &st->trace, why, sizeof(why));
	else
		err = mb_trace_generate(&st->trace, &a->dist, a->nr_keys, a->key_range, a->seed);
	if (err)
		return mb_run_fail(run, err, "cannot build the trace: %s",
				   a->keys_file ? why : strerror(-err));
	err = mb_trace_for_tasks(&st->trace, a->nr_tasks, MB_LRU_KEY_MASK);
	if (err)
		return mb_run_fail(run, err, "%zu unique keys x %u tasks do not fit in 62-bit keys",
				   st->trace.unique, a->nr_tasks);
	err = replay_perfect(st, a->lru_size);
	if (err)
		return mb_run_fail(run, err, "perfect LRU of %u entries: %s", a->lru_size,
				   strerror(-err));
	st->nr_tasks = (int)a->nr_tasks;
	st->ops = malloc((size_t)st->nr_tasks * st->trace.n * sizeof(*st->ops));
	st->tasks = calloc((size_t)st->nr_tasks, sizeof(*st->tasks));
	if (!st->ops || !st->tasks)
		return mb_run_fail(run, -ENOMEM, "out of memory for %d copies of the trace",
				   st->nr_tasks);
	for (int t = 0; t < st->nr_tasks; t++) {
		uint64_t *ops = st->ops + (size_t)t * st->trace.n;

		/* A cache access is MB_LRU_OP_ACCESS (0): the encoded operation is the key. */
		for (size_t i = 0; i < st->trace.n; i++)
			ops[i] = MB_LRU_ENCODE(MB_LRU_OP_ACCESS,
					       st->trace.keys[i] + (uint64_t)t * st->trace.stride);
		st->tasks[t] = (struct lru_task){ .idx = t, .cpu = lru_task_cpu(run, t),
						  .ops = ops, .nr_ops = st->trace.n };
	}
	st->nr_variants = lru_variants(a->map_type, a->map_flags, st->variants);
	return 0;
}

/* ---- report ---- */

static void set_ratio(struct mb_json *o, const char *key, double num, uint64_t den)
{
	mb_json_set(o, key, den ? mb_json_number(num / (double)den) : mb_json_null());
}

static void counts_json(struct mb_json *o, const struct lru_dist_total *c)
{
	int64_t extra = (int64_t)c->bpf_misses - (int64_t)c->perfect_misses;

	mb_json_set_num(o, "accesses", (double)c->accesses);
	mb_json_set_num(o, "unique_keys", (double)c->unique);
	mb_json_set_num(o, "bpf_misses", (double)c->bpf_misses);
	mb_json_set_num(o, "bpf_hits", (double)(c->accesses - c->bpf_misses));
	mb_json_set_num(o, "perfect_misses", (double)c->perfect_misses);
	mb_json_set_num(o, "perfect_hits", (double)(c->accesses - c->perfect_misses));
	set_ratio(o, "bpf_miss_ratio", (double)c->bpf_misses, c->accesses);
	set_ratio(o, "perfect_miss_ratio", (double)c->perfect_misses, c->accesses);
	mb_json_set_num(o, "extra_misses", (double)extra);
	set_ratio(o, "extra_miss_ratio", (double)extra, c->accesses);
	set_ratio(o, "extra_misses_relative", (double)extra, c->perfect_misses);
	mb_json_set_num(o, "insert_failures", (double)c->insert_failures);
	mb_json_set_num(o, "resident_keys", (double)c->resident);
	mb_json_set_num(o, "syscalls", (double)c->syscalls);
	set_ratio(o, "ns_per_access", (double)c->wall_ns, c->accesses);
	if (c->kernel_ns)
		set_ratio(o, "kernel_ns_per_access", (double)c->kernel_ns, c->accesses);
	else
		mb_json_set(o, "kernel_ns_per_access", mb_json_null());
}

static void total_add(struct lru_dist_total *sum, const struct lru_dist_total *c)
{
	sum->accesses += c->accesses;
	sum->unique += c->unique;
	sum->bpf_misses += c->bpf_misses;
	sum->perfect_misses += c->perfect_misses;
	sum->insert_failures += c->insert_failures;
	sum->resident += c->resident;
	sum->syscalls += c->syscalls;
	sum->wall_ns += c->wall_ns;
	sum->kernel_ns += c->kernel_ns;
}

/* Task @t's counts: over its whole trace, or over the accesses it replayed before a signal. */
static int task_counts(struct mb_run *run, int t, uint64_t resident, struct lru_dist_total *c)
{
	const struct dist_args *a = run->args;
	struct dist_state *st = run->priv;
	const struct lru_task *task = &st->tasks[t];
	int err;

	*c = (struct lru_dist_total){
		.accesses = task->done,
		.unique = st->trace.unique,
		.bpf_misses = task->misses,
		.perfect_misses = st->perfect_misses,
		.insert_failures = task->insert_failures,
		.resident = resident,
		.syscalls = task->syscalls,
		.wall_ns = task->wall_ns,
		.kernel_ns = task->kernel_ns,
	};
	if (task->done >= st->trace.n)
		return 0;
	err = replay_prefix(st, a->lru_size, task->done, &c->perfect_misses, &c->unique);
	if (err)
		return mb_run_fail(run, err, "perfect LRU of %u entries: %s", a->lru_size,
				   strerror(-err));
	return 0;
}

/* Whether any task replayed an access: a signal before the first leaves nothing to report. */
static bool replayed(const struct dist_state *st)
{
	for (int t = 0; t < st->nr_tasks; t++)
		if (st->tasks[t].done)
			return true;
	return false;
}

/* Each task's figures into @tasks and @d, and their sum into d->total. */
static int tasks_report(struct mb_run *run, const struct lru_variant *v, const uint64_t *resident,
			struct lru_dist_found *d, struct mb_json *tasks)
{
	struct dist_state *st = run->priv;

	for (int t = 0; t < st->nr_tasks; t++) {
		const struct lru_task *task = &st->tasks[t];
		struct lru_dist_total c;
		struct mb_json *to;
		int err = task_counts(run, t, resident[t], &c);

		if (err)
			return err;
		if (task->hits + task->misses != task->done)
			mb_run_warn(run, "task %d: %" PRIu64 " hits + %" PRIu64 " misses for %zu accesses",
				    t, task->hits, task->misses, task->done);
		if (task->insert_failures)
			mb_run_warn(run, "%s %s: task %d: %" PRIu64 " inserts refused (%s): the LRU found no element to reuse",
				    lru_type_name(v->type), lru_flags_label(v->flags), t,
				    task->insert_failures,
				    task->insert_errno ? strerror(task->insert_errno) : "in BPF");
		to = mb_json_object();
		mb_json_set_num(to, "task", t);
		mb_json_set_num(to, "cpu", task->cpu);
		counts_json(to, &c);
		mb_json_append(tasks, to);
		total_add(&d->total, &c);
		d->task[t] = c;
		d->cpu[t] = task->cpu;
		d->interrupted |= task->done < st->trace.n;
	}
	return 0;
}

/*
 * One map configuration: create, replay every task, count what stayed, report. A signal
 * during the replay ends it early: the variant is reported over the accesses replayed, marked
 * interrupted.
 */
static int run_variant(struct mb_run *run, int vi, struct mb_json *variants)
{
	const struct dist_args *a = run->args;
	struct dist_state *st = run->priv;
	const struct lru_variant *v = &st->variants[vi];
	uint32_t max_entries = lru_map_entries(v->flags, a->lru_size, a->nr_tasks);
	uint64_t resident[LRU_MAX_TASKS], total_resident;
	struct lru_dist_found *d = &st->found[vi];
	struct mb_json *o, *tasks;
	struct lru_map m;
	char flags[32];
	int err;

	err = lru_map_create(run, &m, v, max_entries, a->access,
			     (size_t)st->nr_tasks * st->trace.n);
	if (err)
		return err;
	err = lru_run_tasks(run, &m, st->tasks, st->nr_tasks);
	if (!err) {
		err = lru_map_count(&m, st->trace.stride, st->nr_tasks, &total_resident, resident);
		if (err)
			mb_run_fail(run, err, "cannot walk the map: %s", strerror(-err));
	}
	if (!err)
		lru_report_memory(run, &m);
	lru_map_destroy(&m);
	if (err || !replayed(st))
		return err;

	o = mb_json_object();
	mb_json_set_str(o, "map_type", lru_type_name(v->type));
	mb_map_flags_format(v->flags, flags, sizeof(flags));
	mb_json_set_str(o, "map_flags", flags);
	mb_json_set_str(o, "lru", lru_flags_label(v->flags));
	mb_json_set_num(o, "max_entries", max_entries);
	mb_json_set_num(o, "capacity_per_task", a->lru_size);
	tasks = mb_json_array();
	err = tasks_report(run, v, resident, d, tasks);
	mb_json_set(o, "tasks", tasks);
	mb_json_set_bool(o, "interrupted", d->interrupted);
	/* Keys of no task would be a bug; the walk counts every key the map holds. */
	d->total.resident = total_resident;
	counts_json(mb_json_child(o, "total"), &d->total);
	mb_json_append(variants, o);
	if (err)
		return err;
	d->v = *v;
	d->max_entries = max_entries;
	d->nr_tasks = st->nr_tasks;
	return 0;
}

static void trace_json(struct mb_run *run, const struct dist_state *st)
{
	const struct dist_args *a = run->args;
	struct mb_json *o = mb_json_child(mb_run_extra(run), "trace");
	char buf[64];

	mb_json_set_str(o, "source", a->keys_file ? "file" : "generated");
	mb_json_set_str(o, "path", a->keys_file);
	if (a->keys_file) {
		mb_json_set(o, "dist", mb_json_null());
		mb_json_set(o, "seed", mb_json_null());
		mb_json_set(o, "key_range", mb_json_null());
	} else {
		mb_key_dist_format(&a->dist, buf, sizeof(buf));
		mb_json_set_str(o, "dist", buf);
		mb_json_set_num(o, "seed", (double)a->seed);
		mb_json_set_num(o, "key_range", (double)a->key_range);
	}
	mb_json_set_num(o, "accesses", (double)st->trace.n);
	mb_json_set_num(o, "unique_keys", (double)st->trace.unique);
	mb_json_set_str(o, "key_mapping", st->trace.dense ? "dense" : "offset");
	mb_json_set_num(o, "key_stride", (double)st->trace.stride);
}

static int dist_run_once(struct mb_run *run)
{
	const struct dist_args *a = run->args;
	struct dist_state *st = run->priv;
	struct mb_json *extra = lru_extra(run, a->access), *perfect;

	mb_json_set_num(extra, "lru_size", a->lru_size);
	mb_json_set_num(extra, "nr_tasks", a->nr_tasks);
	trace_json(run, st);
	perfect = mb_json_child(extra, "perfect");
	mb_json_set_num(perfect, "capacity", a->lru_size);
	mb_json_set_num(perfect, "misses_per_task", (double)st->perfect_misses);
	mb_json_set_num(perfect, "miss_ratio", lru_ratio(st->perfect_misses, st->trace.n));
	mb_json_set_num(perfect, "ns_per_access", lru_ratio(st->perfect_ns, st->trace.n));
	return lru_run_variants(run, a->access, st->variants, st->nr_variants, st->found,
				run_variant);
}

const struct mb_bench mb_bench_lru_dist = LRU_BENCH("lru-dist", dist, "LRU quality: BPF LRU hash misses against a perfect LRU on a key trace (test_lru_dist)");
