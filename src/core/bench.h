/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The bench descriptor and the run context every hook receives.
 *
 * A bench is one const struct mb_bench: its name, options table and hooks. validate checks a
 * run's options before any run starts; then the runner (core/runner.c) calls setup -> starts
 * the consumers, then the producers (core/threads.c) -> samples them every interval -> stops
 * the producers, and the consumers drain what is left -> finish -> split into parts (a bench
 * with one result per part) -> teardown. A one-shot bench, not sampled over time, has run_once
 * in place of the threads and the samples. Around them the runner calls the hooks of the
 * bench's instrument, if it has one (a driver's: the in-kernel op loop's calibration and
 * reference). All state of one run lives in struct mb_run.
 */
#ifndef MB_BENCH_H
#define MB_BENCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "loop_info.h"
#include "noise.h"
#include "opts.h"

struct mb_env;
struct mb_json;
struct mb_latency;
struct mb_run;
struct mb_sink;
struct mb_text_style;

#define MB_MAX_PRODUCERS	256
#define MB_MAX_METRICS		4
#define MB_MAX_COUNTERS		4	/* a bench's own counters (struct mb_counter_desc) */

/* Cumulative counters of one producer (or deltas of one sample). */
struct mb_counters {
	uint64_t ops;		/* operations executed and timed */
	uint64_t hits;		/* operations that found / did what they should */
	uint64_t misses;	/* expected misses (the kernel's "drops") */
	uint64_t errors;	/* operations that failed unexpectedly (counted in ops, reported) */
	uint64_t counter[MB_MAX_COUNTERS];	/* the bench's own, as its .counters declare */
	uint64_t kernel_ns;	/* in-kernel time of the measured loop */
	uint64_t excluded_ns;	/* wall time spent on purpose outside the measurement (refills) */
	uint64_t calls;		/* round trips into the kernel (test_run calls, syscalls) */
	uint64_t ref_ops;	/* interleaved reference measurement (empty in-kernel loop) */
	uint64_t ref_ns;
	uint64_t cpu_ns;	/* CPU time the producer thread got (set by the sampler) */
	/*
	 * When the counted work ended (CLOCK_MONOTONIC ns), stamped by producers whose calls
	 * can be long; 0: not stamped. In a sample's deltas: the time its counted calls covered.
	 */
	uint64_t end_ns;
	uint64_t wait_ns;	/* time off the CPU, blocked on purpose (for a partner, the kernel) */
};

#define MB_COUNTERS_NR (sizeof(struct mb_counters) / sizeof(uint64_t))

/*
 * One producer thread, or one consumer thread (run->cons: the same slot, its counters counting
 * what it received). Only the thread writes its counters; the sampler reads them.
 */
struct mb_producer {
	unsigned int seq;		/* seqcount around pub: odd while being written */
	struct mb_counters pub;		/* published cumulative counters */
	uint64_t wait_since;		/* published too: start of the current wait, 0: none */
	uint64_t wait_cpu_ns;		/* the thread's CPU time when that wait began */
	struct mb_run *run;
	int idx;
	int cpu;			/* pinned CPU, or -1 */
	int err;			/* producer hook's return value */
	bool started;
	pthread_t thread;
	clockid_t cpu_clock;		/* the thread's CPU-time clock, read by the sampler */
	bool has_cpu_clock;
	void *priv;			/* bench's per-producer state */
} __attribute__((aligned(128)));

struct mb_sample {
	uint64_t start_ns;		/* since the start of sampling */
	uint64_t elapsed_ns;		/* actual length of this sample */
	uint64_t covered_ns;		/* time its counted work covered: rates divide by it */
	struct mb_counters total;	/* deltas over all producers */
	struct mb_counters *prod;	/* deltas per producer [nr_producers] */
	struct mb_counters cons_total;	/* deltas over all consumers (not in total) */
	struct mb_counters *cons;	/* deltas per consumer [nr_consumers], or NULL */
	double metric[MB_MAX_METRICS];	/* bench metrics (NaN: not measured) */
	double ref_median;		/* median ns/op of its reference calls (NaN: none) */
	unsigned int ref_calls;		/* how many reference calls that median is of */
	double preempt_ratio;		/* by mb_summarize(), see MB_PREEMPT_RATIO (NaN: none) */
	unsigned int flags;		/* MB_SAMPLE_*, by mb_summarize() (noise.h) */
	enum mb_noise_cause cause;	/* what moved a flagged sample */
	bool warmup;
};

struct mb_metric_desc {
	const char *name;	/* JSON key, e.g. "memory" */
	const char *unit;	/* e.g. "bytes" */
};

