// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * lru-loss: samples/bpf/test_lru_dist's loss tests, each also replayed into a perfect LRU of
 * the same capacity:
 * - loss0: keys 1..1000 go into 900 entries while keys 101..900 are kept hot by lookups;
 *   count the losses among the older (1..100), active (101..900) and newer (901..1000) keys.
 *   A perfect LRU loses exactly the 100 older keys.
 * - loss1: keys 1..1000 go into 1000 entries; a perfect LRU loses none.
 * - parallel: each task inserts 1000 stable keys, then does --nr_repeats operations, 90 %
 *   lookups of a random stable key and 10 % inserts of new keys, into a map with 200 entries
 *   of slack per task; count the stable keys lost.
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
#include "util/log.h"
#include "lru_sim.h"
#include "lru_text.h"
#include "maps/maps.h"
#include "core/runner.h"

#define LOSS0_ENTRIES		900
#define LOSS0_KEYS		1000
#define LOSS0_HOT_FIRST		101
#define LOSS0_HOT_LAST		900
#define LOSS1_ENTRIES		1000
#define PAR_STABLE		LRU_LOSS_PAR_STABLE
#define PAR_SLACK		200	/* "20 % more than the active working set" */

struct loss_args {
	uint32_t nr_tasks;
	uint32_t nr_repeats;
	uint64_t seed;
	int map_type;
	int map_flags;
	int access;
};

static const struct mb_opt loss_opts[] = {
	MB_OPT_U32_DEF("nr_tasks", struct loss_args, nr_tasks, "0", 0, LRU_MAX_TASKS, "N",
		       "parallel: tasks, one per CPU (0: one per online CPU, or per CPU of --prod-affinity)"),
	MB_OPT_U32_DEF("nr_repeats", struct loss_args, nr_repeats, "100000", 1000, 10000000, "N",
		       "parallel: operations per task after the stable keys are in"),
	MB_OPT_SEED(struct loss_args, seed, "the operation mix (parallel)"),
	LRU_VARIANT_OPTS(struct loss_args),
	MB_OPT_END,
};

struct loss_state {
	int nr_tasks;
	struct lru_variant variants[2];
	struct lru_loss_found found[2];	/* for the text lines */
	int nr_variants;
};

static int loss_tasks(const struct mb_run *run)
{
	const struct loss_args *a = run->args;

	return a->nr_tasks ? (int)a->nr_tasks : lru_max_tasks(run);
}

static int loss_validate(struct mb_run *run)
{
	const struct loss_args *a = run->args;
	uint32_t nr = (uint32_t)loss_tasks(run);

	if (a->nr_tasks) {
		int err = lru_validate_tasks(run, "nr_tasks", a->nr_tasks);

		if (err)
			return err;
	}
	if (!lru_map_entries(BPF_F_NO_COMMON_LRU, PAR_STABLE + PAR_SLACK, nr) ||
	    !lru_map_entries(0, PAR_STABLE + PAR_SLACK, nr))
		return mb_run_usage(run, "--nr_tasks %u: the parallel map would need more than 4294967295 entries",
				    nr);
	return 0;
}

static int loss_setup(struct mb_run *run)
{
	const struct loss_args *a = run->args;
	struct loss_state *st;
	int err = lru_setup_begin(run, a->access, sizeof(*st));

	if (err)
		return err;
	st = run->priv;
	st->nr_tasks = loss_tasks(run);
	st->nr_variants = lru_variants(a->map_type, a->map_flags, st->variants);
	return 0;
}

static void loss_teardown(struct mb_run *run)
{
	free(run->priv);
	run->priv = NULL;
}

/* Replay @ops into a perfect LRU of @capacity, left filled in @sim for membership checks. */
static int perfect_replay(struct mb_lru_sim *sim, uint32_t capacity, const uint64_t *ops,
			  size_t n)
{
	int err = mb_lru_sim_init(sim, capacity);

	if (err)
		return err;
	for (size_t i = 0; i < n; i++) {
		uint64_t key = ops[i] & MB_LRU_KEY_MASK;

		switch (ops[i] >> MB_LRU_OP_SHIFT) {
		case MB_LRU_OP_LOOKUP:
			mb_lru_sim_lookup(sim, key);
			break;
		case MB_LRU_OP_INSERT:
			mb_lru_sim_insert(sim, key, NULL);
			break;
		default:
			mb_lru_sim_access(sim, key);
			break;
		}
	}
	return 0;
}

