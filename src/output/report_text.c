// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Text lines with the kernel bench's wording and units (docs/output.md, "Text"). */
#include <math.h>

#include "core/env.h"
#include "util/json.h"
#include "util/log.h"
#include "report.h"
#include "core/summary.h"

#define PM "\u00B1"	/* the kernel prints a UTF-8 plus-minus sign; scripts match it */

void mb_text_iter_prefix(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s)
{
	double dev_us = ((double)s->elapsed_ns - run->env->interval_ms * 1e6) / 1000.0;

	fprintf(f, "Iter %3d (%7.3lfus): ", iter, dev_us);
}

const char *mb_text_num(char *buf, size_t len, int width, int prec, double v)
{
	if (isnan(v))
		snprintf(buf, len, "%*s", width, "n/a");
	else
		snprintf(buf, len, "%*.*f", width, prec, v);
	return buf;
}

const char *mb_text_spread(char *buf, size_t len, int width, int prec, double v)
{
	/* "± n/aM/s" would run the unknown spread into the unit. */
	if (isnan(v))
		snprintf(buf, len, "%*s ", width, "n/a");
	else
		snprintf(buf, len, "%*.*f", width, prec, v);
	return buf;
}

const char *mb_text_cv(char *buf, size_t len, double cv)
{
	if (isnan(cv))
		snprintf(buf, len, "CV n/a");
	else
		snprintf(buf, len, "CV %.2f %%", cv * 100);
	return buf;
}

bool mb_text_notes_begin(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	if (run->status == MB_RUN_INTERRUPTED)
		fprintf(f, "Interrupted: %d of %u samples measured\n", sum->n, run->env->duration);
	if (sum->n >= 2)
		return true;
	fprintf(f, "Spread: unknown: one sample cannot show noise (the \u00B1 and CV are n/a; -d2 or more measure them)\n");
	return false;
}

/*
 * The empty loop's two figures, each said for what it is: the median of the reference calls
 * made during the samples (what --net subtracts, sample by sample), and the fastest of a few
 * calls before the run (loop_overhead_ns). Beside an empty-op bench they are the same loop as
 * the bench's own figure, in calls of other lengths at other times: they differ by its noise.
 */
static void empty_loop(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	bool ref = sum->latency_ref.n > 0, before = !isnan(run->loop_overhead_ns);

	if (!ref && !before)
		return;
	fprintf(f, "; %s (%s):", run->bench->flags & MB_BENCH_EMPTY_OP ? "the same loop" :
		"empty loop", mb_loop_kind_names[run->loop.kind]);
	if (ref)
		fprintf(f, " %.3f ns/op in the reference calls during the samples%s",
			sum->latency_ref.mean, run->env->net ? " (subtracted)" : "");
	if (before)
		fprintf(f, "%s %.3f ns/op before the run%s", ref ? "," : "", run->loop_overhead_ns,
			run->env->net && !ref ? " (subtracted)" : "");
}

/* The linearity self-check: a line when it failed (the warning says it too), with -v always. */
static void linearity_line(FILE *f, const struct mb_run *run)
{
	const struct mb_linearity *lin = &run->loop.linearity;

	if (!lin->done || (lin->ok && !mb_log_verbose()))
		return;
	fprintf(f, "Linearity: 2N iterations took %.3f times as long as N (N=%llu, median of %d calls each): %s2 within %.0f %%\n",
		lin->ratio, (unsigned long long)lin->n, MB_LINEARITY_CALLS,
		lin->ok ? "" : "not ", MB_LINEARITY_TOL * 100);
}

void mb_text_notes(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	char cv[32];

	if (mb_log_quiet())
		return;
	if (mb_text_notes_begin(f, run, sum))
		fprintf(f, "Spread: throughput median %.3f M %s/s, min %.3f, max %.3f, CV %.2f %% over %d samples\n",
			sum->throughput.median / 1e6,
			mb_headline_count_name(run->bench),
			sum->throughput.min / 1e6,
			sum->throughput.max / 1e6, sum->throughput.cv * 100, sum->n);
	if (sum->has_kernel) {
		fprintf(f, "Latency: in-kernel %.3f ns/op (median %.3f, %s), wall-clock %.3f ns/op",
			sum->latency_kernel.mean, sum->latency_kernel.median,
			mb_text_cv(cv, sizeof(cv), sum->latency_kernel.cv),
			sum->latency_wall.mean);
		empty_loop(f, run, sum);
		fputc('\n', f);
		linearity_line(f, run);
	}
	mb_text_latency(f, run);
	if (!sum->has_kernel && sum->cpu_share.n)
		fprintf(f, "CPU: producers ran %.1f %% of the time, %.3f M ops per CPU-second each\n",
			sum->cpu_share.mean * 100, sum->cpu_throughput.mean / 1e6);
	if (sum->sum.errors)
		fprintf(f, "Errors: %llu operations failed unexpectedly (they are counted in ops, not in hits)\n",
			(unsigned long long)sum->sum.errors);
	mb_text_noise(f, run, sum);
}

static const char *judged_name(const struct mb_summary *sum)
{
	return sum->judged_latency ? "in-kernel ns/op" : "throughput";
}

