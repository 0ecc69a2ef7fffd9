// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "summary.h"

/* Producer @p's covered time: its stamped span, or the sample's length without one. */
static uint64_t prod_span(const struct mb_sample *s, int p)
{
	return s->prod[p].end_ns ? s->prod[p].end_ns : s->elapsed_ns;
}

uint64_t mb_sample_covered_ns(const struct mb_sample *s, int nr_producers)
{
	double rate = 0;
	uint64_t ops = 0;
	bool stamped = false;

	/*
	 * Each producer's ops over its own span, summed: a rate that takes no steps of one call.
	 * The covered time is what the sample's ops divide by to give that sum.
	 */
	for (int p = 0; p < nr_producers; p++) {
		uint64_t span = prod_span(s, p);

		stamped |= s->prod[p].end_ns != 0;
		ops += s->prod[p].ops;
		if (span)
			rate += (double)s->prod[p].ops / (double)span;
	}
	if (!stamped || !ops || !(rate > 0))
		return s->elapsed_ns;
	return (uint64_t)llround((double)ops / rate);
}

static uint64_t covered(const struct mb_sample *s)
{
	return s->covered_ns ? s->covered_ns : s->elapsed_ns;
}

double mb_sample_rate(const struct mb_sample *s, uint64_t count)
{
	return covered(s) ? (double)count * 1e9 / (double)covered(s) : NAN;
}

double mb_sample_prod_rate(const struct mb_sample *s, int p, uint64_t count)
{
	uint64_t span = prod_span(s, p);

	return span ? (double)count * 1e9 / (double)span : NAN;
}

double mb_sample_kernel_latency(const struct mb_sample *s)
{
	return s->total.ops && s->total.kernel_ns ?
		       (double)s->total.kernel_ns / (double)s->total.ops : NAN;
}

double mb_sample_wall_latency(const struct mb_sample *s, int nr_producers)
{
	return s->total.ops ? (double)covered(s) * nr_producers / (double)s->total.ops : NAN;
}

/*
 * Wall time the producers could have run (elapsed x producers - waits, - excluded time on the
 * kernel basis) over the time they did: above MB_PREEMPT_RATIO they lost their CPU.
 */
static double sample_preempt_ratio(const struct mb_sample *s, int nr_producers,
				   enum mb_preempt_basis basis)
{
	double wall = (double)s->elapsed_ns * nr_producers - (double)s->total.wait_ns;

	switch (basis) {
	case MB_PREEMPT_CPU:
		return s->total.cpu_ns ? wall / (double)s->total.cpu_ns : NAN;
	case MB_PREEMPT_KERNEL:
		/*
		 * Without a CPU clock: the time of the calls whose in-kernel time the sample counts,
		 * less the time outside the loop on purpose, is no lost CPU.
		 */
		wall = (double)covered(s) * nr_producers - (double)s->total.wait_ns;
		return s->total.kernel_ns ?
			       (wall - (double)s->total.excluded_ns) / (double)s->total.kernel_ns :
			       NAN;
	default:
		return NAN;
	}
}

const char *mb_preempt_basis_name(enum mb_preempt_basis basis)
{
	return basis == MB_PREEMPT_CPU ? "cpu" : basis == MB_PREEMPT_KERNEL ? "kernel" : NULL;
}

/* The median of the sample's reference calls where they were logged, else their mean. */
static double ref_latency(const struct mb_sample *s)
{
	if (s->ref_calls)
		return s->ref_median;
	return s->total.ref_ops ? (double)s->total.ref_ns / (double)s->total.ref_ops : NAN;
}

static double kernel_throughput(const struct mb_sample *s, int nr_producers)
{
	return s->total.kernel_ns ?
		       (double)s->total.ops * 1e9 * nr_producers / (double)s->total.kernel_ns : NAN;
}

static double cpu_share(const struct mb_sample *s, int nr_producers)
{
	return s->total.cpu_ns && s->elapsed_ns ?
		       (double)s->total.cpu_ns / ((double)s->elapsed_ns * nr_producers) : NAN;
}

/*
 * Ops per second of one thread's CPU time: what a producer does when it has a CPU. The CPU
 * time is read at the sample's end, the ops are those of the calls the sample covered: their
 * rate over the CPU share puts both on the sample's time.
 */
static double cpu_throughput(const struct mb_sample *s, int nr_producers)
{
	double share = cpu_share(s, nr_producers);

	return share > 0 ? mb_sample_rate(s, s->total.ops) / nr_producers / share : NAN;
}

double mb_summary_latency(const struct mb_run *run, const struct mb_summary *sum)
{
	if (run->env->net && !isnan(sum->latency_net.mean))
		return sum->latency_net.mean;
	return sum->latency_kernel.mean;
}

/*
 * A sample's in-kernel ns/op less the empty loop's share of one op: the loop's cost measured
 * in the same sample (its reference calls), else before the run, over the ops one iteration
 * counts (bpf-loop: --nr_loops callback iterations; map-mixed: 3 map ops).
 */
