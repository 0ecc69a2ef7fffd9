// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/json.h"
#include "util/log.h"
#include "sys/probe.h"
#include "latency.h"
#include "run.h"
#include "run_parts.h"
#include "runner.h"
#include "sink.h"
#include "summary.h"
#include "threads.h"

/* ---- set-up of a run ---- */

int mb_run_init(struct mb_run *run, const struct mb_bench *bench, const struct mb_env *env)
{
	char msg[512];

	memset(run, 0, sizeof(*run));
	run->bench = bench;
	run->env = env;
	run->runner = "user";
	run->loop_overhead_ns = NAN;
	run->args = calloc(1, bench->args_size ? bench->args_size : 1);
	run->extra = mb_json_object();
	run->warnings = mb_json_array();
	if (!run->args || !run->extra || !run->warnings)
		return -ENOMEM;
	if (mb_opts_set_defaults(bench->opts, run->args, msg, sizeof(msg))) {
		/* A bad default is a bug in the bench table; the unit tests catch it. */
		mb_err("%s: bad default: %s", bench->name, msg);
		return -EINVAL;
	}
	return 0;
}

void mb_run_free(struct mb_run *run)
{
	mb_run_parts_free(run);
	mb_run_free_results(run);
	free(run->prod);
	free(run->cons);
	free(run->args);
	memset(run, 0, sizeof(*run));
}

/* The @i-th CPU of @set, in order (-1 past its end). */
static int nth_cpu_of(const struct mb_cpuset *set, int i)
{
	int cpu = -1;

	for (int k = 0; k <= i; k++) {
		cpu = mb_cpuset_next(set, cpu + 1);
		if (cpu < 0)
			return -1;
	}
	return cpu;
}

/* The k-th online CPU, wrapping around, as the kernel bench does without a CPU set. */
static int nth_online_cpu(const struct mb_cpuset *online, int k)
{
	return nth_cpu_of(online, k % online->count);
}

static int check_cpus_online(struct mb_run *run, const char *opt, const struct mb_cpuset *set)
{
	const struct mb_cpuset *online = &run->env->online;
	char list[256];

	for (int cpu = mb_cpuset_next(set, 0); cpu >= 0; cpu = mb_cpuset_next(set, cpu + 1)) {
		if (!mb_cpuset_has(online, cpu)) {
			mb_cpuset_format(online, list, sizeof(list));
			return mb_run_usage(run, "--%s: CPU %d is not online (online CPUs: %s)",
					    opt, cpu, list);
		}
	}
	return 0;
}

static bool pinned(const struct mb_env *env)
{
	return env->affinity || env->prod_cpus.count || env->cons_cpus.count;
}

int mb_run_producer_cpu(const struct mb_env *env, int nr_consumers, int i)
{
	/* Consumers take CPUs first; producers continue after them unless given a set. */
	int next = env->cons_cpus.count ? 0 : nr_consumers;

	if (!pinned(env) || i < 0)
		return -1;
	if (!env->prod_cpus.count)
		return nth_online_cpu(&env->online, next + i);
	return nth_cpu_of(&env->prod_cpus, i);
}

static int consumer_cpu(const struct mb_env *env, int i)
{
	if (!pinned(env))
		return -1;
	if (!env->cons_cpus.count)
		return nth_online_cpu(&env->online, i);
	return nth_cpu_of(&env->cons_cpus, i);
}

/* The consumers a run has: -c, or for a bench with consumers the number it takes by default. */
static int nr_consumers(const struct mb_run *run)
{
	const struct mb_bench *b = run->bench;

	if (!(b->flags & MB_BENCH_CONSUMERS) || run->env->consumers_given)
		return (int)run->env->consumers;
	return b->default_consumers ? b->default_consumers(run) : 1;
}

