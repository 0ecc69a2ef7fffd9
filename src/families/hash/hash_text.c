// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Hash family: its text lines. The kernel's Iter and Summary lines (the user paths' rates per
 * second of the producers' CPU time), the Map line from the run's extra, and the lines of the
 * kernel's own bpf-hashmap-* benches from extra.per_producer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "util/json.h"
#include "util/log.h"
#include "util/stats.h"
#include "core/summary.h"
#include "output/report.h"

static bool uses_refills(const struct mb_run *run)
{
	enum hash_op op = hash_bench_op(run->bench);

	return op == HASH_INSERT || op == HASH_DELETE;
}

static void hash_progress(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s)
{
	const struct hash_args *a = run->args;
	double rate;

	if (a->path == HASH_PATH_KERNEL) {
		/* Inserts and deletes: per second of in-kernel time, refills excluded. */
		if (uses_refills(run))
			mb_text_frac_second.progress(f, run, iter, s);
		else
			mb_text_ops.progress(f, run, iter, s);
		return;
	}
	/* Per second of the producers' CPU time, like the in-kernel rates. */
	rate = s->metric[0] > 0 ? 1e3 / s->metric[0] * run->nr_producers : 0;
	mb_text_iter_prefix(f, run, iter, s);
	fprintf(f, "hits %8.3lfM/s (%7.3lfM/prod)\n", rate, rate / run->nr_producers);
}

static void hash_map_line(FILE *f, const struct mb_run *run)
{
	const struct hash_args *a = run->args;
	struct mb_json *extra = run->extra;
	struct mb_json *mem = mb_json_get(mb_json_get(extra, "memory"), "map");
	struct mb_json *setup = mb_json_get(extra, "setup"), *bpe;
	char flags[128], per[48];

	if (mb_log_quiet() || !mem)
		return;
	mb_map_flags_format(a->map_flags, flags, sizeof(flags));
	fprintf(f, "Map: %s%s%s, flags %s, %u entries", a->map_type->name,
		a->map_type->map_in_map ? " of " : "",
		a->map_type->map_in_map ? a->inner_type->name : "", flags, a->max_entries);
	if (a->max_entries_headroom)
		fprintf(f, " (%u asked + %u LRU head room)", a->max_entries - a->max_entries_headroom,
			a->max_entries_headroom);
	if (hash_bench_op(run->bench) == HASH_INSERT)
		fprintf(f, " (empty, %u keys inserted per round)", a->nr_entries);
	else
		fprintf(f, " (%u filled)", a->nr_entries);
	bpe = mb_json_get(mem, "bytes_per_entry");
	if (mb_json_is(bpe, MB_JSON_NUMBER))
		snprintf(per, sizeof(per), "%.1f B/entry", mb_json_num(bpe, 0));
	else
		snprintf(per, sizeof(per), "empty: no B/entry");
	fprintf(f, ", key %u B, value %u B: memlock %.0f B (%s); setup %.1f ms (create %.1f ms, fill %.1f ms)\n",
		a->key_size, a->value_size, mb_json_num(mb_json_get(mem, "memlock_bytes"), 0), per,
		mb_json_num(mb_json_get(extra, "setup_ns"), 0) / 1e6,
		mb_json_num(mb_json_get(setup, "create_ns"), 0) / 1e6,
		mb_json_num(mb_json_get(setup, "fill_ns"), 0) / 1e6);
}

/*
 * The user paths' figures: rates per second of the producers' CPU time spent on the ops (a
 * thread waiting for a CPU does not lower them), and that time per op.
 */
static void user_figures(const struct mb_run *run, const struct mb_summary *sum,
			 struct mb_json *figs)
{
	struct mb_stats rate = {};
	double *v;
	int n = 0;

	v = calloc((size_t)run->nr_samples + 1, sizeof(*v));
	for (int i = 0; v && i < run->nr_samples; i++) {
		const struct mb_sample *s = &run->samples[i];

		if (!s->warmup && s->metric[0] > 0)
			v[n++] = 1e9 / s->metric[0] * run->nr_producers;
	}
	if (!v || mb_stats_compute(v, (size_t)n, &rate))
		memset(&rate, 0, sizeof(rate));
	free(v);
	mb_figure_spread(mb_figure(figs, "throughput", "ops/s", rate.mean), true, rate.stddev,
			 sum->n);
	mb_figure_spread(mb_figure(figs, "throughput", "ops/s per producer",
				   rate.mean / run->nr_producers), false, NAN, sum->n);
	mb_figure_spread(mb_figure(figs, "latency", "ns/op",
				   sum->has_metric[0] ? sum->metric[0].mean : 0.0), false, NAN,
			 sum->n);
}