static double net_latency(const struct mb_run *run, const struct mb_sample *s)
{
	double loop = ref_latency(s);

	if (isnan(loop))
		loop = run->loop_overhead_ns;
	return mb_sample_kernel_latency(s) - loop / (run->ops_per_iter ? run->ops_per_iter : 1);
}

/* --net: a net figure at or below zero, or within two standard errors of it, means nothing. */
static void warn_net(struct mb_run *run, const struct mb_stats *net)
{
	double se = net->n > 1 ? net->stddev / sqrt((double)net->n) : NAN;

	if (isnan(net->mean))
		return;
	if (net->mean <= 0)
		mb_run_warn(run, "--net: the net latency is %.3f ns/op, at or below zero: the op costs no more than the loop's own measured cost, and the net figure means nothing here",
			    net->mean);
	else if (!isnan(se) && net->mean < 2 * se)
		mb_run_warn(run, "--net: the net latency %.3f ns/op is within the noise (2 standard errors: %.3f ns/op)",
			    net->mean, 2 * se);
}

/*
 * The producers' CPU clocks say whether they lost the CPU whatever drives the bench (in-kernel
 * time leaves out the syscall or trigger path around it); in-kernel time is the fallback, and
 * the basis where the op interrupts its own CPU: the interrupts' time is not the thread's.
 */
static enum mb_preempt_basis preempt_basis(const struct mb_run *run, const struct mb_summary *sum)
{
	if (sum->has_kernel && run->bench->lost_cpu == MB_LOST_CPU_KERNEL)
		return MB_PREEMPT_KERNEL;
	if (sum->sum.cpu_ns)
		return MB_PREEMPT_CPU;
	return sum->has_kernel ? MB_PREEMPT_KERNEL : MB_PREEMPT_NONE;
}

/*
 * The noise verdict over the @n measured samples @ms: each judged by its figure @figure[i]
 * (in-kernel ns/op where measured, else the headline rate), with its preemption ratio and
 * reference as evidence (core/noise.h).
 */
static int judge_noise(struct mb_run *run, struct mb_summary *sum, struct mb_sample **ms,
		       const double *figure)
{
	size_t n = (size_t)sum->n;
	double *preempt = calloc(n, sizeof(double)), *ref = calloc(n, sizeof(double));
	unsigned int *flags = calloc(n, sizeof(*flags));
	enum mb_noise_cause *cause = calloc(n, sizeof(*cause));
	struct mb_noise_series in = {
		.n = sum->n, .figure = figure, .preempt = preempt, .reference = ref,
		.time_per_op = sum->judged_latency, .wall_figure = !sum->judged_latency,
	};
	int err = -ENOMEM;

	sum->preempt_basis = preempt_basis(run, sum);
	for (int i = 0; i < run->nr_samples; i++)
		run->samples[i].preempt_ratio = sample_preempt_ratio(&run->samples[i],
								     run->nr_producers,
								     sum->preempt_basis);
	if (preempt && ref && flags && cause) {
		for (size_t i = 0; i < n; i++) {
			preempt[i] = ms[i]->preempt_ratio;
			ref[i] = ms[i]->ref_calls ? ms[i]->ref_median : NAN;
		}
		err = mb_noise_judge(&in, flags, cause, &sum->noise);
	}
	for (size_t i = 0; !err && i < n; i++) {
		ms[i]->flags = flags[i];
		ms[i]->cause = cause[i];
	}
	free(preempt);
	free(ref);
	free(flags);
	free(cause);
	return err;
}

static void compute(struct mb_stats *st, const double *v, int n)
{
	if (mb_stats_compute(v, (size_t)n, st))
		memset(st, 0, sizeof(*st));
}

/* The measured samples (warm-up left out) into @ms, and their counters summed. */
static void gather_samples(struct mb_run *run, struct mb_summary *sum, struct mb_sample **ms)
{
	for (int i = 0, j = 0; i < run->nr_samples; i++) {
		struct mb_sample *s = &run->samples[i];
		const uint64_t *src = (const uint64_t *)&s->total;
		uint64_t *dst = (uint64_t *)&sum->sum;

		if (s->warmup)
			continue;
		ms[j++] = s;
		for (size_t k = 0; k < MB_COUNTERS_NR; k++)
			dst[k] += src[k];
	}
	sum->has_kernel = sum->sum.kernel_ns > 0;
	sum->has_ref = sum->sum.ref_ops > 0;
}

uint64_t mb_sample_figure_count(const struct mb_run *run, const struct mb_sample *s)
{
	const struct mb_headline *h = &run->bench->headline;

	switch (h->count) {
	case MB_HEADLINE_HITS:
		return s->total.hits;
	case MB_HEADLINE_COUNTER:
		if (h->counter < 0 || h->counter >= MB_MAX_COUNTERS)
			return 0;
		return s->total.counter[h->counter];
	default:
		return s->total.ops;
	}
}

const char *mb_headline_count_name(const struct mb_bench *bench)
{
	const struct mb_headline *h = &bench->headline;

	if (h->count == MB_HEADLINE_HITS)
		return "hits";
	if (h->count == MB_HEADLINE_COUNTER && h->counter >= 0 &&
	    h->counter < mb_bench_nr_counters(bench))
		return bench->counters[h->counter].name;
	return "ops";
}