static int assign_cpus(struct mb_run *run)
{
	const struct mb_env *env = run->env;
	int err;

	err = check_cpus_online(run, "prod-affinity", &env->prod_cpus);
	if (!err)
		err = check_cpus_online(run, "cons-affinity", &env->cons_cpus);
	if (err)
		return err;
	if (env->cons_cpus.count && env->cons_cpus.count < run->nr_consumers)
		return mb_run_usage(run, "--cons-affinity: %d CPUs given for %d consumers",
				    env->cons_cpus.count, run->nr_consumers);
	if (env->prod_cpus.count && env->prod_cpus.count < run->nr_producers)
		return mb_run_usage(run,
				    "--prod-affinity: %d CPUs given for %d producers (one CPU each)",
				    env->prod_cpus.count, run->nr_producers);
	for (int i = 0; i < run->nr_producers; i++)
		run->prod[i].cpu = mb_run_producer_cpu(env, run->nr_consumers, i);
	for (int i = 0; i < run->nr_consumers; i++)
		run->cons[i].cpu = consumer_cpu(env, i);
	return 0;
}

/* @n thread slots of @run, numbered (at least one, so that NULL means no memory). */
static struct mb_producer *alloc_slots(struct mb_run *run, int n)
{
	size_t len = sizeof(struct mb_producer) * (size_t)(n ? n : 1);
	struct mb_producer *slots = aligned_alloc(128, len);

	if (!slots)
		return NULL;
	memset(slots, 0, len);
	for (int i = 0; i < n; i++) {
		slots[i].run = run;
		slots[i].idx = i;
	}
	return slots;
}

/* --latency: the result says what was timed, or why nothing was (the timing driver fills it). */
static int latency_init(struct mb_run *run)
{
	struct mb_latency *lat;

	if (!run->env->latency)
		return 0;
	lat = run->latency = calloc(1, sizeof(*run->latency));
	if (!lat)
		return -ENOMEM;
	lat->fd = -1;
	snprintf(lat->why, sizeof(lat->why), "this bench does not run its ops through the in-kernel op loop's producer, the one place that times them yet");
	return 0;
}

int mb_run_validate(struct mb_run *run)
{
	const struct mb_bench *b = run->bench;
	const struct mb_env *env = run->env;
	int err;

	if (env->consumers && !(b->flags & MB_BENCH_CONSUMERS))
		return mb_run_usage(run, "-c/--consumers %u: this bench has no consumers (must be 0)",
				    env->consumers);
	/* Whether a bench with consumers can run with that many, its validate hook says. */
	run->nr_consumers = nr_consumers(run);
	if (env->net && (b->flags & MB_BENCH_EMPTY_OP))
		return mb_run_usage(run, "--net: this bench is the empty loop whose cost --net subtracts (its net figure is 0 by construction); run it without --net");
	if (env->latency && (b->flags & MB_BENCH_EMPTY_OP))
		return mb_run_usage(run, "--latency: this bench's op is empty, so a timed op would time the clock alone (timer_ns of any other bench's result); run it without --latency");
	if (env->latency && env->loop == MB_LOOP_BPF_LOOP)
		return mb_run_usage(run, "--latency: ops are timed in the may_goto loop only, and --loop bpf_loop forces the fallback (use --loop auto or may_goto)");
	if ((b->flags & MB_BENCH_SINGLE_PRODUCER) && env->producers > 1)
		return mb_run_usage(run, "-p/--producers %u: this bench needs a single producer (must be 1)",
				    env->producers);
	run->nr_producers = (int)env->producers;
	run->prod = alloc_slots(run, run->nr_producers);
	run->cons = alloc_slots(run, run->nr_consumers);
	if (!run->prod || !run->cons)
		return -ENOMEM;
	err = assign_cpus(run);
	if (err)
		return err;
	if (b->validate) {
		err = b->validate(run);
		if (err)
			return err;
	}
	run->params = mb_opts_to_json(b->opts, run->args);
	return run->params ? latency_init(run) : -ENOMEM;
}