/* Append an operation to a growing array. */
struct ops_buf {
	uint64_t *v;
	size_t n, cap;
};

static int ops_push(struct ops_buf *b, enum mb_lru_op op, uint64_t key)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		uint64_t *v = realloc(b->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = MB_LRU_ENCODE(op, key);
	return 0;
}

static void task_json(struct mb_json *o, const struct lru_task *t)
{
	mb_json_set_num(o, "operations", (double)t->done);
	mb_json_set_num(o, "lookup_hits", (double)t->hits);
	mb_json_set_num(o, "lookup_misses", (double)t->misses);
	mb_json_set_num(o, "insert_failures", (double)t->insert_failures);
	mb_json_set_num(o, "syscalls", (double)t->syscalls);
	mb_json_set(o, "ns_per_op", t->done ? mb_json_number((double)t->wall_ns / (double)t->done) :
					       mb_json_null());
	mb_json_set(o, "kernel_ns_per_op",
		    t->kernel_ns && t->done ? mb_json_number((double)t->kernel_ns / (double)t->done) :
					      mb_json_null());
}

static void warn_failures(struct mb_run *run, const struct lru_variant *v, const char *test,
			  const struct lru_task *t)
{
	if (t->insert_failures)
		mb_run_warn(run, "%s %s: %s: task %d: %" PRIu64 " inserts refused (%s): the LRU found no element to reuse",
			    lru_type_name(v->type), lru_flags_label(v->flags), test, t->idx,
			    t->insert_failures,
			    t->insert_errno ? strerror(t->insert_errno) : "in BPF");
}

/*
 * Run one task's @ops into a fresh map of @entries, then check which of keys @first..@last
 * are still in it (into @lost[key - first], 1 if lost) and in the perfect LRU (@plost).
 */
static int single_task(struct mb_run *run, const struct lru_variant *v, uint32_t entries,
		       uint32_t perfect_cap, struct ops_buf *ops, uint64_t first, uint64_t last,
		       bool *lost, bool *plost, struct lru_task *task)
{
	const struct loss_args *a = run->args;
	struct mb_lru_sim sim;
	struct lru_map m;
	int err;

	*task = (struct lru_task){ .idx = 0, .cpu = lru_task_cpu(run, 0), .ops = ops->v,
				   .nr_ops = ops->n };
	err = lru_map_create(run, &m, v, entries, a->access, ops->n);
	if (err)
		return err;
	err = lru_run_tasks(run, &m, task, 1);
	for (uint64_t k = first; !err && !mb_interrupted() && k <= last; k++) {
		int has = lru_map_has(&m, k);

		if (has < 0)
			err = mb_run_fail(run, has, "lookup of key %" PRIu64 ": %s", k,
					  strerror(-has));
		lost[k - first] = has == 0;
	}
	lru_map_destroy(&m);
	if (err || mb_interrupted())
		return err;
	err = perfect_replay(&sim, perfect_cap, ops->v, ops->n);
	if (err)
		return mb_run_fail(run, err, "perfect LRU: %s", strerror(-err));
	for (uint64_t k = first; k <= last; k++)
		plost[k - first] = !mb_lru_sim_contains(&sim, k);
	mb_lru_sim_free(&sim);
	return 0;
}

static uint32_t entries_for(const struct lru_variant *v, uint32_t per_cpu)
{
	return lru_map_entries(v->flags, per_cpu, 1);
}

/*
 * The single-task tests: @ops (@err: the error of building them) into a map of @cap entries
 * per CPU and a perfect LRU of @cap, then keys 1..@last checked; the operations are freed.
 */
static int single_ops(struct mb_run *run, const struct lru_variant *v, uint32_t cap,
		      struct ops_buf *ops, int err, uint64_t last, bool *lost, bool *plost,
		      struct lru_task *task)
{
	if (err)
		err = mb_run_fail(run, err, "out of memory");
	else
		err = single_task(run, v, entries_for(v, cap), cap, ops, 1, last, lost, plost,
				  task);
	free(ops->v);
	return err;
}

