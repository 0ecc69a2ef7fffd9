// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * htab-mem's text lines, in the kernel's wording and units, rendered from a sample or from the
 * run's summary and extra.memcg: htab_mem.c measures, this file writes.
 */
#include <math.h>
#include <stdio.h>

#include "htab_mem_shared.h"
#include "core/bench.h"
#include "core/summary.h"
#include "util/json.h"
#include "util/log.h"
#include "mem.h"
#include "output/report.h"

#define PM "\u00B1"

static double memcg_figure(const struct mb_run *run, const char *key)
{
	const struct mb_json *mc = mb_json_get(run->extra, "memcg");

	return mb_json_num(mb_json_get(mc, key), NAN);
}

static void htab_mem_progress(FILE *f, const struct mb_run *run, int iter,
			      const struct mb_sample *s)
{
	double loop = mb_sample_rate(s, s->total.ops) / run->nr_producers / 1e3;

	mb_text_iter_prefix(f, run, iter, s);
	if (isnan(s->metric[0]))
		fprintf(f, "per-prod-op %7.2lfk/s, memory usage unavailable\n", loop);
	else
		fprintf(f, "per-prod-op %7.2lfk/s, memory usage %7.2lfMiB\n", loop,
			s->metric[0] / MB_MIB);
}

static void htab_mem_notes(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	const struct mb_json *mc = mb_json_get(run->extra, "memcg");
	const struct mb_stats *t = &sum->prod_throughput;
	double memlock = mb_json_num(mb_json_get(mb_json_get(mb_json_get(run->extra, "memory"),
							     "htab"), "memlock_bytes"), NAN);

	if (mb_log_quiet())
		return;
	if (mb_text_notes_begin(f, run, sum))
		fprintf(f, "Spread: per-prod-op median %.2fk/s, min %.2f, max %.2f, CV %.2f %% over %d samples\n",
			t->median / 1e3, t->min / 1e3, t->max / 1e3, t->cv * 100, sum->n);
	if (sum->has_kernel)
		fprintf(f, "Latency: in-kernel %.3f us per op (%d map operations, %.1f ns each), wall-clock %.3f us per op\n",
			sum->latency_kernel.mean / 1e3, MB_HTAB_BATCH,
			sum->latency_kernel.mean / MB_HTAB_BATCH, sum->latency_wall.mean / 1e3);
	if (sum->sum.errors)
		fprintf(f, "Errors: %llu map operations failed (a full map, or a missing key)\n",
			(unsigned long long)sum->sum.errors);
	mb_text_noise(f, run, sum);
	if (!mb_json_truthy(mb_json_get(mc, "available"))) {
		fprintf(f, "Memory: unavailable: %s\n",
			mb_json_str(mb_json_get(mc, "reason"), "no memory cgroup"));
		return;
	}
	fprintf(f, "Memory: cgroup %s %s (usage: %s)", mb_json_str(mb_json_get(mc, "version"), ""),
		mb_json_str(mb_json_get(mc, "path"), ""),
		mb_json_str(mb_json_get(mc, "usage_file"), ""));
	if (sum->has_metric[1])
		fprintf(f, ", kernel memory %.2f MiB", sum->metric[1].mean / MB_MIB);
	fprintf(f, ", %.2f MiB after set-up", memcg_figure(run, "setup_bytes") / MB_MIB);
	if (!isnan(memlock))
		fprintf(f, "; the map's memlock %.2f MiB", memlock / MB_MIB);
	fputc('\n', f);
}

/* The kernel's three figures: ops per producer, the cgroup's usage (mean) and peak. */
static void htab_mem_figures(const struct mb_run *run, const struct mb_summary *sum,
			     struct mb_json *figs)
{
	const struct mb_stats *mem = &sum->metric[0];

	mb_figure_spread(mb_figure(figs, "per-prod-op", "ops/s", sum->prod_throughput.mean), true,
			 sum->prod_throughput.stddev, sum->n);
	mb_figure_spread(mb_figure(figs, "memory usage", "bytes",
				   sum->has_metric[0] ? mem->mean : NAN),
			 true, sum->has_metric[0] ? mem->stddev : NAN, sum->n);
	mb_figure_spread(mb_figure(figs, "peak memory usage", "bytes",
				   memcg_figure(run, "peak_bytes")), false, NAN, sum->n);
}

static void htab_mem_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	struct mb_json *figs = mb_json_array();
	double mem, peak;
	char sd[32];

	htab_mem_figures(run, sum, figs);
	mem = mb_figure_get(figs, "memory usage", "bytes", "value");
	peak = mb_figure_get(figs, "peak memory usage", "bytes", "value");
	htab_mem_notes(f, run, sum);
	fprintf(f, "Summary: per-prod-op %7.2lf " PM " %7sk/s, ",
		mb_figure_get(figs, "per-prod-op", "ops/s", "value") / 1e3,
		mb_text_spread(sd, sizeof(sd), 7, 2,
			       mb_figure_get(figs, "per-prod-op", "ops/s", "stddev") / 1e3));
	if (!isnan(mem))
		fprintf(f, "memory usage %7.2lf " PM " %7sMiB, ", mem / MB_MIB,
			mb_text_spread(sd, sizeof(sd), 7, 2,
				       mb_figure_get(figs, "memory usage", "bytes", "stddev") /
					       MB_MIB));
	else
		fprintf(f, "memory usage unavailable, ");
	if (isnan(peak))
		fprintf(f, "peak memory usage unavailable\n");
	else
		fprintf(f, "peak memory usage %7.2lfMiB\n", peak / MB_MIB);
	mb_json_free(figs);
}

const struct mb_text_style htab_mem_text = {
	.progress = htab_mem_progress,
	.summary = htab_mem_summary,
	.figures = htab_mem_figures,
};
