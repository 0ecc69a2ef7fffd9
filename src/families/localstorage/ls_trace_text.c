// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-tasks-trace's text: the kernel bench's Iter and SUMMARY lines, same wording,
 * units and tabs (latency per sample in ns, the summary in us), from the samples' metrics;
 * before them mapbench's notes. A figure without a grace period behind it prints "n/a" where
 * the kernel's would print nan; the ticks lines only with --kthread_pid, where the kernel's
 * print 0 for ticks it did not read.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/bench.h"
#include "core/summary.h"
#include "ls_trace.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"

void ls_trace_print_iter(FILE *f, int iter, double gp_ns, double gp, double ticks, bool ticks_on)
{
	char num[32];

	fprintf(f, "Iter %d\t avg tasks_trace grace period latency\t%s ns\n", iter,
		mb_text_num(num, sizeof(num), 0, 6, gp > 0 ? gp_ns / gp : NAN));
	if (ticks_on)
		fprintf(f, "Iter %d\t avg ticks per tasks_trace grace period\t%s\n", iter,
			mb_text_num(num, sizeof(num), 0, 6, gp > 0 ? ticks / gp : NAN));
}

void ls_trace_print_summary(FILE *f, const struct ls_trace_stat *lat,
			    const struct ls_trace_stat *ticks, bool ticks_on)
{
	char m[32], sd[32];

	fprintf(f, "SUMMARY tasks_trace grace period latency\tavg %s us\tstddev %s us\n",
		mb_text_num(m, sizeof(m), 0, 3, lat->mean),
		mb_text_num(sd, sizeof(sd), 0, 3, lat->stddev));
	if (ticks_on)
		fprintf(f, "SUMMARY ticks per tasks_trace grace period\tavg %s\tstddev %s\n",
			mb_text_num(m, sizeof(m), 0, 3, ticks->mean),
			mb_text_num(sd, sizeof(sd), 0, 3, ticks->stddev));
}

static bool ticks_on(const struct mb_run *run)
{
	return ((const struct ls_trace_args *)run->args)->kthread_pid != 0;
}

static void lst_progress(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s)
{
	ls_trace_print_iter(f, iter, s->metric[LS_TRACE_M_GP_NS], s->metric[LS_TRACE_M_GP],
			    s->metric[LS_TRACE_M_TICKS], ticks_on(run));
}

/* The measured samples' latency (us) and ticks per grace period, and their statistics. */
static void lst_stats(const struct mb_run *run, struct ls_trace_stat *lat,
		      struct ls_trace_stat *ticks)
{
	double *l = calloc((size_t)run->nr_samples + 1, sizeof(*l));
	double *t = calloc((size_t)run->nr_samples + 1, sizeof(*t));
	int n = 0;

	for (int i = 0; l && t && i < run->nr_samples; i++) {
		const struct mb_sample *s = &run->samples[i];

		if (s->warmup)
			continue;
		l[n] = ls_trace_gp_us(s->metric[LS_TRACE_M_GP_NS], s->metric[LS_TRACE_M_GP]);
		t[n++] = s->metric[LS_TRACE_M_GP] > 0 ?
			 s->metric[LS_TRACE_M_TICKS] / s->metric[LS_TRACE_M_GP] : NAN;
	}
	ls_trace_stat(l, n, lat);
	ls_trace_stat(t, n, ticks);
	free(l);
	free(t);
}

static void lst_figures(const struct mb_run *run, const struct mb_summary *sum,
			struct mb_json *figs)
{
	struct ls_trace_stat lat, ticks;

	(void)sum;
	lst_stats(run, &lat, &ticks);
	mb_figure_spread(mb_figure(figs, "grace period latency", "us", lat.mean), true,
			 lat.stddev, lat.n);
	if (ticks_on(run))
		mb_figure_spread(mb_figure(figs, "ticks per grace period", "ticks", ticks.mean),
				 true, ticks.stddev, ticks.n);
}

static void lst_notes(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	const struct mb_json *x = run->extra;

	if (mb_log_quiet())
		return;
	mb_text_notes(f, run, sum);
	fprintf(f, "Sleepers: %.0f processes (our pid %.0f), %.0f storage runs of theirs; producer: %.0f\n",
		mb_json_num(mb_json_get(x, "nr_procs"), NAN), mb_json_num(mb_json_get(x, "pid"), NAN),
		mb_json_num(mb_json_get(x, "sleeper_gets"), NAN), (double)sum->sum.ops);
	fprintf(f, "Grace periods: %.0f timed by %s\n",
		mb_json_num(mb_json_get(x, "grace_periods"), NAN),
		mb_json_str(mb_json_get(x, "gp_attach"), "?"));
}

static void lst_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	struct mb_json *figs = mb_json_array();
	struct ls_trace_stat lat = { 0 }, ticks = { 0 };

	lst_figures(run, sum, figs);
	lat.mean = mb_figure_get(figs, "grace period latency", "us", "value");
	lat.stddev = mb_figure_get(figs, "grace period latency", "us", "stddev");
	ticks.mean = mb_figure_get(figs, "ticks per grace period", "ticks", "value");
	ticks.stddev = mb_figure_get(figs, "ticks per grace period", "ticks", "stddev");
	lst_notes(f, run, sum);
	ls_trace_print_summary(f, &lat, &ticks, ticks_on(run));
	mb_json_free(figs);
}

const struct mb_text_style ls_trace_text = {
	.progress = lst_progress,
	.summary = lst_summary,
	.figures = lst_figures,
};