/* "2 of 50 samples flagged (2 host, 0 preempted, 0 unexplained); without them ..." */
static void noise_flagged(FILE *f, const struct mb_summary *sum)
{
	const struct mb_noise *nz = &sum->noise;

	fprintf(f, "%d of %d samples flagged (", nz->nr_flagged, sum->n);
	for (int k = MB_CAUSE_NONE + 1; k < MB_CAUSES; k++)
		fprintf(f, "%s%s %d", k > MB_CAUSE_NONE + 1 ? ", " : "", mb_noise_cause_names[k],
			nz->nr_cause[k]);
	fputc(')', f);
	if (nz->noisy & MB_NOISY_BY_ALL)
		fputs(", every one: no sample is left to measure the mean by", f);
	else
		fprintf(f, "; without %s the mean moves %.1f %%, %s its uncertainty (%.1f %%)",
			nz->nr_flagged > 1 ? "them" : "it", fabs(nz->mean_shift) * 100,
			nz->noisy & MB_NOISY_BY_SHIFT ? "more than" : "within",
			nz->shift_bound * 100);
}

void mb_text_noise(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	const struct mb_noise *nz = &sum->noise;

	(void)run;
	if (nz->nr_flagged || nz->noisy) {
		fputs("Noise: ", f);
		if (nz->nr_flagged)
			noise_flagged(f, sum);
		if (nz->noisy & MB_NOISY_BY_SPREAD)
			fprintf(f, "%sthe %s varies by CV %.2f %%, above %.0f %%",
				nz->nr_flagged ? "; " : "", judged_name(sum), nz->cv * 100,
				MB_NOISY_CV * 100);
		fputs(nz->noisy ? ": noisy, rerun on a quieter machine or read the JSON samples\n" :
				  ": not noisy\n", f);
	}
	if (nz->nr_lost_cpu && sum->judged_latency)
		fprintf(f, "CPU: the producers lost their CPU in %d of %d samples; the in-kernel time leaves that out (not flagged)\n",
			nz->nr_lost_cpu, sum->n);
	if (nz->ref_varied > MB_HOST_VARIED)
		fprintf(f, "Host speed: the reference loop varied %.0f %% during the run; this bench's %s varied %.1f %%\n",
			nz->ref_varied * 100, judged_name(sum), nz->varied * 100);
}

const char *mb_text_noise_brief(char *buf, size_t len, const struct mb_summary *sum)
{
	const struct mb_noise *nz = sum ? &sum->noise : NULL;

	if (!nz || !nz->noisy)
		snprintf(buf, len, "%s", "");
	else if (nz->noisy & MB_NOISY_BY_ALL)
		snprintf(buf, len, " (noisy: all %d samples flagged)", sum->n);
	else if (nz->noisy & MB_NOISY_BY_SHIFT)
		snprintf(buf, len, " (noisy: mean %+.1f %% w/o %d flagged)", nz->mean_shift * 100,
			 nz->nr_flagged);
	else
		snprintf(buf, len, " (noisy: %sCV %.2f %%)", sum->judged_latency ? "ns/op " : "",
			 nz->cv * 100);
	return buf;
}

/* hits/drops: count-*, bloom-lookup/update, hashmap-with(out)-bloom */

static void hits_drops_progress(FILE *f, const struct mb_run *run, int iter,
				const struct mb_sample *s)
{
	double hits = mb_sample_rate(s, s->total.hits) / 1e6;
	double drops = mb_sample_rate(s, s->total.misses) / 1e6;

	mb_text_iter_prefix(f, run, iter, s);
	fprintf(f, "hits %8.3lfM/s (%7.3lfM/prod), drops %8.3lfM/s, total operations %8.3lfM/s\n",
		hits, hits / run->nr_producers, drops, hits + drops);
}

/* A Summary figure with its spread over the run's samples. */
static void stat_figure(struct mb_json *figs, const char *name, const char *unit,
			const struct mb_stats *st, int n)
{
	mb_figure_spread(mb_figure(figs, name, unit, st->mean), true, st->stddev, n);
}

/* A Summary figure printed without a spread (a share per producer, a derived latency). */
static void plain_figure(struct mb_json *figs, const char *name, const char *unit, double v,
			 int n)
{
	mb_figure_spread(mb_figure(figs, name, unit, v), false, NAN, n);
}

/* The text's "drops" are the misses, its "total operations" hits + misses. */
static void hits_drops_figures(const struct mb_run *run, const struct mb_summary *sum,
			       struct mb_json *figs)
{
	stat_figure(figs, "hits", "ops/s", &sum->hits, sum->n);
	plain_figure(figs, "hits", "ops/s per producer", sum->hits.mean / run->nr_producers,
		     sum->n);
	stat_figure(figs, "drops", "ops/s", &sum->misses, sum->n);
	stat_figure(figs, "total operations", "ops/s", &sum->total, sum->n);
}

/* Figure @name in ops/s, in M/s, and its spread in @sd (from the figures: the same numbers). */
static double mega(const struct mb_json *figs, const char *name, const char *unit, char *sd)
{
	mb_text_spread(sd, 32, 5, 3, mb_figure_get(figs, name, unit, "stddev") / 1e6);
	return mb_figure_get(figs, name, unit, "value") / 1e6;
}