/* ---- sampling ---- */

static int alloc_samples(struct mb_run *run)
{
	run->max_samples = (int)(run->env->warmup + run->env->duration);
	run->samples = calloc((size_t)run->max_samples, sizeof(*run->samples));
	if (!run->samples)
		return -ENOMEM;
	for (int i = 0; i < run->max_samples; i++) {
		run->samples[i].prod = calloc((size_t)run->nr_producers, sizeof(struct mb_counters));
		if (!run->samples[i].prod)
			return -ENOMEM;
		if (!run->nr_consumers)
			continue;
		run->samples[i].cons = calloc((size_t)run->nr_consumers,
					      sizeof(struct mb_counters));
		if (!run->samples[i].cons)
			return -ENOMEM;
	}
	return 0;
}

static void counters_sub(struct mb_counters *d, const struct mb_counters *a,
			 const struct mb_counters *b)
{
	const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;
	uint64_t *z = (uint64_t *)d;

	for (size_t i = 0; i < MB_COUNTERS_NR; i++)
		z[i] = x[i] - y[i];
}

static void counters_add(struct mb_counters *d, const struct mb_counters *a)
{
	const uint64_t *x = (const uint64_t *)a;
	uint64_t *z = (uint64_t *)d;

	for (size_t i = 0; i < MB_COUNTERS_NR; i++)
		z[i] += x[i];
}

/* What the sampler last read of one producer: cumulative counters, CPU time and waits. */
struct tally {
	struct mb_counters c;
	uint64_t cpu_ns;
	uint64_t wait_ns;	/* finished waits plus the part of a current one up to the read */
};

static void tally_read(const struct mb_producer *p, uint64_t now, struct tally *t)
{
	uint64_t since;

	t->cpu_ns = mb_thread_cpu_ns(p);
	mb_producer_read(p, &t->c, &since);
	/* A wait that began after @now belongs to the next sample. */
	t->wait_ns = t->c.wait_ns + (since && since < now ? now - since : 0);
}

/*
 * One producer's share of a sample: the deltas since the last read. @t0, the start of
 * sampling, is where a producer's first stamped span begins.
 */
static void tally_sample(const struct mb_producer *p, uint64_t now, uint64_t t0,
			 struct tally *last, struct mb_counters *d)
{
	struct tally t;

	tally_read(p, now, &t);
	if (t.c.end_ns && !last->c.end_ns)
		last->c.end_ns = t0;
	counters_sub(d, &t.c, &last->c);
	/* A thread that exited has no clock left: no CPU time for it. */
	d->cpu_ns = t.cpu_ns > last->cpu_ns ? t.cpu_ns - last->cpu_ns : 0;
	d->wait_ns = t.wait_ns > last->wait_ns ? t.wait_ns - last->wait_ns : 0;
	if (!t.cpu_ns)
		t.cpu_ns = last->cpu_ns;
	/* A finished wait can come out below what its running part was counted as. */
	if (t.wait_ns < last->wait_ns)
		t.wait_ns = last->wait_ns;
	*last = t;
}

/* Samples in which a producer that stamps its calls (@last: its final counters) ended none. */
static void warn_uncovered(struct mb_run *run, const struct tally *last)
{
	int samples = 0;

	for (int i = 0; i < run->nr_samples; i++) {
		bool none = false;

		for (int p = 0; p < run->nr_producers; p++)
			none |= last[p].c.end_ns && !run->samples[i].prod[p].end_ns;
		samples += none;
	}
	if (!samples)
		return;
	mb_run_warn(run, "%d of %d samples ended before a producer's call did: a call takes longer than --interval_ms %u, and such a sample counts no ops for that producer (raise --interval_ms or shorten the calls)",
		    samples, run->nr_samples, run->env->interval_ms);
}