static int test_loss0(struct mb_run *run, const struct lru_variant *v, struct lru_loss_found *r,
		      struct mb_json *out)
{
	bool lost[LOSS0_KEYS], plost[LOSS0_KEYS];
	struct ops_buf ops = {};
	struct lru_task task;
	struct mb_json *p;
	int err = 0;

	for (uint64_t key = 1; key <= LOSS0_KEYS && !err; key++) {
		uint64_t last = key < LOSS0_HOT_LAST ? key : LOSS0_HOT_LAST;

		err = ops_push(&ops, MB_LRU_OP_INSERT, key);
		for (uint64_t hot = LOSS0_HOT_FIRST; hot <= last && !err; hot++)
			err = ops_push(&ops, MB_LRU_OP_LOOKUP, hot);
	}
	err = single_ops(run, v, LOSS0_ENTRIES, &ops, err, LOSS0_KEYS, lost, plost, &task);
	if (err || mb_interrupted())
		return err;
	for (int i = 0; i < 2; i++) {
		const bool *l = i ? plost : lost;

		r->older[i] = r->active[i] = r->newer[i] = 0;
		for (uint64_t key = 1; key <= LOSS0_KEYS; key++) {
			if (!l[key - 1])
				continue;
			if (key < LOSS0_HOT_FIRST)
				r->older[i]++;
			else if (key <= LOSS0_HOT_LAST)
				r->active[i]++;
			else
				r->newer[i]++;
		}
	}
	warn_failures(run, v, "loss0", &task);
	mb_json_set_num(out, "max_entries", entries_for(v, LOSS0_ENTRIES));
	mb_json_set_num(out, "capacity", LOSS0_ENTRIES);
	mb_json_set_num(out, "older_losses", r->older[0]);
	mb_json_set_num(out, "older_keys", LOSS0_HOT_FIRST - 1);
	mb_json_set_num(out, "active_losses", r->active[0]);
	mb_json_set_num(out, "active_keys", LOSS0_HOT_LAST - LOSS0_HOT_FIRST + 1);
	mb_json_set_num(out, "newer_losses", r->newer[0]);
	mb_json_set_num(out, "newer_keys", LOSS0_KEYS - LOSS0_HOT_LAST);
	p = mb_json_child(out, "perfect");
	mb_json_set_num(p, "older_losses", r->older[1]);
	mb_json_set_num(p, "active_losses", r->active[1]);
	mb_json_set_num(p, "newer_losses", r->newer[1]);
	task_json(out, &task);
	return 0;
}

static int test_loss1(struct mb_run *run, const struct lru_variant *v, struct lru_loss_found *r,
		      struct mb_json *out)
{
	bool lost[LOSS1_ENTRIES], plost[LOSS1_ENTRIES];
	struct ops_buf ops = {};
	struct lru_task task;
	int err = 0;

	for (uint64_t key = 1; key <= LOSS1_ENTRIES && !err; key++)
		err = ops_push(&ops, MB_LRU_OP_INSERT, key);
	err = single_ops(run, v, LOSS1_ENTRIES, &ops, err, LOSS1_ENTRIES, lost, plost, &task);
	if (err || mb_interrupted())
		return err;
	r->loss1[0] = r->loss1[1] = 0;
	for (int i = 0; i < LOSS1_ENTRIES; i++) {
		r->loss1[0] += lost[i];
		r->loss1[1] += plost[i];
	}
	warn_failures(run, v, "loss1", &task);
	mb_json_set_num(out, "max_entries", entries_for(v, LOSS1_ENTRIES));
	mb_json_set_num(out, "capacity", LOSS1_ENTRIES);
	mb_json_set_num(out, "inserted", LOSS1_ENTRIES);
	mb_json_set_num(out, "losses", r->loss1[0]);
	mb_json_set_num(out, "perfect_losses", r->loss1[1]);
	task_json(out, &task);
	return 0;
}