static void hash_figures(const struct mb_run *run, const struct mb_summary *sum,
			 struct mb_json *figs)
{
	const struct hash_args *a = run->args;

	if (a->path != HASH_PATH_KERNEL)
		user_figures(run, sum, figs);
	else if (uses_refills(run))
		mb_text_frac_second.figures(run, sum, figs);
	else
		mb_text_ops.figures(run, sum, figs);
}

static void hash_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	const struct hash_args *a = run->args;
	struct mb_json *figs;

	hash_map_line(f, run);
	if (a->path == HASH_PATH_KERNEL) {
		if (uses_refills(run))
			mb_text_frac_second.summary(f, run, sum);
		else
			mb_text_ops.summary(f, run, sum);
		return;
	}
	mb_text_notes(f, run, sum);
	if (!mb_log_quiet())
		fprintf(f, "Timing: per CPU time of the producer threads (they ran %.0f %% of the wall time; wall-clock %.3f M ops/s)%s\n",
			sum->has_metric[1] ? 100 * sum->metric[1].mean : 0.0,
			sum->throughput.mean / 1e6,
			uses_refills(run) ? ", refills of their key ranges excluded" : "");
	figs = mb_json_array();
	user_figures(run, sum, figs);
	mb_text_throughput_line(f, figs, 1e6, 'M', 1, "ns");
	mb_json_free(figs);
}

const struct mb_text_style hash_text = {
	.progress = hash_progress,
	.summary = hash_summary,
	.figures = hash_figures,
};

/* ---- the kernel's bpf-hashmap-* benches ---- */

/* Producer @p's rate from extra.per_producer; false if not measured. */
static bool producer_rate(const struct mb_run *run, int p, double *mean, double *sd, int *n)
{
	const struct mb_json *e = mb_json_get(mb_json_at(mb_json_get(run->extra, "per_producer"),
							  (size_t)p), "events_per_sec");

	if (!e || !mb_json_is(e, MB_JSON_OBJECT))
		return false;
	*mean = mb_json_num(mb_json_get(e, "mean"), 0);
	*sd = mb_json_num(mb_json_get(e, "stddev"), NAN);
	*n = (int)mb_json_num(mb_json_get(e, "n"), 0);
	return true;
}

static void hml_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	for (int p = 0; p < run->nr_producers; p++) {
		int cpu = run->prod[p].cpu, n;
		double mean, sd;
		char sds[32];

		if (!producer_rate(run, p, &mean, &sd, &n))
			continue;
		/* The kernel bench's lines; +- is one stddev here (the kernel prints two). */
		if (mb_log_quiet() && cpu >= 0)
			fprintf(f, "%.3lf\n", mean / 1e6);
		else if (mb_log_quiet())
			fprintf(f, "prod%02d %.3lf\n", p, mean / 1e6);
		else
			fprintf(f, "%s%02d: lookup %.3lfM \u00B1 %sM events/sec (mean \u00B1 stddev of %d sample%s of %u ms, in-kernel time)\n",
				cpu >= 0 ? "cpu" : "prod", cpu >= 0 ? cpu : p, mean / 1e6,
				mb_text_spread(sds, sizeof(sds), 0, 3, sd / 1e6),
				n, n == 1 ? "" : "s", run->env->interval_ms);
	}
	mb_text_ops.summary(f, run, sum);
}

static void fu_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	for (int p = 0; p < run->nr_producers; p++) {
		int cpu = run->prod[p].cpu, n;
		double mean, sd;
		char sds[32];

		if (!producer_rate(run, p, &mean, &sd, &n))
			continue;
		/* One sample: the spread is unknown ("n/a"), not a number. */
		mb_text_num(sds, sizeof(sds), 0, 0, sd);
		fprintf(f, "%d:hash_map_full_perf %lld events per sec (\u00B1 %s, %d sample%s)\n",
			cpu >= 0 ? cpu : p, (long long)llround(mean), sds, n, n == 1 ? "" : "s");
	}
	mb_text_ops.summary(f, run, sum);
}

static void kb_progress(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s)
{
	mb_text_ops.progress(f, run, iter, s);
}

/* The kernel benches' own lines before the Summary are per producer; the Summary's are these. */
static void kb_figures(const struct mb_run *run, const struct mb_summary *sum,
		       struct mb_json *figs)
{
	mb_text_ops.figures(run, sum, figs);
}

const struct mb_text_style hash_text_hml = {
	.progress = kb_progress,
	.summary = hml_summary,
	.figures = kb_figures,
};

const struct mb_text_style hash_text_fu = {
	.progress = kb_progress,
	.summary = fu_summary,
	.figures = kb_figures,
};
