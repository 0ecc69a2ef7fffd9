// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * count-global, count-local: user-space counters, the ceiling of the harness. count-global
 * increments one shared counter (cache-line contention between producers); count-local gives
 * each producer its own cache line, so it should scale with the CPUs.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/bench.h"
#include "harness.h"

/* Increments between two checks of the stop flag. */
#define COUNT_BATCH 256

struct count_line {
	uint64_t value;
} __attribute__((aligned(128)));

struct count_state {
	struct count_line global;
	struct count_line local[MB_MAX_PRODUCERS];
	uint64_t last_global;
	uint64_t last_local[MB_MAX_PRODUCERS];
};

static int count_setup(struct mb_run *run)
{
	struct count_state *st = aligned_alloc(128, sizeof(*st));

	if (!st)
		return -ENOMEM;
	*st = (struct count_state){};
	run->priv = st;
	run->runner = "user";
	return 0;
}

static void count_teardown(struct mb_run *run)
{
	free(run->priv);
	run->priv = NULL;
}

static int count_global_producer(struct mb_run *run, struct mb_producer *p)
{
	struct count_state *st = run->priv;

	(void)p;
	while (!mb_run_should_stop(run))
		for (int i = 0; i < COUNT_BATCH; i++)
			__atomic_add_fetch(&st->global.value, 1, __ATOMIC_RELAXED);
	return 0;
}

static int count_local_producer(struct mb_run *run, struct mb_producer *p)
{
	struct count_state *st = run->priv;
	uint64_t *v = &st->local[p->idx].value;

	while (!mb_run_should_stop(run))
		for (int i = 0; i < COUNT_BATCH; i++)
			__atomic_add_fetch(v, 1, __ATOMIC_RELAXED);
	return 0;
}

static void count_global_measure(struct mb_run *run, struct mb_sample *s)
{
	struct count_state *st = run->priv;
	uint64_t now = __atomic_load_n(&st->global.value, __ATOMIC_RELAXED);

	/* One shared counter: there is no per-producer count. */
	s->total.ops = s->total.hits = now - st->last_global;
	st->last_global = now;
}

static void count_local_measure(struct mb_run *run, struct mb_sample *s)
{
	struct count_state *st = run->priv;

	s->total.ops = 0;
	for (int i = 0; i < run->nr_producers; i++) {
		uint64_t now = __atomic_load_n(&st->local[i].value, __ATOMIC_RELAXED);

		s->prod[i].ops = s->prod[i].hits = now - st->last_local[i];
		s->total.ops += s->prod[i].ops;
		st->last_local[i] = now;
	}
	s->total.hits = s->total.ops;
}

const struct mb_bench mb_bench_count_global = {
	.name = "count-global",
	.family = "harness",
	.desc = "user-space increments of one shared counter (harness ceiling, cache-line contention)",
	.text = &harness_text_hits,
	.setup = count_setup,
	.producer = count_global_producer,
	.measure = count_global_measure,
	.teardown = count_teardown,
};

const struct mb_bench mb_bench_count_local = {
	.name = "count-local",
	.family = "harness",
	.desc = "user-space increments of a per-producer counter (harness ceiling, scales with CPUs)",
	.text = &harness_text_hits,
	.setup = count_setup,
	.producer = count_local_producer,
	.measure = count_local_measure,
	.teardown = count_teardown,
};