const char *mb_headline_unit(const struct mb_bench *bench, char *buf, size_t len)
{
	const struct mb_headline *h = &bench->headline;

	if (h->count == MB_HEADLINE_COUNTER && h->counter >= 0 &&
	    h->counter < mb_bench_nr_counters(bench))
		snprintf(buf, len, "%s/s", bench->counters[h->counter].unit);
	else
		snprintf(buf, len, "ops/s");
	return buf;
}

/* Every figure of the whole run over the @n samples @ms (@v: scratch of @n). */
static void summarize_series(struct mb_run *run, struct mb_summary *sum,
			     struct mb_sample *const *ms, double *v, int n)
{
	int np = run->nr_producers;

#define SERIES(_st, _expr)						\
	do {								\
		for (int i = 0; i < n; i++) {				\
			const struct mb_sample *s = ms[i];		\
			v[i] = (_expr);					\
		}							\
		compute(&sum->_st, v, n);				\
	} while (0)

	SERIES(throughput, mb_sample_rate(s, mb_sample_figure_count(run, s)));
	SERIES(prod_throughput, mb_sample_rate(s, mb_sample_figure_count(run, s)) / np);
	SERIES(hits, mb_sample_rate(s, s->total.hits));
	SERIES(misses, mb_sample_rate(s, s->total.misses));
	SERIES(total, mb_sample_rate(s, s->total.hits + s->total.misses));
	SERIES(errors, mb_sample_rate(s, s->total.errors));
	for (int c = 0; c < mb_bench_nr_counters(run->bench); c++)
		SERIES(counter[c], mb_sample_rate(s, s->total.counter[c]));
	SERIES(latency_kernel, mb_sample_kernel_latency(s));
	SERIES(latency_wall, mb_sample_wall_latency(s, np));
	SERIES(latency_ref, ref_latency(s));
	SERIES(latency_net, sum->has_kernel ? net_latency(run, s) : NAN);
	SERIES(kernel_throughput, kernel_throughput(s, np));
	SERIES(cpu_share, cpu_share(s, np));
	SERIES(cpu_throughput, cpu_throughput(s, np));
#undef SERIES
	for (int m = 0; m < MB_MAX_METRICS; m++) {
		for (int i = 0; i < n; i++)
			v[i] = ms[i]->metric[m];
		sum->has_metric[m] = !mb_stats_compute(v, (size_t)n, &sum->metric[m]);
	}
}

/* Each producer's throughput and in-kernel latency over the @n samples @ms. */
static void summarize_producers(struct mb_run *run, struct mb_summary *sum,
				struct mb_sample *const *ms, double *v, int n)
{
	for (int p = 0; p < run->nr_producers; p++) {
		for (int i = 0; i < n; i++)
			v[i] = mb_sample_prod_rate(ms[i], p, ms[i]->prod[p].ops);
		compute(&sum->prod_tput[p], v, n);
		for (int i = 0; i < n; i++)
			v[i] = ms[i]->prod[p].ops && ms[i]->prod[p].kernel_ns ?
				       (double)ms[i]->prod[p].kernel_ns / (double)ms[i]->prod[p].ops :
				       NAN;
		compute(&sum->prod_latency[p], v, n);
	}
}

struct mb_summary *mb_summarize(struct mb_run *run)
{
	int np = run->nr_producers, n = 0;
	struct mb_summary *sum;
	struct mb_sample **ms;
	double *v, *primary;

	for (int i = 0; i < run->nr_samples; i++)
		n += !run->samples[i].warmup;
	if (!n)
		return NULL;
	sum = calloc(1, sizeof(*sum) + 2 * (size_t)np * sizeof(struct mb_stats));
	ms = calloc((size_t)n, sizeof(*ms));
	v = calloc((size_t)n, sizeof(*v));
	primary = calloc((size_t)n, sizeof(*primary));
	if (!sum || !ms || !v || !primary) {
		free(sum);
		sum = NULL;
		goto out;
	}
	sum->prod_tput = (struct mb_stats *)(sum + 1);
	sum->prod_latency = sum->prod_tput + np;
	sum->n = n;
	gather_samples(run, sum, ms);
	summarize_series(run, sum, ms, v, n);
	summarize_producers(run, sum, ms, v, n);
	sum->judged_latency = sum->has_kernel &&
			      run->bench->headline.clock == MB_HEADLINE_KERNEL_TIME;
	for (int i = 0; i < n; i++)
		primary[i] = sum->judged_latency ? mb_sample_kernel_latency(ms[i]) :
					       mb_sample_rate(ms[i], mb_sample_figure_count(run, ms[i]));
	if (judge_noise(run, sum, ms, primary)) {
		free(sum);
		sum = NULL;
		goto out;
	}
	if (run->env->net && sum->has_kernel)
		warn_net(run, &sum->latency_net);
out:
	free(ms);
	free(v);
	free(primary);
	return sum;
}