/*
 * A count of the bench's own, kept beside ops and hits: counter[i] of struct mb_counters for
 * the i-th descriptor. Producers add to it as to ops (the op loop's BPF: lc->counter[i]); like
 * every counter it sums over producers and samples: a sample's and a producer's deltas, the
 * run's total (summary.totals.counters.NAME), and its rate per second of the covered time,
 * sample by sample (summary.counters.NAME, in UNIT/s).
 */
struct mb_counter_desc {
	const char *name;	/* JSON key, e.g. "evens" */
	const char *unit;	/* what one count is, e.g. "ops"; its rate is in "ops/s" */
	const char *desc;	/* what it counts, one line */
};

/* What a bench's headline rate counts (summary.throughput): docs/output.md. */
enum mb_headline_count {
	MB_HEADLINE_OPS,	/* its ops (the default) */
	MB_HEADLINE_HITS,	/* its hits: what got through, not the attempts and drops */
	MB_HEADLINE_COUNTER,	/* one of its own counters, .headline.counter */
};

/* Which figure of a bench is its headline, the one the noise verdict judges. */
enum mb_headline_clock {
	/* In-kernel ns/op where the op loop timed it, else the rate (the default). */
	MB_HEADLINE_KERNEL_TIME,
	/*
	 * The rate over the producers' wall-clock time, though part of each op is timed in the
	 * kernel (a trigger path, records another thread must take): what a user waits for.
	 */
	MB_HEADLINE_WALL_RATE,
};

struct mb_headline {
	enum mb_headline_count count;
	int counter;			/* MB_HEADLINE_COUNTER: an index into .counters */
	enum mb_headline_clock clock;
};

/* How the noise checks tell that a producer lost its CPU (core/noise.h, MB_PREEMPT_RATIO). */
enum mb_lost_cpu_clock {
	MB_LOST_CPU_THREAD,	/* the threads' CPU clocks, in-kernel time without them */
	/*
	 * In-kernel time wherever it was measured: the op makes work on its own CPU that the
	 * thread's clock does not count (interrupts it raises for another thread's wake-up).
	 */
	MB_LOST_CPU_KERNEL,
};

enum mb_bench_flags {
	MB_BENCH_NEEDS_BPF	 = 1u << 0,	/* probe BPF privileges before setup */
	MB_BENCH_SINGLE_PRODUCER = 1u << 1,	/* refuses -p > 1 */
	MB_BENCH_CONSUMERS	 = 1u << 2,	/* has consumers: -c, 1 unless given */
	MB_BENCH_OP_CALLS	 = 1u << 3,	/* the op itself calls a subprogram (a bpf_loop) */
	MB_BENCH_EMPTY_OP	 = 1u << 4,	/* the op is empty: the bench is the loop itself */
	/*
	 * It measures its maps' memory, not their ops (map-mem): --map-types lists it apart,
	 * as the type's memory row, not as a bench that covers the type.
	 */
	MB_BENCH_FOOTPRINT	 = 1u << 5,
};

/* A bench's .map_types in one line: MB_MAP_TYPES("hash", "lru_hash"). */
#define MB_MAP_TYPES(...)	((const char *const[]){ __VA_ARGS__, NULL })

/*
 * What measures a bench's runs besides its own hooks, provided by a driver (the in-kernel op
 * loop's: src/drivers/kloop.h). The runner calls each hook that is set, at a fixed point of
 * every run of a bench that names the instrument; a hook's state lives in run->instrument_state.
 */
struct mb_instrument {
	/* Before set-up, after the BPF probe: 0, or why this machine cannot run it (a skip). */
	int (*probe)(const struct mb_run *run, char *why, size_t len);
	/*
	 * Before set-up: the choices the bench's set-up reads (run->loop). 0, or the value of
	 * mb_run_skip() or mb_run_fail(), which it calls: the run then ends without set-up.
	 */
	int (*prepare)(struct mb_run *run);
	/* After a set-up that succeeded, before the first sample. */
	void (*calibrate)(struct mb_run *run);
	/*
	 * On the sampler's thread, at the baseline (@s NULL) and after each sample's counters,
	 * before the bench's measure hook: what the instrument adds to @s.
	 */
	void (*sample)(struct mb_run *run, struct mb_sample *s);
	/* After the bench's finish hook: warnings from what the run showed. */
	void (*diagnose)(struct mb_run *run);
	/* After teardown, whenever set-up was called (also where calibrate never ran). */
	void (*release)(struct mb_run *run);
};