/* Task @t's stable keys start here; new keys follow them, never reaching the next task's. */
static uint64_t par_base(const struct loss_args *a, int t)
{
	return (uint64_t)t * ((uint64_t)a->nr_repeats + PAR_STABLE) + 1;
}

static int par_ops(const struct loss_args *a, int t, struct ops_buf *ops)
{
	uint64_t base = par_base(a, t), next = base;
	struct mb_rng rng;
	int err = 0;

	/* Each task its own stream, the same for the same seed. */
	mb_rng_seed(&rng, a->seed + (uint64_t)t);
	for (int i = 0; i < PAR_STABLE && !err; i++)
		err = ops_push(ops, MB_LRU_OP_INSERT, next++);
	for (uint32_t i = 0; i < a->nr_repeats && !err; i++) {
		/*
		 * Two independent draws: test_lru_dist derives both from one rand(), so the
		 * stable keys whose index is a multiple of 10 are never looked up there.
		 */
		uint64_t stable = base + mb_rng_below(&rng, PAR_STABLE);

		if (mb_rng_below(&rng, 10))
			err = ops_push(ops, MB_LRU_OP_LOOKUP, stable);
		else
			err = ops_push(ops, MB_LRU_OP_INSERT, next++);
	}
	return err;
}

/* Replay every task's @ops into the map and count the stable keys each task lost. */
static int par_bpf(struct mb_run *run, const struct lru_variant *v, struct lru_loss_found *r,
		   uint32_t entries, struct ops_buf *ops, struct lru_task *tasks)
{
	const struct loss_args *a = run->args;
	struct loss_state *st = run->priv;
	int nr = st->nr_tasks, err;
	size_t total = 0;
	struct lru_map m;

	for (int t = 0; t < nr; t++)
		total += ops[t].n;
	err = lru_map_create(run, &m, v, entries, a->access, total);
	if (err)
		return err;
	err = lru_run_tasks(run, &m, tasks, nr);
	for (int t = 0; t < nr && !err && !mb_interrupted(); t++) {
		for (uint64_t k = par_base(a, t); k < par_base(a, t) + PAR_STABLE && !err; k++) {
			int has = lru_map_has(&m, k);

			if (has < 0)
				err = mb_run_fail(run, has, "lookup of key %" PRIu64 ": %s", k,
						  strerror(-has));
			r->lost[t] += has == 0;
		}
	}
	lru_map_destroy(&m);
	return err;
}

/* The same operations into a perfect LRU per task; each task's figures into @jt. */
static int par_perfect(struct mb_run *run, const struct lru_variant *v, struct lru_loss_found *r,
		       struct ops_buf *ops, const struct lru_task *tasks, struct mb_json *jt)
{
	const struct loss_args *a = run->args;
	struct loss_state *st = run->priv;

	for (int t = 0; t < st->nr_tasks; t++) {
		struct mb_json *o;
		struct mb_lru_sim sim;
		uint64_t base = par_base(a, t);
		int err = perfect_replay(&sim, PAR_STABLE + PAR_SLACK, ops[t].v, ops[t].n);

		if (err)
			return mb_run_fail(run, err, "perfect LRU: %s", strerror(-err));
		for (uint64_t k = base; k < base + PAR_STABLE; k++)
			r->plost[t] += !mb_lru_sim_contains(&sim, k);
		mb_lru_sim_free(&sim);
		r->par[0] += r->lost[t];
		r->par[1] += r->plost[t];
		warn_failures(run, v, "parallel", &tasks[t]);
		o = mb_json_object();
		mb_json_set_num(o, "task", t);
		mb_json_set_num(o, "cpu", tasks[t].cpu);
		mb_json_set_num(o, "losses", r->lost[t]);
		mb_json_set_num(o, "perfect_losses", r->plost[t]);
		task_json(o, &tasks[t]);
		mb_json_append(jt, o);
		r->par_tasks = t + 1;
	}
	return 0;
}