/* Every thread's share of sample @s, read at @now: producers in total, consumers apart. */
static void tally_threads(struct mb_run *run, struct mb_sample *s, uint64_t now, uint64_t t0,
			  struct tally *last)
{
	memset(&s->total, 0, sizeof(s->total));
	for (int i = 0; i < run->nr_producers; i++) {
		tally_sample(&run->prod[i], now, t0, &last[i], &s->prod[i]);
		counters_add(&s->total, &s->prod[i]);
	}
	memset(&s->cons_total, 0, sizeof(s->cons_total));
	for (int i = 0; s->cons && i < run->nr_consumers; i++) {
		tally_sample(&run->cons[i], now, t0, &last[run->nr_producers + i], &s->cons[i]);
		counters_add(&s->cons_total, &s->cons[i]);
	}
}

/* A sample's reference figures: none, unless the bench's instrument adds them. */
static void instrument_sample(struct mb_run *run, struct mb_sample *s)
{
	const struct mb_instrument *ins = run->bench->instrument;

	if (s) {
		s->ref_median = NAN;
		s->ref_calls = 0;
	}
	if (ins && ins->sample)
		ins->sample(run, s);
}

/* The sampling loop: exactly warmup + duration samples unless stopped early. */
static void sample_loop(struct mb_run *run)
{
	const struct mb_env *env = run->env;
	uint64_t interval = (uint64_t)env->interval_ms * 1000000ULL;
	int nr_threads = run->nr_producers + run->nr_consumers;
	struct tally *last;
	uint64_t t0, prev;

	last = calloc((size_t)nr_threads, sizeof(*last));
	if (!last) {
		mb_run_fail(run, -ENOMEM, "out of memory");
		mb_threads_go(run);
		return;
	}
	mb_threads_wait_running(run);
	t0 = prev = mb_now_ns();
	for (int i = 0; i < nr_threads; i++)
		tally_read(i < run->nr_producers ? &run->prod[i] :
						   &run->cons[i - run->nr_producers], t0, &last[i]);
	instrument_sample(run, NULL);
	mb_threads_go(run);

	while (run->nr_samples < run->max_samples) {
		struct mb_sample *s = &run->samples[run->nr_samples];
		uint64_t deadline = t0 + interval * (uint64_t)(run->nr_samples + 1);
		struct timespec ts = { .tv_sec = (time_t)(deadline / 1000000000ULL),
				       .tv_nsec = (long)(deadline % 1000000000ULL) };
		uint64_t now;
		bool all_done;

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR &&
		       !mb_interrupted())
			;
		if (mb_interrupted() || mb_run_should_stop(run))
			break;
		/* Producers done before this read published all their work: the last sample. */
		all_done = __atomic_load_n(&run->producers_done, __ATOMIC_ACQUIRE) ==
			   run->nr_producers;
		now = mb_now_ns();
		s->start_ns = prev - t0;
		s->elapsed_ns = now - prev;
		s->warmup = run->nr_samples < (int)env->warmup;
		prev = now;
		tally_threads(run, s, now, t0, last);
		s->covered_ns = mb_sample_covered_ns(s, run->nr_producers);
		instrument_sample(run, s);
		for (int m = 0; m < MB_MAX_METRICS; m++)
			s->metric[m] = NAN;
		if (run->bench->measure)
			run->bench->measure(run, s);
		mb_sink_sample(run->sink, run, run->nr_samples, s);
		run->nr_samples++;
		if (all_done)
			break;
	}
	warn_uncovered(run, last);
	free(last);
}

static bool probe_needs(struct mb_run *run)
{
	const struct mb_instrument *ins = run->bench->instrument;
	char why[512];

	if ((run->bench->flags & MB_BENCH_NEEDS_BPF) && mb_probe_bpf(why, sizeof(why))) {
		mb_run_skip(run, "%s", why);
		return false;
	}
	if (ins && ins->probe && ins->probe(run, why, sizeof(why))) {
		mb_run_skip(run, "%s", why);
		return false;
	}
	/* Before set-up: the instrument's choices (the loop kind) that set-up reads. */
	return !(ins && ins->prepare && ins->prepare(run));
}