struct mb_bench {
	const char *name;
	const char *family;
	const char *desc;		/* one line, for --list */
	const struct mb_opt *opts;	/* NULL-terminated, may be NULL */
	size_t args_size;		/* size of the struct the options fill */
	unsigned int flags;
	/*
	 * The map types it measures, by enum bpf_map_type's name in lower case ("hash",
	 * "task_storage"), NULL-terminated; NULL: none. mapbench --map-types lists each type's
	 * benches from these; a bench with a --map_type option may give its option's names.
	 */
	const char *const *map_types;
	const struct mb_text_style *text;	/* kernel-compatible text lines */
	const struct mb_metric_desc *metrics;	/* per-sample metrics, NULL-terminated */
	const struct mb_counter_desc *counters;	/* its own counters, NULL-terminated, at most
						 * MB_MAX_COUNTERS */
	struct mb_headline headline;	/* zero: ops, in-kernel ns/op where timed */
	enum mb_lost_cpu_clock lost_cpu;
	const struct mb_instrument *instrument;	/* a driver's, or NULL */
	/*
	 * The option whose values a sweep of this bench compares, or NULL: where a sweep varies
	 * it, the text under its table names the value with the lowest ns/op at each combination
	 * of the other swept values (as sweep --fastest NAME does for any option).
	 */
	const char *sweep_fastest;
	/*
	 * The option whose value names a result's RESULT line (--machine-readable) in place of
	 * the bench's name, or NULL: a bench that ports the kernel's scenarios (xdp-lb's
	 * --scenario) then prints the kernel's scenario names.
	 */
	const char *result_scenario;

	/*
	 * Cross-option checks; report with mb_run_usage() (exit status 2). MB_RUN_ANSWERED: an
	 * option asked a question it answered (a list): no run starts, and the exit status is 0.
	 */
	int (*validate)(struct mb_run *run);
	/* Create maps, load programs, fill. Errors: mb_run_fail() or mb_run_skip(). */
	int (*setup)(struct mb_run *run);
	/*
	 * Runs on each producer thread until mb_run_should_stop(); publishes counters. A producer
	 * may also return when its work is done (a set number of ops): once every one has, the
	 * sample under way is the run's last.
	 */
	int (*producer)(struct mb_run *run, struct mb_producer *p);
	/*
	 * MB_BENCH_CONSUMERS: runs on each consumer thread, started before the producers, until
	 * mb_run_consumers_should_stop(), which turns true after every producer has returned:
	 * then it takes what is left and returns. Publishes its counters like a producer.
	 */
	int (*consumer)(struct mb_run *run, struct mb_producer *c);
	/* MB_BENCH_CONSUMERS: consumers when -c is not given, from the options (NULL: 1). */
	int (*default_consumers)(const struct mb_run *run);
	/* Optional: adjust a sample after the runner filled its counter deltas. */
	void (*measure)(struct mb_run *run, struct mb_sample *s);
	/* Benches that are not sampled over time do their whole work here. */
	int (*run_once)(struct mb_run *run);
	/* After the producers stopped: add bench results to mb_run_extra(). */
	void (*finish)(struct mb_run *run);
	/* Release everything setup made; called whenever setup was called. */
	void (*teardown)(struct mb_run *run);

	/*
	 * A run that measures several things at once (map-perf's tests) reports each as its own
	 * result, never one figure over all: nr_parts says how many, after validate (0 or 1: the
	 * run is its result); split, after finish and before teardown, adds each with
	 * mb_run_add_part() and fills its samples and extra. Each part's params name it in
	 * @part_param.
	 */
	int (*nr_parts)(const struct mb_run *run);
	int (*split)(struct mb_run *run);
	const char *part_param;
};

/* A validate hook's return when it answered what an option asked (core/bench.h). */
#define MB_RUN_ANSWERED	1

enum mb_run_status {
	MB_RUN_OK,
	MB_RUN_SKIPPED,
	MB_RUN_FAILED,
	MB_RUN_INTERRUPTED,
};

struct mb_run {
	const struct mb_bench *bench;
	const struct mb_env *env;
	void *args;			/* filled from bench->opts */
	uint64_t opts_given;		/* bit i: bench->opts[i] was on the command line */
	void *priv;			/* bench state, owned by setup/teardown */

	int nr_producers;
	struct mb_producer *prod;
	int stop;			/* set (atomically) to stop the producers */
	int nr_consumers;
	struct mb_producer *cons;	/* consumer threads (bench->consumer) */
	int cons_stop;			/* set (atomically) once the producers have stopped */
	int producers_done;		/* producers whose hook returned (atomic) */
	int sampling;			/* set once the sampler has read the baseline:
					 * producers start only then, so all their work counts */

