// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The bloom family's text lines: the filter, the false positives, the speed-up and a failed
 * check before the kernel's Summary line (not with -q), from what bloom_result.c stored in
 * run->extra; and the kernel's false hits reporter, from the family's own counter.
 */
#include <math.h>
#include <stdio.h>

#include "bloom.h"
#include "core/runner.h"
#include "core/summary.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"

static double num(const struct mb_json *o, const char *key)
{
	return mb_json_num(mb_json_get(o, key), NAN);
}

static void bl_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *o;

	if (mb_log_quiet())
		return;
	o = mb_json_get(run->extra, "filter");
	if (o)
		fprintf(f, "Filter: %.0f bits (%.0f bytes, %.2f bits/entry) for %.0f entries, %.0f hash functions (optimal %.1f): theoretical false-positive rate %.4f %%\n",
			num(o, "nr_bits"), num(o, "bitset_bytes"), num(o, "bits_per_entry"),
			num(o, "nr_entries"), num(o, "nr_hash_funcs"), num(o, "optimal_hash_funcs"),
			num(o, "theoretical_fp_rate") * 100);
	o = mb_json_get(run->extra, "false_positive");
	if (o && mb_json_is(mb_json_get(o, "rate"), MB_JSON_NUMBER))
		fprintf(f, "False positives: %.4f %% measured (%.0f of %.0f lookups of absent values), %.4f %% in theory (measured / theory %.3f)\n",
			num(o, "rate") * 100, num(o, "false_hits"), num(o, "absent_lookups"),
			num(o, "theoretical_rate") * 100, num(o, "rate_over_theory"));
	o = mb_json_get(run->extra, "speedup");
	if (mb_json_is(o, MB_JSON_OBJECT))
		fprintf(f, "Speed-up: with bloom %.3f ns/op, without %.3f ns/op: %.3fx (%+.1f %%) at hit ratio %.2f, median of %.0f interleaved rounds (p5 %.3fx, p95 %.3fx)\n",
			num(mb_json_get(o, "with_ns_per_op"), "median"),
			num(mb_json_get(o, "without_ns_per_op"), "median"), num(o, "ratio"),
			num(o, "percent"), num(o, "hit_ratio"), num(o, "rounds"),
			num(o, "ratio_p5"), num(o, "ratio_p95"));
	o = mb_json_get(run->extra, "check");
	if (o && !mb_json_truthy(mb_json_get(o, "ok")))
		fprintf(f, "Check: FAILED: %.0f hits where %.0f inserted values were looked up, %.0f errors\n",
			num(o, "hits"), num(o, "expected_hits"), num(o, "errors"));
}

/* The kernel's reporter with the bloom lines before its Summary. */
MB_TEXT_WITH_NOTES(bl_text_hits_drops, mb_text_hits_drops, bl_notes);

/* The kernel's false hits reporter (bloom-false-positive), from the family's own counter. */

static double false_pct(uint64_t fh, uint64_t total)
{
	return total ? (double)fh * 100.0 / (double)total : 0;
}

static void false_hits_progress(FILE *f, const struct mb_run *run, int iter,
				const struct mb_sample *s)
{
	uint64_t fh = s->total.counter[BL_FALSE_HITS];
	uint64_t total = fh + s->total.hits + s->total.misses;

	mb_text_iter_prefix(f, run, iter, s);
	fprintf(f, "%ld false hits of %ld total operations. Percentage = %2.2f %%\n",
		(long)fh, (long)total, false_pct(fh, total));
}

/* A count over the measured samples, shown without a spread. */
static void count_figure(struct mb_json *figs, const char *name, const char *unit, double v,
			 int n)
{
	mb_figure_spread(mb_figure(figs, name, unit, v), false, NAN, n);
}

/* Counts over the measured samples, not means: the kernel's line sums them. */
static void false_hits_figures(const struct mb_run *run, const struct mb_summary *sum,
			       struct mb_json *figs)
{
	uint64_t fh = sum->sum.counter[BL_FALSE_HITS];
	uint64_t total = fh + sum->sum.hits + sum->sum.misses;

	(void)run;
	count_figure(figs, "false hits", "ops", (double)fh, sum->n);
	count_figure(figs, "total operations", "ops", (double)total, sum->n);
	count_figure(figs, "Percentage", "%", false_pct(fh, total), sum->n);
}

static void false_hits_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	struct mb_json *figs = mb_json_array();

	false_hits_figures(run, sum, figs);
	bl_notes(f, run);
	mb_text_notes(f, run, sum);
	fprintf(f, "Summary: %ld false hits of %ld total operations. Percentage =  %2.2f %%\n",
		(long)mb_figure_get(figs, "false hits", "ops", "value"),
		(long)mb_figure_get(figs, "total operations", "ops", "value"),
		mb_figure_get(figs, "Percentage", "%", "value"));
	mb_json_free(figs);
}

const struct mb_text_style bl_text_false_hits = {
	.progress = false_hits_progress,
	.summary = false_hits_summary,
	.figures = false_hits_figures,
};