static void run_sampled(struct mb_run *run)
{
	struct mb_threads t;

	if (mb_threads_start(run, &t) == 0)
		sample_loop(run);
	mb_threads_stop(run, &t);
	for (int i = 0; i < t.producers + t.consumers; i++) {
		bool cons = i >= t.producers;
		int k = cons ? i - t.producers : i;
		int err = cons ? run->cons[k].err : run->prod[k].err;

		if (err && run->status == MB_RUN_OK)
			mb_run_fail(run, err, "%s %d failed: %s", cons ? "consumer" : "producer", k,
				    strerror(-err));
	}
}

static void warn_oversubscribed(struct mb_run *run)
{
	int cpus = run->env->online.count;

	if (!run->nr_consumers)
		mb_run_warn(run, "%d producers on %d online CPUs: the threads share CPUs, so the throughput measures CPU time-slicing, not map scalability",
			    run->nr_producers, cpus);
	else
		mb_run_warn(run, "%d producer%s and %d consumer%s on %d online CPU%s: the threads share CPUs, so the rates measure CPU time-slicing as well as the map",
			    run->nr_producers, run->nr_producers == 1 ? "" : "s",
			    run->nr_consumers, run->nr_consumers == 1 ? "" : "s", cpus,
			    cpus == 1 ? "" : "s");
}

void mb_run_execute(struct mb_run *run)
{
	const struct mb_bench *b = run->bench;
	const struct mb_instrument *ins = b->instrument;
	const struct mb_env *env = run->env;
	int err;

	mb_timestamp(run->start_time, sizeof(run->start_time));
	if (run->nr_producers + run->nr_consumers > env->online.count) {
		run->oversubscribed = true;
		warn_oversubscribed(run);
	}
	mb_sink_run_begin(run->sink, run);
	if (!probe_needs(run))
		goto out;
	if (alloc_samples(run)) {
		mb_run_fail(run, -ENOMEM, "out of memory");
		goto out;
	}
	err = b->setup ? b->setup(run) : 0;
	if (err) {
		if (run->status == MB_RUN_OK)
			mb_run_fail(run, err, "setup failed: %s", strerror(-err));
		goto teardown;
	}
	if (mb_interrupted())
		goto teardown;
	if (ins && ins->calibrate)
		ins->calibrate(run);
	mb_sink_run_started(run->sink, run);
	if (b->run_once) {
		err = b->run_once(run);
		if (err && run->status == MB_RUN_OK)
			mb_run_fail(run, err, "%s", strerror(-err));
	} else {
		run_sampled(run);
	}
	if (run->status == MB_RUN_OK && b->finish)
		b->finish(run);
	/* After the producers ran: they read the evidence of the bench's own program. */
	if (ins && ins->diagnose)
		ins->diagnose(run);
	/* While the bench's state is there: its parts' samples come from it. */
	if (run->status == MB_RUN_OK && run->nr_samples && b->split &&
	    b->split(run) && run->status == MB_RUN_OK)
		mb_run_fail(run, -ENOMEM, "out of memory");
teardown:
	if (b->teardown)
		b->teardown(run);
	if (ins && ins->release)
		ins->release(run);
out:
	if (mb_interrupted() && run->status == MB_RUN_OK)
		run->status = MB_RUN_INTERRUPTED;
	mb_timestamp(run->end_time, sizeof(run->end_time));
	if (run->status == MB_RUN_OK || run->status == MB_RUN_INTERRUPTED) {
		run->summary = mb_summarize(run);
		mb_run_parts_summarize(run);
		for (int k = 0; k < mb_run_nr_results(run); k++)
			mb_sink_result(run->sink, mb_run_result(run, k));
	}
	mb_sink_run_end(run->sink, run);
}
