/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* From samples to figures: rates, latencies, their statistics and the noise flags. */
#ifndef MB_SUMMARY_H
#define MB_SUMMARY_H

#include <stdbool.h>

#include "bench.h"
#include "noise.h"
#include "util/stats.h"

/* What a sample's preemption ratio divides by. */
enum mb_preempt_basis {
	MB_PREEMPT_NONE,	/* neither clock: no check */
	MB_PREEMPT_CPU,		/* the producer threads' CPU clocks */
	MB_PREEMPT_KERNEL,	/* in-kernel time, where no CPU clock could be read */
};

struct mb_summary {
	int n;				/* samples after warm-up */
	bool has_kernel;		/* in-kernel time was measured */
	bool has_ref;			/* the reference loop ran */
	enum mb_preempt_basis preempt_basis;
	struct mb_stats throughput;	/* the headline's count per second, all producers */
	struct mb_stats prod_throughput;	/* the same per producer */
	struct mb_stats hits;		/* per second */
	struct mb_stats misses;
	struct mb_stats total;		/* hits + misses per second */
	struct mb_stats errors;
	struct mb_stats counter[MB_MAX_COUNTERS];	/* the bench's own, per second */
	struct mb_stats latency_kernel;	/* in-kernel ns per op (per producer) */
	struct mb_stats latency_wall;	/* wall-clock ns per op per producer */
	struct mb_stats latency_ref;	/* reference loop ns per op */
	struct mb_stats latency_net;	/* in-kernel ns per op less the loop's share, per sample */
	struct mb_stats kernel_throughput;	/* ops per second of in-kernel time, all producers */
	struct mb_stats cpu_share;	/* CPU time the producers got / (elapsed x producers) */
	struct mb_stats cpu_throughput;	/* ops per second of one producer's CPU time */
	struct mb_stats metric[MB_MAX_METRICS];
	bool has_metric[MB_MAX_METRICS];
	struct mb_counters sum;		/* counters summed over the measured samples */
	/* The figure the noise verdict judged: in-kernel ns/op where measured, else throughput. */
	bool judged_latency;
	struct mb_noise noise;		/* the samples' flags and the result's verdict */
	struct mb_stats *prod_tput;	/* [nr_producers]: ops/s of each producer */
	struct mb_stats *prod_latency;	/* [nr_producers]: in-kernel ns/op of each producer */
};

/*
 * Summarise the measured samples and set their noise flags and causes (core/noise.h). NULL if
 * there is no sample.
 */
struct mb_summary *mb_summarize(struct mb_run *run);

/*
 * The time sample @s's counted work covered, for s->covered_ns: where producers stamp the end
 * of their calls (end_ns), from the end of each one's last call counted in the previous sample
 * to the end of its last call counted in this one, combined so that ops / covered is the sum of
 * the producers' rates; the sample's elapsed time where they do not. A rate over the elapsed
 * time would count whole calls: steps of one call's ops per sample.
 */
uint64_t mb_sample_covered_ns(const struct mb_sample *s, int nr_producers);

/* What a sample's throughput counts: the count its bench's headline names (ops by default). */
uint64_t mb_sample_figure_count(const struct mb_run *run, const struct mb_sample *s);

/* Per-sample figures (NaN when not defined): @count per second of the covered time ... */
double mb_sample_rate(const struct mb_sample *s, uint64_t count);
/* ... and producer @p's @count per second of its own covered time. */
double mb_sample_prod_rate(const struct mb_sample *s, int p, uint64_t count);
double mb_sample_kernel_latency(const struct mb_sample *s);
double mb_sample_wall_latency(const struct mb_sample *s, int nr_producers);
const char *mb_preempt_basis_name(enum mb_preempt_basis basis);
/* The name of what @bench's headline counts ("ops", "hits", a counter's name). */
const char *mb_headline_count_name(const struct mb_bench *bench);
/* The unit of its rate ("ops/s", or a counter's unit per second), into @buf. Returns @buf. */
const char *mb_headline_unit(const struct mb_bench *bench, char *buf, size_t len);

/* The in-kernel ns/op to print: net of the empty loop with --net. */
double mb_summary_latency(const struct mb_run *run, const struct mb_summary *sum);

#endif
