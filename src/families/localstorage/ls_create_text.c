// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-create's text lines: the kernel's Iter and Summary wording and units, and
 * before the Summary mapbench's notes (the create hook, the kmalloc counter or its fallback).
 * Rendered from the samples, the summary and extra: ls_create.c measures, this file writes.
 */
#include <math.h>
#include <stdio.h>

#include "core/bench.h"
#include "core/summary.h"
#include "ls_create.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"

#define PM "\u00B1"

static double extra_num(const struct mb_run *run, const char *key)
{
	return mb_json_num(mb_json_get(run->extra, key), NAN);
}

static const char *extra_str(const struct mb_run *run, const char *key)
{
	return mb_json_str(mb_json_get(run->extra, key), NULL);
}

static void lsc_progress(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s)
{
	double rate = mb_sample_rate(s, s->total.ops) / 1e3;
	double km = s->total.ops ? s->metric[LSC_M_KMALLOCS] / (double)s->total.ops : NAN;
	char num[32];

	mb_text_iter_prefix(f, run, iter, s);
	fprintf(f, "creates %8.3lfk/s (%7.3lfk/prod), %s kmallocs/create\n", rate,
		rate / run->nr_producers, mb_text_num(num, sizeof(num), 3, 2, km));
}

/* The creates' rate, per producer, and kmallocs per create (null without a counter). */
static void lsc_figures(const struct mb_run *run, const struct mb_summary *sum,
			struct mb_json *figs)
{
	mb_figure_spread(mb_figure(figs, "creates", "ops/s", sum->throughput.mean), true,
			 sum->throughput.stddev, sum->n);
	mb_figure_spread(mb_figure(figs, "creates", "ops/s per producer",
				   sum->prod_throughput.mean), false, NAN, sum->n);
	mb_figure_spread(mb_figure(figs, "kmallocs", "kmallocs/create",
				   extra_num(run, "kmallocs_per_create")), false, NAN, sum->n);
}

static void lsc_notes(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	const char *note = extra_str(run, "create_hook_note");
	const char *counter = extra_str(run, "kmalloc_counter");
	double kmem = extra_num(run, "kmem_bytes_per_create");

	if (mb_log_quiet())
		return;
	mb_text_notes(f, run, sum);
	fprintf(f, "Create hook: %s", extra_str(run, "create_hook"));
	fprintf(f, note ? " (%s)\n" : "\n", note);
	if (counter) {
		fprintf(f, "Kmallocs: %s: %s\n", counter,
			mb_json_str(mb_json_get(run->extra, "kmalloc_scope"), "") [0] == 'a' ?
			"every process's, as the kernel counts them (other load on the host counts too)" :
			"this process's (--kmalloc_scope all counts every process's, as the kernel)");
		return;
	}
	fprintf(f, "Kmallocs: no kmalloc tracepoint program loads here (%s): ",
		extra_str(run, "kmalloc_unavailable"));
	if (!isnan(kmem))
		fprintf(f, "the memory cgroup's kmem bytes per create are shown instead: %.1f B/create (what stayed charged: a freed storage returns after an RCU grace period)\n",
			kmem);
	else
		fprintf(f, "nor a memory cgroup figure (%s)\n", extra_str(run, "memcg_unavailable"));
}

static void lsc_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	struct mb_json *figs = mb_json_array();
	double owner_errs = extra_num(run, "owner_errs"), create_errs = extra_num(run, "create_errs");
	char sd[32], km[32];

	lsc_figures(run, sum, figs);
	lsc_notes(f, run, sum);
	fprintf(f, "Summary: creates %8.3lf " PM " %5sk/s (%7.3lfk/prod), %s kmallocs/create\n",
		mb_figure_get(figs, "creates", "ops/s", "value") / 1e3,
		mb_text_spread(sd, sizeof(sd), 5, 3,
			       mb_figure_get(figs, "creates", "ops/s", "stddev") / 1e3),
		mb_figure_get(figs, "creates", "ops/s per producer", "value") / 1e3,
		mb_text_num(km, sizeof(km), 4, 2,
			    mb_figure_get(figs, "kmallocs", "kmallocs/create", "value")));
	/* As the kernel: a line of its own when an owner or a storage could not be made. */
	if (owner_errs > 0 || create_errs > 0)
		fprintf(f, "%s() errors %.0f create_errs %.0f\n", extra_str(run, "owner_call"),
			owner_errs, create_errs);
	mb_json_free(figs);
}

const struct mb_text_style ls_create_text = {
	.progress = lsc_progress,
	.summary = lsc_summary,
	.figures = lsc_figures,
};