	struct mb_sample *samples;	/* warm-up samples first */
	int nr_samples;			/* taken so far */
	int max_samples;

	enum mb_run_status status;
	char reason[512];		/* why skipped or failed */
	const char *runner;		/* "kernel-loop", "syscall", "user", "trigger", ... */
	struct mb_json *extra;		/* bench-specific results */
	struct mb_json *warnings;	/* array of strings */
	struct mb_json *params;		/* every option value */
	char start_time[40], end_time[40];
	bool oversubscribed;		/* more producers than online CPUs */
	double loop_overhead_ns;	/* empty in-kernel loop, ns/op (NaN: not measured) */
	struct mb_loop_info loop;	/* which in-kernel loop ran, and the kernel's evidence */
	uint32_t ops_per_iter;		/* ops one loop iteration counts (0: 1), for --net */
	void *instrument_state;		/* bench->instrument's (the reference program) */
	struct mb_latency *latency;	/* --latency: the timed ops (core/latency.h), or NULL */
	struct mb_summary *summary;
	struct mb_sink *sink;		/* where the runner sends the run's events (sink.h) */
	struct mb_run *parts;		/* a split run's results (bench->split), or NULL */
	int nr_parts;
	char part_name[64];		/* a part: its value of bench->part_param */
};

/* For bench hooks. */
int mb_run_usage(struct mb_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int mb_run_fail(struct mb_run *run, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int mb_run_skip(struct mb_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mb_run_warn(struct mb_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * A number option's value refused by a bench's checks, in mb_opt_error()'s shape:
 * "BENCH: --NAME VALUE: must be ALLOWED", @fmt giving ALLOWED and, in parentheses after it,
 * why when the range alone does not say. Returns -EINVAL (exit status 2).
 */
int mb_run_bad_num(struct mb_run *run, const char *name, unsigned long long value,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
struct mb_json *mb_run_extra(struct mb_run *run);
/* A one-shot bench's record of work done so far, for the run's sinks (core/sink.h). */
void mb_run_partial(struct mb_run *run, const void *what);
bool mb_run_opt_given(const struct mb_run *run, const char *name);

/* How many counters @b declares (its .counters). */
static inline int mb_bench_nr_counters(const struct mb_bench *b)
{
	int n = 0;

	while (b->counters && n < MB_MAX_COUNTERS && b->counters[n].name)
		n++;
	return n;
}

static inline bool mb_run_should_stop(const struct mb_run *run)
{
	return __atomic_load_n(&run->stop, __ATOMIC_RELAXED);
}

/* For consumers: true once every producer has returned (take what is left, then return). */
static inline bool mb_run_consumers_should_stop(const struct mb_run *run)
{
	return __atomic_load_n(&run->cons_stop, __ATOMIC_ACQUIRE);
}

/*
 * For split: a new part of @run, sharing its bench, env, args and producers, with its own
 * params (a copy, @name set as bench->part_param), warnings (a copy), empty extra, and
 * zeroed samples as many as the run took, whose counters the bench fills. NULL: no memory.
 */
struct mb_run *mb_run_add_part(struct mb_run *run, const char *name);
/* The results a run reports: its parts, or the run itself. */
int mb_run_nr_results(const struct mb_run *run);
const struct mb_run *mb_run_result(const struct mb_run *run, int k);

/* Publish a producer's cumulative counters for the sampler. */
void mb_producer_publish(struct mb_producer *p, const struct mb_counters *c);
/*
 * The same, stamping @c->end_ns with the time now: for producers whose calls can be long, after
 * each call (the sample's rates then divide by the calls' time), and once before the first
 * call, where the first call's time starts.
 */
void mb_producer_publish_stamped(struct mb_producer *p, struct mb_counters *c);
/* Read them consistently (sampler side); *@wait_since (may be NULL): the current wait's start. */
void mb_producer_read(const struct mb_producer *p, struct mb_counters *c, uint64_t *wait_since);
/*
 * Around a deliberate block (sleeping for a partner, for the kernel), on the producer's thread:
 * the wait's time off the CPU (its wall time less the CPU time the thread spent in it) goes to
 * @c->wait_ns, and the sampler counts a wait still going on up to the sample's end, so the
 * preemption check (wall - waits vs CPU time) never mistakes a sleep for a lost CPU.
 */
void mb_producer_wait_begin(struct mb_producer *p, const struct mb_counters *c);
void mb_producer_wait_end(struct mb_producer *p, struct mb_counters *c);

#endif
