// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The cache benches' text, in the kernel's words (its local_storage reporter), so that the
 * kernel's run script reads the Summary unchanged: hits and important_hits in M/s, hits
 * latency the wall-clock ns per get (1000 / M hits per second). mapbench's lines before it
 * never say "hits throughput", "hits latency" or "important_hits throughput": the script's
 * scraper takes the last of each.
 */
#include <math.h>
#include <stdio.h>

#include "core/summary.h"
#include "drivers/trigger.h"
#include "ls_cache.h"
#include "ls_shared.h"
#include "util/json.h"
#include "util/log.h"

#define PM "\u00B1"

/* "Iter   0 (  1.234us): hits   12.345M/s important_hits    1.234M/s" */
static void ls_cache_progress(FILE *f, const struct mb_run *run, int iter,
			      const struct mb_sample *s)
{
	mb_text_iter_prefix(f, run, iter, s);
	fprintf(f, "hits %8.3lfM/s important_hits %8.3lfM/s\n",
		mb_sample_rate(s, s->total.hits) / 1e6,
		mb_sample_rate(s, s->total.counter[LS_COUNTER_IMPORTANT]) / 1e6);
}

/* The kernel's three figures: hits per second, ns per hit, important hits per second. */
static void ls_cache_figures(const struct mb_run *run, const struct mb_summary *sum,
			     struct mb_json *figs)
{
	const struct mb_stats *imp = &sum->counter[LS_COUNTER_IMPORTANT];

	(void)run;
	mb_figure_spread(mb_figure(figs, "hits", "ops/s", sum->throughput.mean), true,
			 sum->throughput.stddev, sum->n);
	mb_figure_spread(mb_figure(figs, "hits latency", "ns/op", 1e9 / sum->throughput.mean),
			 false, NAN, sum->n);
	mb_figure_spread(mb_figure(figs, "important_hits", "ops/s", imp->mean), true,
			 imp->stddev, sum->n);
}

static void ls_cache_notes(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	const struct mb_json *x = run->extra;
	char cv[32];

	if (mb_log_quiet())
		return;
	if (mb_text_notes_begin(f, run, sum))
		fprintf(f, "Spread: hits median %.3fM/s, min %.3f, max %.3f, %s over %d samples\n",
			sum->throughput.median / 1e6, sum->throughput.min / 1e6,
			sum->throughput.max / 1e6, mb_text_cv(cv, sizeof(cv), sum->throughput.cv),
			sum->n);
	fprintf(f, "Trigger: %s on %s(), %d gets per call through bpf_loop, %.0f %s map%s (the kernel's: fentry on getpgid)\n",
		mb_json_str(mb_json_get(x, "trigger"), "?"), MB_TRIGGER_SYSCALL, LS_GETS_PER_RUN,
		mb_json_num(mb_json_get(x, "nr_maps"), 0),
		mb_json_str(mb_json_get(x, "inner_map_type"), "?"),
		mb_json_num(mb_json_get(x, "nr_maps"), 0) == 1 ? "" : "s");
	if (sum->has_kernel)
		fprintf(f, "Latency: in-kernel %.3f ns per get, bpf_loop's callback included; wall-clock %.3f ns per get\n",
			sum->latency_kernel.mean, sum->latency_wall.mean);
	if (sum->sum.errors)
		fprintf(f, "Errors: %llu gets returned NULL (they are not in the hits)\n",
			(unsigned long long)sum->sum.errors);
	mb_text_noise(f, run, sum);
}

/* "Summary: hits throughput X ± Y M ops/s, hits latency L ns/op, important_hits throughput ..." */
static void ls_cache_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	struct mb_json *figs = mb_json_array();
	char sd[2][32];

	ls_cache_figures(run, sum, figs);
	ls_cache_notes(f, run, sum);
	fprintf(f, "Summary: hits throughput %8.3lf " PM " %5s M ops/s, hits latency %8.3lf ns/op, important_hits throughput %8.3lf " PM " %5s M ops/s\n",
		mb_figure_get(figs, "hits", "ops/s", "value") / 1e6,
		mb_text_num(sd[0], sizeof(sd[0]), 5, 3,
			    mb_figure_get(figs, "hits", "ops/s", "stddev") / 1e6),
		mb_figure_get(figs, "hits latency", "ns/op", "value"),
		mb_figure_get(figs, "important_hits", "ops/s", "value") / 1e6,
		mb_text_num(sd[1], sizeof(sd[1]), 5, 3,
			    mb_figure_get(figs, "important_hits", "ops/s", "stddev") / 1e6));
	mb_json_free(figs);
}

const struct mb_text_style ls_cache_text = {
	.progress = ls_cache_progress,
	.summary = ls_cache_summary,
	.figures = ls_cache_figures,
};
