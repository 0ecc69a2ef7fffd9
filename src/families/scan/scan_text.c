// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-scan's lines. Iter: walks per second and the time of one walk in the sample. Before the
 * Summary, from extra.walk: the map, and the figures per walk (time, per present entry, per
 * slot of capacity, syscalls, entries). Summary: the kernel's throughput line, walks in K
 * ops/s and the time of one walk as its latency (ms where a walk takes one or more).
 */
#include <math.h>
#include <stdio.h>

#include "core/bench.h"
#include "core/summary.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"
#include "scan.h"

static void scan_progress(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s)
{
	double rate = mb_sample_rate(s, s->total.ops);

	mb_text_iter_prefix(f, run, iter, s);
	fprintf(f, "walks %10.3lf/s, %12.3lf us per walk\n", rate,
		s->total.ops ? (double)s->total.end_ns / (double)s->total.ops / 1e3 : 0.0);
}

static double num(const struct mb_json *w, const char *key)
{
	return mb_json_num(mb_json_get(w, key), NAN);
}

/* The probe's longest gap during the walks, beside the walker spinning, and the difference. */
static void stall_line(FILE *f, const struct mb_json *t)
{
	const struct mb_json *b = mb_json_get(t, "baseline");

	fprintf(f, "Stall: a thread on the walker's CPU was kept off it for %.3f ms at most during the walks (%.0f gaps of 1 ms or more), ",
		num(t, "longest_ns") / 1e6, num(t, "gaps_over_1ms"));
	if (!(num(b, "probe_ns") > 0)) {
		fprintf(f, "no baseline (the run ended before the walker spun)\n");
		return;
	}
	fprintf(f, "%.3f ms at most beside the walker spinning in user space as long (%.0f gaps): the walks add %.3f ms",
		num(b, "longest_ns") / 1e6, num(b, "gaps_over_1ms"), num(t, "added_ns") / 1e6);
	/* A run shorter than a turn of walks (20 ms): only the spin after the end. */
	if (num(b, "probe_ns") < num(t, "probe_ns") / 4)
		fprintf(f, " (the baseline watched %.3f ms against %.3f ms of walks: too short to compare, give longer samples)",
			num(b, "probe_ns") / 1e6, num(t, "probe_ns") / 1e6);
	fputc('\n', f);
}

static void scan_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *w = mb_json_get(run->extra, "walk"), *c = mb_json_get(w, "churn");
	const struct mb_json *t = mb_json_get(w, "stall");

	if (mb_log_quiet() || !w)
		return;
	fprintf(f, "Map: %s (flags %s), %.0f slots, %.0f entries (%.4g %%)\n",
		mb_json_str(mb_json_get(w, "map_type"), "?"),
		mb_json_str(mb_json_get(w, "map_flags"), "?"), num(w, "max_entries"),
		num(w, "present"), num(w, "fill") * 100);
	fprintf(f, "Walk: %s, %.3f us per walk, %.3f ns per entry, %.4f ns per slot, %.1f syscalls and %.0f entries per walk, %.0f walks, %s\n",
		mb_json_str(mb_json_get(w, "method"), "?"), num(w, "ns_per_walk") / 1e3,
		num(w, "ns_per_entry"), num(w, "ns_per_slot"), num(w, "syscalls_per_walk"),
		num(w, "entries_per_walk"), num(w, "walks"),
		c ? "under change (below)" : "each checked");
	if (c)
		fprintf(f, "Churn: %.0f keys deleted and inserted by another thread (%.0f syscalls); per walk %.3f restarts, %.3f entries seen twice, %.3f missed, %.1f of its keys seen\n",
			num(c, "keys"), num(c, "writer_ops"), num(c, "restarts_per_walk"),
			num(c, "seen_twice_per_walk"), num(c, "missed_per_walk"),
			num(c, "churned_seen") / num(c, "walks"));
	if (t)
		stall_line(f, t);
}

static void scan_figures(const struct mb_run *run, const struct mb_summary *sum,
			 struct mb_json *figs)
{
	mb_text_ops.figures(run, sum, figs);
}

static void scan_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	struct mb_json *figs = mb_json_array();
	bool ms;

	scan_figures(run, sum, figs);
	ms = mb_figure_get(figs, "latency", "ns/op", "value") >= 1e5;
	scan_notes(f, run);
	mb_text_notes(f, run, sum);
	mb_text_throughput_line(f, figs, 1e3, 'K', ms ? 1e6 : 1, ms ? "ms" : "ns");
	mb_json_free(figs);
}

const struct mb_text_style scan_text = {
	.progress = scan_progress,
	.summary = scan_summary,
	.figures = scan_figures,
};