static int test_parallel(struct mb_run *run, const struct lru_variant *v, struct lru_loss_found *r,
			 struct mb_json *out)
{
	const struct loss_args *a = run->args;
	struct loss_state *st = run->priv;
	int nr = st->nr_tasks, err = 0;
	uint32_t entries = lru_map_entries(v->flags, PAR_STABLE + PAR_SLACK, (uint32_t)nr);
	struct ops_buf *ops = calloc((size_t)nr, sizeof(*ops));
	struct lru_task *tasks = calloc((size_t)nr, sizeof(*tasks));
	struct mb_json *jt;

	if (!ops || !tasks) {
		err = mb_run_fail(run, -ENOMEM, "out of memory");
		goto out;
	}
	for (int t = 0; t < nr && !err; t++) {
		err = par_ops(a, t, &ops[t]);
		tasks[t] = (struct lru_task){ .idx = t, .cpu = lru_task_cpu(run, t),
					      .ops = ops[t].v, .nr_ops = ops[t].n };
	}
	if (err) {
		err = mb_run_fail(run, err, "out of memory");
		goto out;
	}
	err = par_bpf(run, v, r, entries, ops, tasks);
	if (err || mb_interrupted())
		goto out;
	r->par[0] = r->par[1] = 0;
	mb_json_set_num(out, "max_entries", entries);
	mb_json_set_num(out, "capacity_per_task", PAR_STABLE + PAR_SLACK);
	mb_json_set_num(out, "stable_keys", PAR_STABLE);
	mb_json_set_num(out, "operations_per_task", PAR_STABLE + a->nr_repeats);
	r->par_checked = true;
	jt = mb_json_array();
	err = par_perfect(run, v, r, ops, tasks, jt);
	mb_json_set(out, "tasks", jt);
	mb_json_set_num(out, "losses", (double)r->par[0]);
	mb_json_set_num(out, "perfect_losses", (double)r->par[1]);
out:
	for (int t = 0; ops && t < nr; t++)
		free(ops[t].v);
	free(ops);
	free(tasks);
	return err;
}

static int run_variant(struct mb_run *run, int vi, struct mb_json *variants)
{
	/* A test a signal cut short, or never started: null. */
	static const char *const tests[] = { "loss0", "loss1", "parallel" };
	struct loss_state *st = run->priv;
	const struct lru_variant *v = &st->variants[vi];
	struct lru_loss_found *r = &st->found[vi];
	struct mb_json *o = mb_json_object();
	char flags[32];
	int err;

	r->v = *v;
	mb_json_set_str(o, "map_type", lru_type_name(v->type));
	mb_map_flags_format(v->flags, flags, sizeof(flags));
	mb_json_set_str(o, "map_flags", flags);
	mb_json_set_str(o, "lru", lru_flags_label(v->flags));
	err = test_loss0(run, v, r, mb_json_child(o, "loss0"));
	r->loss0_done = !err && !mb_interrupted();
	if (r->loss0_done)
		err = test_loss1(run, v, r, mb_json_child(o, "loss1"));
	r->loss1_done = r->loss0_done && !err && !mb_interrupted();
	if (r->loss1_done)
		err = test_parallel(run, v, r, mb_json_child(o, "parallel"));
	/* A signal: the tests that ended are reported, the one it cut short is not. */
	if (err || (mb_interrupted() && !r->loss0_done)) {
		mb_json_free(o);
		return err;
	}
	r->done = !mb_interrupted();
	for (size_t i = 0; !r->done && i < sizeof(tests) / sizeof(*tests); i++)
		if (!mb_json_len(mb_json_get(o, tests[i])))
			mb_json_set(o, tests[i], mb_json_null());
	mb_json_set_bool(o, "interrupted", !r->done);
	mb_json_append(variants, o);
	return 0;
}

static int loss_run_once(struct mb_run *run)
{
	const struct loss_args *a = run->args;
	struct loss_state *st = run->priv;
	struct mb_json *extra = lru_extra(run, a->access);

	mb_json_set_num(extra, "nr_tasks", st->nr_tasks);
	return lru_run_variants(run, a->access, st->variants, st->nr_variants, st->found,
				run_variant);
}

const struct mb_bench mb_bench_lru_loss = LRU_BENCH("lru-loss", loss, "LRU quality: test_lru_dist's loss tests (loss0, loss1, parallel) against a perfect LRU");