static void hits_drops_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	struct mb_json *figs = mb_json_array();
	char sd[3][32];
	double hits, drops, total;

	hits_drops_figures(run, sum, figs);
	hits = mega(figs, "hits", "ops/s", sd[0]);
	drops = mega(figs, "drops", "ops/s", sd[1]);
	total = mega(figs, "total operations", "ops/s", sd[2]);
	mb_text_notes(f, run, sum);
	fprintf(f, "Summary: hits %8.3lf " PM " %5sM/s (%7.3lfM/prod), drops %8.3lf " PM
		   " %5sM/s, total operations %8.3lf " PM " %5sM/s\n",
		hits, sd[0], mb_figure_get(figs, "hits", "ops/s per producer", "value") / 1e6,
		drops, sd[1], total, sd[2]);
	mb_json_free(figs);
}

const struct mb_text_style mb_text_hits_drops = {
	.progress = hits_drops_progress,
	.summary = hits_drops_summary,
	.figures = hits_drops_figures,
};

/* ops: throughput and latency */

static void ops_progress(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s)
{
	double rate = mb_sample_rate(s, s->total.ops) / 1e6;

	mb_text_iter_prefix(f, run, iter, s);
	fprintf(f, "hits %8.3lfM/s (%7.3lfM/prod)\n", rate, rate / run->nr_producers);
}

static void ops_figures(const struct mb_run *run, const struct mb_summary *sum,
			struct mb_json *figs)
{
	/*
	 * The kernel derives latency from throughput (1000 / M ops/s per producer). Where the
	 * op was timed in the kernel, the measured in-kernel ns/op is printed instead.
	 */
	double lat = sum->has_kernel ? mb_summary_latency(run, sum) :
				       1e9 / sum->throughput.mean * run->nr_producers;

	stat_figure(figs, "throughput", "ops/s", &sum->throughput, sum->n);
	plain_figure(figs, "throughput", "ops/s per producer",
		     sum->throughput.mean / run->nr_producers, sum->n);
	plain_figure(figs, "latency", "ns/op", lat, sum->n);
}

/* The kernel's "Summary: throughput ..., latency ..." line from @figs, @scale 1e6 for M. */
void mb_text_throughput_line(FILE *f, const struct mb_json *figs, double scale, char unit,
			     double lat_scale, const char *lat_unit)
{
	char sd[32];

	mb_text_num(sd, sizeof(sd), 5, 3,
		    mb_figure_get(figs, "throughput", "ops/s", "stddev") / scale);
	fprintf(f, "Summary: throughput %8.3lf " PM " %5s %c ops/s (%7.3lf%c ops/prod), latency %8.3lf %s/op\n",
		mb_figure_get(figs, "throughput", "ops/s", "value") / scale, sd, unit,
		mb_figure_get(figs, "throughput", "ops/s per producer", "value") / scale, unit,
		mb_figure_get(figs, "latency", "ns/op", "value") / lat_scale, lat_unit);
}

static void ops_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	struct mb_json *figs = mb_json_array();

	ops_figures(run, sum, figs);
	mb_text_notes(f, run, sum);
	mb_text_throughput_line(f, figs, 1e6, 'M', 1, "ns");
	mb_json_free(figs);
}

const struct mb_text_style mb_text_ops = {
	.progress = ops_progress,
	.summary = ops_summary,
	.figures = ops_figures,
};

/* fractional second: rates per second of in-kernel time (refills excluded) */

void mb_text_frac_progress(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s,
			   double scale, char unit)
{
	double rate = s->total.kernel_ns ?
			      (double)s->total.ops / scale / ((double)s->total.kernel_ns / 1e9) : 0;

	mb_text_iter_prefix(f, run, iter, s);
	fprintf(f, "hits %8.3lf%c/s (%7.3lf%c/prod)\n", rate * run->nr_producers, unit, rate, unit);
}

static void frac_progress(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s)
{
	mb_text_frac_progress(f, run, iter, s, 1e6, 'M');
}

void mb_text_frac_figures(const struct mb_run *run, const struct mb_summary *sum,
			  struct mb_json *figs)
{
	const struct mb_stats *rate = &sum->kernel_throughput;

	stat_figure(figs, "throughput", "ops/s", rate, sum->n);
	plain_figure(figs, "throughput", "ops/s per producer", rate->mean / run->nr_producers,
		     sum->n);
	plain_figure(figs, "latency", "ns/op",
		     sum->has_kernel ? mb_summary_latency(run, sum) : 0.0, sum->n);
}

static void frac_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	struct mb_json *figs = mb_json_array();

	mb_text_frac_figures(run, sum, figs);
	mb_text_notes(f, run, sum);
	mb_text_throughput_line(f, figs, 1e6, 'M', 1, "ns");
	mb_json_free(figs);
}

const struct mb_text_style mb_text_frac_second = {
	.progress = frac_progress,
	.summary = frac_summary,
	.figures = mb_text_frac_figures,
};
