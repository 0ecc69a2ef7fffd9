// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-in-map-replace's text, from run->extra (live after the run, and in a text document):
 * a header, one Summary line per case with its distribution, then unless -q the waits the
 * updates made, what was checked, and the verdict.
 */
#include <stdio.h>

#include "core/bench.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"

static double num(const struct mb_json *o, const char *key)
{
	return mb_json_num(mb_json_get(o, key), 0);
}

static const char *str(const struct mb_json *o, const char *key)
{
	return mb_json_str(mb_json_get(o, key), "?");
}

/* The figures of one case, in the order its Summary line prints them. */
static const char *const stat_keys[] = { "mean_us", "p50_us", "p90_us", "p99_us", "max_us" };
static const char *const stat_names[] = { "mean", "p50", "p90", "p99", "max" };
#define MIM_STATS	5

static void case_figures(struct mb_json *figs, const struct mb_json *c)
{
	struct mb_json *f = mb_figure(figs, "calls", "calls", num(c, "calls"));

	mb_figure_label_str(f, "case", str(c, "case"));
	for (int k = 0; k < MIM_STATS; k++) {
		f = mb_figure(figs, stat_names[k], "us", num(c, stat_keys[k]));
		mb_figure_label_str(f, "case", str(c, "case"));
	}
}

static void mim_figures(const struct mb_run *run, const struct mb_summary *sum,
			struct mb_json *figs)
{
	const struct mb_json *cases = mb_json_get(run->extra, "cases");

	(void)sum;
	for (size_t i = 0; i < mb_json_len(cases); i++)
		case_figures(figs, mb_json_at(cases, i));
}

static void mim_result(FILE *f, const struct mb_run *run);

static void header(FILE *f, const struct mb_json *x)
{
	const struct mb_json *cpus = mb_json_get(x, "cpus");

	fprintf(f, "%s of %.0f slots holding %s maps of %.0f entries; updater on CPU %.0f",
		str(x, "map_type"), num(x, "max_entries"), str(x, "inner_type"),
		num(x, "inner_entries"), num(cpus, "updater"));
	if (mb_json_is(mb_json_get(x, "reader_not_run"), MB_JSON_STRING))
		fprintf(f, "; no reader case: %s\n", str(x, "reader_not_run"));
	else
		fprintf(f, ", reader on CPU %.0f\n", num(cpus, "reader"));
}

/* "replace: synchronize_rcu 1000 (45.1 us each), synchronize_rcu_expedited 1000 (...)". */
static void waits_line(FILE *f, const struct mb_json *c)
{
	static const char *const fn[] = { "synchronize_rcu", "synchronize_rcu_expedited" };

	fprintf(f, "Waits: %s: %.0f calls made", str(c, "case"), num(c, "calls"));
	for (int k = 0; k < 2; k++) {
		const struct mb_json *w = mb_json_get(c, fn[k]);
		double calls = num(w, "calls");

		fprintf(f, "%s %s() %.0f times", k ? "," : "", fn[k], calls);
		if (calls > 0)
			fprintf(f, " (%.1f us each)", num(w, "total_us") / calls);
	}
	fputc('\n', f);
}

/* Whether the calls blocked: voluntary context switches, and time off the CPU. */
static void blocked_line(FILE *f, const struct mb_json *cases)
{
	fprintf(f, "Blocked (sleeps per call, off-CPU us per call):");
	for (size_t i = 0; i < mb_json_len(cases); i++) {
		const struct mb_json *c = mb_json_at(cases, i);

		fprintf(f, "%s %s %.2f, %.1f", i ? ";" : "", str(c, "case"),
			num(c, "sleeps_per_call"), num(c, "offcpu_mean_us"));
	}
	fputc('\n', f);
}

static void checked_line(FILE *f, const struct mb_json *cases)
{
	fprintf(f, "Checked: read back as written");
	for (size_t i = 0; i < mb_json_len(cases); i++) {
		const struct mb_json *c = mb_json_at(cases, i);

		fprintf(f, "%s %s %.0f/%.0f", i ? "," : "", str(c, "case"), num(c, "verified"),
			num(c, "calls"));
	}
	for (size_t i = 0, n = 0; i < mb_json_len(cases); i++) {
		const struct mb_json *c = mb_json_at(cases, i);

		if (!mb_json_is(mb_json_get(c, "old_ids_gone"), MB_JSON_NUMBER))
			continue;
		fprintf(f, "%s %s %.0f/%.0f", n++ ? "," : "; the old inner map's id gone on return",
			str(c, "case"),
			num(c, "old_ids_gone"), num(c, "calls"));
	}
	fputc('\n', f);
}

static void mim_partial(FILE *f, const struct mb_run *run, const void *what)
{
	(void)what;
	mim_result(f, run);
}

static void mim_result(FILE *f, const struct mb_run *run)
{
	const struct mb_json *x = run->extra, *cases = mb_json_get(x, "cases");
	struct mb_json *figs = mb_json_array();
	bool detail = !mb_log_quiet();

	if (detail)
		header(f, x);
	mim_figures(run, NULL, figs);
	for (size_t i = 0; i < mb_json_len(cases); i++) {
		const struct mb_json *c = mb_json_at(cases, i);
#define FIG(k) mb_json_num(mb_json_get(mb_json_at(figs, i * (MIM_STATS + 1) + (k)), "value"), 0)
		fprintf(f, "Summary: %s: %.0f calls, mean %.3f us, p50 %.3f us, p90 %.3f us, p99 %.3f us, max %.3f us%s\n",
			str(c, "case"), FIG(0), FIG(1), FIG(2), FIG(3), FIG(4), FIG(5),
			mb_json_truthy(mb_json_get(c, "capped")) ? " (stopped at --max_case_ms)" : "");
#undef FIG
	}
	mb_json_free(figs);
	if (!detail)
		return;
	for (size_t i = 0; i < mb_json_len(cases); i++)
		if (mb_json_is(mb_json_get(mb_json_at(cases, i), "synchronize_rcu"), MB_JSON_OBJECT))
			waits_line(f, mb_json_at(cases, i));
	blocked_line(f, cases);
	checked_line(f, cases);
	fprintf(f, "Verdict: %s\n", str(mb_json_get(x, "verdict"), "sentence"));
}

const struct mb_text_style mim_text = {
	.result = mim_result,
	.partial = mim_partial,
	.figures = mim_figures,
};
