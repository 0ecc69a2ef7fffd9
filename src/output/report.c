// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The result document (docs/output.md): one builder, written as JSON, CSV or text. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/env.h"
#include "util/json.h"
#include "util/log.h"
#include "drivers/kloop.h"
#include "drivers/loop_diag.h"
#include "util/outfile.h"
#include "report.h"
#include "core/summary.h"

static const char *const status_names[] = {
	[MB_RUN_OK] = "ok",
	[MB_RUN_SKIPPED] = "skipped",
	[MB_RUN_FAILED] = "failed",
	[MB_RUN_INTERRUPTED] = "interrupted",
};

static struct mb_json *stats_json(const struct mb_stats *st, const char *unit)
{
	struct mb_json *o;

	if (!st->n)
		return mb_json_null();
	o = mb_json_object();
	mb_json_set_str(o, "unit", unit);
	mb_json_set_num(o, "mean", st->mean);
	/* Over one sample the spread is unknown: null, not 0. */
	mb_json_set(o, "stddev", isnan(st->stddev) ? mb_json_null() : mb_json_number(st->stddev));
	mb_json_set_num(o, "median", st->median);
	mb_json_set_num(o, "min", st->min);
	mb_json_set_num(o, "max", st->max);
	mb_json_set(o, "cv", isnan(st->cv) ? mb_json_null() : mb_json_number(st->cv));
	mb_json_set_num(o, "p5", st->p5);
	mb_json_set_num(o, "p95", st->p95);
	mb_json_set_num(o, "n", (double)st->n);
	return o;
}

/* The counters @bench declares, by their names: {} where it declares none. */
static struct mb_json *own_counters_json(const struct mb_bench *bench, const struct mb_counters *c)
{
	struct mb_json *o = mb_json_object();

	for (int k = 0; k < mb_bench_nr_counters(bench); k++)
		mb_json_set_num(o, bench->counters[k].name, (double)c->counter[k]);
	return o;
}

static void counters_json(struct mb_json *o, const struct mb_bench *bench,
			  const struct mb_counters *c)
{
	mb_json_set_num(o, "ops", (double)c->ops);
	mb_json_set_num(o, "hits", (double)c->hits);
	mb_json_set_num(o, "misses", (double)c->misses);
	mb_json_set_num(o, "errors", (double)c->errors);
	mb_json_set(o, "counters", own_counters_json(bench, c));
	mb_json_set_num(o, "kernel_ns", (double)c->kernel_ns);
	mb_json_set_num(o, "excluded_ns", (double)c->excluded_ns);
	mb_json_set_num(o, "calls", (double)c->calls);
	mb_json_set_num(o, "ref_ops", (double)c->ref_ops);
	mb_json_set_num(o, "ref_ns", (double)c->ref_ns);
	mb_json_set_num(o, "cpu_ns", (double)c->cpu_ns);
	mb_json_set_num(o, "wait_ns", (double)c->wait_ns);
}

static struct mb_json *num_or_null(double v)
{
	return isnan(v) ? mb_json_null() : mb_json_number(v);
}

static struct mb_json *sample_flags_json(unsigned int flags)
{
	struct mb_json *a = mb_json_array();

	if (flags & MB_SAMPLE_OUTLIER)
		mb_json_append(a, mb_json_string("outlier"));
	if (flags & MB_SAMPLE_PREEMPTED)
		mb_json_append(a, mb_json_string("preempted"));
	return a;
}

static struct mb_json *sample_json(const struct mb_run *run, int i)
{
	const struct mb_sample *s = &run->samples[i];
	struct mb_json *o = mb_json_object(), *prods, *metrics;
	double lat = mb_sample_kernel_latency(s);

	mb_json_set_num(o, "iter", i);
	mb_json_set_bool(o, "warmup", s->warmup);
	mb_json_set_num(o, "start_ns", (double)s->start_ns);
	mb_json_set_num(o, "elapsed_ns", (double)s->elapsed_ns);
	mb_json_set_num(o, "covered_ns", (double)s->covered_ns);
	counters_json(o, run->bench, &s->total);
	mb_json_set_num(o, "throughput", mb_sample_rate(s, mb_sample_figure_count(run, s)));
	mb_json_set(o, "latency_kernel", isnan(lat) ? mb_json_null() : mb_json_number(lat));
	mb_json_set(o, "flags", sample_flags_json(s->flags));
	mb_json_set_str(o, "cause", mb_noise_cause_names[s->cause]);
	mb_json_set(o, "preempt_ratio", num_or_null(s->preempt_ratio));
	mb_json_set(o, "reference_ns", num_or_null(s->ref_calls ? s->ref_median : NAN));
	mb_json_set_num(o, "reference_calls", s->ref_calls);
	metrics = mb_json_child(o, "metrics");
	for (int m = 0; run->bench->metrics && run->bench->metrics[m].name; m++)
		mb_json_set(metrics, run->bench->metrics[m].name,
			    isnan(s->metric[m]) ? mb_json_null() : mb_json_number(s->metric[m]));
	prods = mb_json_array();
	for (int p = 0; p < run->nr_producers; p++) {
		struct mb_json *po = mb_json_object();

		counters_json(po, run->bench, &s->prod[p]);
		/* The producer's own span: its end_ns delta, or the sample's length unstamped. */
		mb_json_set_num(po, "covered_ns", (double)(s->prod[p].end_ns ? s->prod[p].end_ns :
										  s->elapsed_ns));
		mb_json_append(prods, po);
	}
	mb_json_set(o, "producers", prods);
	prods = mb_json_array();
	for (int c = 0; s->cons && c < run->nr_consumers; c++) {
		struct mb_json *co = mb_json_object();

		counters_json(co, run->bench, &s->cons[c]);
		mb_json_append(prods, co);
	}
	mb_json_set(o, "consumers", prods);
	return o;
}

/* The rules' constants, so that a reader can check each flag and verdict from the samples. */
static struct mb_json *noise_checks_json(const struct mb_summary *sum)
{
	struct mb_json *o = mb_json_object(), *c;
	const char *basis = mb_preempt_basis_name(sum->preempt_basis);

	c = mb_json_child(o, "outlier");
	mb_json_set_num(c, "mads", MB_OUTLIER_MADS);
	mb_json_set_num(c, "floor", MB_OUTLIER_MIN);
	mb_json_set_num(c, "min_samples", MB_OUTLIER_MIN_SAMPLES);
	c = mb_json_child(o, "preempted");
	mb_json_set(c, "basis", basis ? mb_json_string(basis) : mb_json_null());
	mb_json_set_num(c, "threshold", MB_PREEMPT_RATIO);
	c = mb_json_child(o, "reference");
	mb_json_set_num(c, "threshold", MB_REF_MOVED);
	mb_json_set_num(c, "host_varied", MB_HOST_VARIED);
	c = mb_json_child(o, "noisy");
	mb_json_set_num(c, "standard_errors", MB_NOISY_SES);
	mb_json_set_num(c, "shift_floor", MB_NOISY_SHIFT);
	mb_json_set_num(c, "cv", MB_NOISY_CV);
	return o;
}

/* Why a result is noisy: "shift", "spread", "all_flagged" (empty: it is not). */
static struct mb_json *noisy_why_json(unsigned int noisy)
{
	struct mb_json *a = mb_json_array();

	if (noisy & MB_NOISY_BY_SHIFT)
		mb_json_append(a, mb_json_string("shift"));
	if (noisy & MB_NOISY_BY_SPREAD)
		mb_json_append(a, mb_json_string("spread"));
	if (noisy & MB_NOISY_BY_ALL)
		mb_json_append(a, mb_json_string("all_flagged"));
	return a;
}

/* summary.noise: the flagged samples, their causes, the evidence and the verdict. */
static struct mb_json *noise_json(const struct mb_summary *sum)
{
	const struct mb_noise *nz = &sum->noise;
	struct mb_json *o = mb_json_object(), *c;

	c = mb_json_child(o, "flags");
	mb_json_set_num(c, "outlier", nz->nr_outlier);
	mb_json_set_num(c, "preempted", nz->nr_preempted);
	c = mb_json_child(o, "causes");
	for (int k = MB_CAUSE_NONE + 1; k < MB_CAUSES; k++)
		mb_json_set_num(c, mb_noise_cause_names[k], nz->nr_cause[k]);
	mb_json_set_num(o, "lost_cpu", nz->nr_lost_cpu);
	mb_json_set_num(o, "reference_moved", nz->nr_ref_moved);
	mb_json_set_str(o, "figure", sum->judged_latency ? "latency_kernel" : "throughput");
	mb_json_set(o, "median", num_or_null(nz->median));
	mb_json_set(o, "cv", num_or_null(nz->cv));
	mb_json_set(o, "varied", num_or_null(nz->varied));
	mb_json_set(o, "reference_ns", num_or_null(nz->ref_median));
	mb_json_set(o, "reference_varied", num_or_null(nz->ref_varied));
	mb_json_set(o, "mean_shift", num_or_null(nz->mean_shift));
	mb_json_set_num(o, "shift_bound", nz->shift_bound);
	mb_json_set(o, "why", noisy_why_json(nz->noisy));
	return o;
}

/* summary.headline: what the throughput counts, in what unit, and which figure leads. */
static struct mb_json *headline_json(const struct mb_run *run, const struct mb_summary *sum)
{
	struct mb_json *o = mb_json_object();
	char unit[64];

	mb_json_set_str(o, "counts", mb_headline_count_name(run->bench));
	mb_json_set_str(o, "unit", mb_headline_unit(run->bench, unit, sizeof(unit)));
	mb_json_set_str(o, "figure", sum->judged_latency ? "latency_kernel" : "throughput");
	return o;
}

/* summary.counters: the rate of each counter the bench declares, per second, by its name. */
static struct mb_json *counter_stats_json(const struct mb_run *run, const struct mb_summary *sum)
{
	struct mb_json *o = mb_json_object();
	char unit[64];

	for (int k = 0; k < mb_bench_nr_counters(run->bench); k++) {
		snprintf(unit, sizeof(unit), "%s/s", run->bench->counters[k].unit);
		mb_json_set(o, run->bench->counters[k].name, stats_json(&sum->counter[k], unit));
	}
	return o;
}

static struct mb_json *summary_json(const struct mb_run *run, const struct mb_summary *sum)
{
	struct mb_json *o = mb_json_object(), *metrics;
	char unit[64];

	mb_json_set_num(o, "samples", sum->n);
	mb_json_set_num(o, "noisy_samples", sum->noise.nr_flagged);
	mb_json_set_bool(o, "noisy", sum->noise.noisy != 0);
	mb_json_set(o, "noise", noise_json(sum));
	mb_json_set(o, "noise_checks", noise_checks_json(sum));
	mb_json_set(o, "headline", headline_json(run, sum));
	mb_headline_unit(run->bench, unit, sizeof(unit));
	mb_json_set(o, "throughput", stats_json(&sum->throughput, unit));
	mb_json_set(o, "throughput_per_producer", stats_json(&sum->prod_throughput, unit));
	mb_json_set(o, "hits", stats_json(&sum->hits, "ops/s"));
	mb_json_set(o, "misses", stats_json(&sum->misses, "ops/s"));
	mb_json_set(o, "total", stats_json(&sum->total, "ops/s"));
	mb_json_set(o, "errors", stats_json(&sum->errors, "ops/s"));
	mb_json_set(o, "latency_kernel", stats_json(&sum->latency_kernel, "ns/op"));
	if (sum->has_kernel && !isnan(sum->latency_net.mean)) {
		mb_json_set(o, "latency_kernel_net", stats_json(&sum->latency_net, "ns/op"));
	} else {
		mb_json_set(o, "latency_kernel_net", mb_json_null());
	}
	mb_json_set(o, "latency_wall", stats_json(&sum->latency_wall, "ns/op"));
	mb_json_set(o, "latency_reference", stats_json(&sum->latency_ref, "ns/op"));
	mb_json_set(o, "kernel_throughput", stats_json(&sum->kernel_throughput, "ops/s"));
	mb_json_set(o, "cpu_share", stats_json(&sum->cpu_share, "fraction"));
	mb_json_set(o, "throughput_per_cpu", stats_json(&sum->cpu_throughput, "ops/s"));
	metrics = mb_json_child(o, "metrics");
	for (int m = 0; run->bench->metrics && run->bench->metrics[m].name; m++)
		mb_json_set(metrics, run->bench->metrics[m].name,
			    sum->has_metric[m] ? stats_json(&sum->metric[m], run->bench->metrics[m].unit) :
						 mb_json_null());
	mb_json_set(o, "counters", counter_stats_json(run, sum));
	counters_json(mb_json_child(o, "totals"), run->bench, &sum->sum);
	return o;
}

static struct mb_json *config_json(const struct mb_run *run)
{
	const struct mb_env *env = run->env;
	struct mb_json *o = mb_json_object(), *cpus = mb_json_array();

	mb_json_set_num(o, "warmup", env->warmup);
	mb_json_set_num(o, "duration", env->duration);
	mb_json_set_num(o, "interval_ms", env->interval_ms);
	mb_json_set_num(o, "call_us", env->call_us);
	mb_json_set_num(o, "producers", env->producers);
	mb_json_set_num(o, "consumers", run->nr_consumers);
	mb_json_set_bool(o, "affinity", run->nr_producers && run->prod && run->prod[0].cpu >= 0);
	for (int i = 0; run->prod && i < run->nr_producers; i++)
		mb_json_append(cpus, run->prod[i].cpu >= 0 ? mb_json_number(run->prod[i].cpu) :
							    mb_json_null());
	mb_json_set(o, "producer_cpus", cpus);
	cpus = mb_json_array();
	for (int i = 0; run->cons && i < run->nr_consumers; i++)
		mb_json_append(cpus, run->cons[i].cpu >= 0 ? mb_json_number(run->cons[i].cpu) :
							    mb_json_null());
	mb_json_set(o, "consumer_cpus", cpus);
	mb_json_set_bool(o, "oversubscribed", run->oversubscribed);
	mb_json_set_bool(o, "net", env->net);
	return o;
}

struct mb_json *mb_report_result(const struct mb_run *run)
{
	const struct mb_summary *sum = run->summary;
	struct mb_json *o = mb_json_object(), *samples, *prods;

	mb_json_set_str(o, "bench", run->bench->name);
	mb_json_set_str(o, "family", run->bench->family);
	mb_json_set_str(o, "description", run->bench->desc);
	mb_json_set_str(o, "status", status_names[run->status]);
	mb_json_set_str(o, "reason", run->reason[0] ? run->reason : NULL);
	mb_json_set_str(o, "runner", run->runner);
	mb_json_set_str(o, "start_time", run->start_time);
	mb_json_set_str(o, "end_time", run->end_time);
	mb_json_set(o, "config", config_json(run));
	mb_json_set(o, "params", run->params ? mb_json_copy(run->params) : mb_json_object());
	mb_json_set(o, "loop_overhead_ns", isnan(run->loop_overhead_ns) ?
						   mb_json_null() : mb_json_number(run->loop_overhead_ns));
	mb_json_set(o, "loop", run->bench->instrument == &mb_kloop_instrument ?
				       mb_loop_json(&run->loop, run->loop_overhead_ns) : mb_json_null());
	if (run->latency)
		mb_json_set(o, "latency_ns", mb_report_latency_json(run));
	mb_json_set(o, "summary", sum ? summary_json(run, sum) : mb_json_null());
	mb_json_set(o, "figures", mb_report_figures(run));
	prods = mb_json_array();
	for (int p = 0; sum && p < run->nr_producers; p++) {
		struct mb_json *po = mb_json_object();

		mb_json_set_num(po, "index", p);
		mb_json_set(po, "cpu", run->prod[p].cpu >= 0 ? mb_json_number(run->prod[p].cpu) :
							      mb_json_null());
		mb_json_set(po, "throughput", stats_json(&sum->prod_tput[p], "ops/s"));
		mb_json_set(po, "latency_kernel", stats_json(&sum->prod_latency[p], "ns/op"));
		mb_json_append(prods, po);
	}
	mb_json_set(o, "producers", prods);
	samples = mb_json_array();
	for (int i = 0; i < run->nr_samples; i++)
		mb_json_append(samples, sample_json(run, i));
	mb_json_set(o, "samples", samples);
	mb_json_set(o, "extra", mb_json_copy(run->extra));
	mb_json_set(o, "warnings", mb_json_copy(run->warnings));
	return o;
}

struct mb_json *mb_report_document(const struct mb_env *env, struct mb_run *runs, int nr)
{
	struct mb_json *doc = mb_json_object(), *results = mb_json_array();

	mb_json_set_num(doc, "schema_version", MB_SCHEMA_VERSION);
	mb_json_set(doc, "context", mb_report_context(env));
	for (int i = 0; i < nr; i++)
		for (int k = 0; k < mb_run_nr_results(&runs[i]); k++)
			mb_json_append(results, mb_report_result(mb_run_result(&runs[i], k)));
	mb_json_set(doc, "results", results);
	return doc;
}

/* ---- CSV ---- */

void mb_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, const struct mb_json *v)
{
	char buf[64];

	fputc(',', f);
	if (mb_json_is(v, MB_JSON_NUMBER) && isfinite(mb_json_num(v, 0))) {
		mb_json_format_number(mb_json_num(v, 0), buf, sizeof(buf));
		fputs(buf, f);
	}
}

static void csv_params(const struct mb_json *params, char *buf, size_t len)
{
	size_t n = 0;
	char num[64];

	buf[0] = '\0';
	for (size_t i = 0; i < mb_json_len(params) && n < len; i++) {
		const struct mb_json *v = mb_json_at(params, i);
		const char *s;

		if (mb_json_is(v, MB_JSON_NUMBER)) {
			mb_json_number_text(v, num, sizeof(num));
			s = num;
		} else if (mb_json_is(v, MB_JSON_BOOL)) {
			s = mb_json_truthy(v) ? "true" : "false";
		} else {
			s = mb_json_str(v, "");
		}
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", i ? ";" : "",
				      mb_json_key_at(params, i), s);
	}
}

/* A sample row's columns; "counters" holds the bench's own, "name=value;...", as params do. */
static const char *const csv_counters[] = {
	"elapsed_ns", "ops", "hits", "misses", "errors", "counters", "kernel_ns", "calls",
	"throughput", "latency_kernel",
};

static const char *const csv_stats[] = { "mean", "stddev", "median", "min", "max", "cv", "n" };

/* A summary statistic; a spread that is null (one sample: unknown) is "n/a", not empty. */
static void csv_stat(FILE *f, const struct mb_json *st, const char *key)
{
	const struct mb_json *v = mb_json_get(st, key);

	if ((!strcmp(key, "stddev") || !strcmp(key, "cv")) &&
	    (mb_json_is(v, MB_JSON_NULL) || !isfinite(mb_json_num(v, 0))))
		fputs(",n/a", f);
	else
		csv_num(f, v);
}

/* The columns before a summary or figure row's metric: bench, params, kind, empty counters. */
static void csv_row_start(FILE *f, const char *bench, const char *params, const char *kind)
{
	mb_csv_field(f, bench);
	fputc(',', f);
	mb_csv_field(f, params);
	fprintf(f, ",%s,,", kind);
	for (size_t c = 0; c < sizeof(csv_counters) / sizeof(*csv_counters); c++)
		fputc(',', f);
	fputs(",,", f);
}

static void csv_samples(FILE *f, const char *bench, const char *params,
			const struct mb_json *samples, bool lat)
{
	char own[512];

	for (size_t i = 0; i < mb_json_len(samples); i++) {
		const struct mb_json *s = mb_json_at(samples, i);
		const struct mb_json *flags = mb_json_get(s, "flags");

		mb_csv_field(f, bench);
		fputc(',', f);
		mb_csv_field(f, params);
		fputs(",sample", f);
		csv_num(f, mb_json_get(s, "iter"));
		fprintf(f, ",%s", mb_json_truthy(mb_json_get(s, "warmup")) ? "true" : "false");
		for (size_t c = 0; c < sizeof(csv_counters) / sizeof(*csv_counters); c++) {
			if (strcmp(csv_counters[c], "counters")) {
				csv_num(f, mb_json_get(s, csv_counters[c]));
				continue;
			}
			csv_params(mb_json_get(s, "counters"), own, sizeof(own));
			fputc(',', f);
			mb_csv_field(f, own);
		}
		fputc(',', f);
		for (size_t k = 0; k < mb_json_len(flags); k++)
			fprintf(f, "%s%s", k ? ";" : "", mb_json_str(mb_json_at(flags, k), ""));
		if (mb_json_str(mb_json_get(s, "cause"), NULL))
			fprintf(f, "=%s", mb_json_str(mb_json_get(s, "cause"), ""));
		fputs(",,", f);
		for (size_t c = 0; c < sizeof(csv_stats) / sizeof(*csv_stats); c++)
			fputc(',', f);
		fputc(',', f);
		mb_csv_latency_end(f, NULL, lat);
	}
}

/* The summary's statistics, @prefix before their names ("counters." for the bench's own). */
static void csv_summary(FILE *f, const char *bench, const char *params, const struct mb_json *sum,
			const char *prefix, bool lat)
{
	for (size_t m = 0; m < mb_json_len(sum); m++) {
		const struct mb_json *st = mb_json_at(sum, m);

		if (!mb_json_get(st, "mean"))
			continue;
		csv_row_start(f, bench, params, "summary");
		fprintf(f, "%s%s,%s", prefix, mb_json_key_at(sum, m),
			mb_json_str(mb_json_get(st, "unit"), ""));
		for (size_t c = 0; c < sizeof(csv_stats) / sizeof(*csv_stats); c++)
			csv_stat(f, st, csv_stats[c]);
		fputc(',', f);
		mb_csv_latency_end(f, NULL, lat);
	}
}

/*
 * A figure: its value in mean; stddev a number, "n/a" where the text shows "± n/a", empty
 * where the text shows no spread; median..cv empty; n the samples, empty for a one-shot value.
 */
static void csv_figures(FILE *f, const char *bench, const char *params, const struct mb_json *figs,
			bool lat)
{
	char labels[1024];

	for (size_t i = 0; i < mb_json_len(figs); i++) {
		const struct mb_json *fig = mb_json_at(figs, i), *sd = mb_json_get(fig, "stddev");

		csv_row_start(f, bench, params, "figure");
		mb_csv_field(f, mb_json_str(mb_json_get(fig, "name"), ""));
		fputc(',', f);
		mb_csv_field(f, mb_json_str(mb_json_get(fig, "unit"), ""));
		csv_num(f, mb_json_get(fig, "value"));
		if (mb_json_is(sd, MB_JSON_NULL))
			fputs(",n/a", f);
		else
			csv_num(f, sd);
		fputs(",,,,", f);
		csv_num(f, mb_json_get(fig, "n"));
		csv_params(mb_json_get(fig, "labels"), labels, sizeof(labels));
		fputc(',', f);
		mb_csv_field(f, labels);
		mb_csv_latency_end(f, NULL, lat);
	}
}

/* --latency: one row whose metric is latency_ns, its figures in the latency columns. */
static void csv_latency(FILE *f, const char *bench, const char *params, const struct mb_json *lat)
{
	if (!lat)
		return;
	csv_row_start(f, bench, params, "latency");
	fputs("latency_ns,ns", f);
	for (size_t c = 0; c < sizeof(csv_stats) / sizeof(*csv_stats); c++)
		fputc(',', f);
	fputc(',', f);
	mb_csv_latency_end(f, lat, true);
}

/* Whether a result of @results has latency_ns (--latency): then the CSV has its columns. */
static bool csv_has_latency(const struct mb_json *results)
{
	for (size_t r = 0; r < mb_json_len(results); r++)
		if (mb_json_get(mb_json_at(results, r), "latency_ns"))
			return true;
	return false;
}

int mb_report_csv(FILE *f, const struct mb_json *doc)
{
	const struct mb_json *results = mb_json_get(doc, "results");
	bool lat = csv_has_latency(results);
	char params[4096];

	fputs("bench,params,kind,iter,warmup", f);
	for (size_t c = 0; c < sizeof(csv_counters) / sizeof(*csv_counters); c++)
		fprintf(f, ",%s", csv_counters[c]);
	fputs(",flags,metric,unit", f);
	for (size_t c = 0; c < sizeof(csv_stats) / sizeof(*csv_stats); c++)
		fprintf(f, ",%s", csv_stats[c]);
	fprintf(f, ",labels%s\n", lat ? mb_csv_latency_header : "");
	for (size_t r = 0; r < mb_json_len(results); r++) {
		const struct mb_json *res = mb_json_at(results, r);
		const char *bench = mb_json_str(mb_json_get(res, "bench"), "");
		const struct mb_json *sum = mb_json_get(res, "summary");

		csv_params(mb_json_get(res, "params"), params, sizeof(params));
		csv_samples(f, bench, params, mb_json_get(res, "samples"), lat);
		csv_summary(f, bench, params, sum, "", lat);
		csv_summary(f, bench, params, mb_json_get(sum, "counters"), "counters.", lat);
		csv_figures(f, bench, params, mb_json_get(res, "figures"), lat);
		csv_latency(f, bench, params, mb_json_get(res, "latency_ns"));
	}
	return ferror(f) ? -EIO : 0;
}

/* ---- writing the document ---- */

struct doc_ctx {
	const struct mb_env *env;
	struct mb_run *runs;
	int nr;
	struct mb_json *doc;
};

static int write_json(FILE *f, void *ctx)
{
	return mb_json_write(f, ((struct doc_ctx *)ctx)->doc, 2);
}

static int write_csv(FILE *f, void *ctx)
{
	return mb_report_csv(f, ((struct doc_ctx *)ctx)->doc);
}

static void write_text_result(FILE *f, const struct mb_run *run)
{
	char name[160];

	/* A part of a split run is named by its parameter: "map-perf test=hash_prealloc". */
	snprintf(name, sizeof(name), "%s%s%s%s%s", run->bench->name,
		 run->part_name[0] ? " " : "", run->part_name[0] ? run->bench->part_param : "",
		 run->part_name[0] ? "=" : "", run->part_name);
	if (run->summary && run->bench->text && run->bench->text->summary) {
		fprintf(f, "%s:\n", name);
		run->bench->text->summary(f, run, run->summary);
	} else if ((run->status == MB_RUN_OK || run->status == MB_RUN_INTERRUPTED) &&
		   run->bench->text && run->bench->text->result) {
		fprintf(f, "%s:%s\n", name,
			run->status == MB_RUN_INTERRUPTED ? " interrupted" : "");
		run->bench->text->result(f, run);
	} else {
		fprintf(f, "%s: %s%s%s\n", name, status_names[run->status],
			run->reason[0] ? ": " : "", run->reason);
	}
}

static int write_text(FILE *f, void *ctx)
{
	struct doc_ctx *d = ctx;

	for (int i = 0; i < d->nr; i++)
		for (int k = 0; k < mb_run_nr_results(&d->runs[i]); k++)
			write_text_result(f, mb_run_result(&d->runs[i], k));
	/* -q: the Summary lines only, here as on the terminal. */
	if ((d->nr > 1 || (d->nr == 1 && d->runs[0].nr_parts > 1)) && !mb_log_quiet())
		mb_report_table(f, d->runs, d->nr);
	return ferror(f) ? -EIO : 0;
}

static int (*doc_writer(int format))(FILE *, void *)
{
	return format == MB_FORMAT_JSON ? write_json : format == MB_FORMAT_CSV ? write_csv :
									   write_text;
}

/* The further -o files: the same results in their own formats. */
static int write_more_docs(const struct mb_env *env, struct doc_ctx *d)
{
	char err[512];
	int ret = 0;

	for (int k = 0; k < env->nr_more_outputs; k++) {
		if (mb_write_atomic(env->more_output[k], doc_writer(env->more_format[k]), d, err,
				    sizeof(err))) {
			mb_err("-o/--output %s", err);
			ret = -EIO;
		}
	}
	return ret;
}

int mb_report_write_doc(const struct mb_env *env, struct mb_json *doc, struct mb_run *runs,
			int nr)
{
	struct doc_ctx d = { .env = env, .runs = runs, .nr = nr, .doc = doc };
	char err[512];
	int ret = 0;

	if (!doc && (env->output || env->format != MB_FORMAT_TEXT))
		return -ENOMEM;
	if (env->output) {
		ret = mb_write_atomic(env->output, doc_writer(env->format), &d, err, sizeof(err));
		if (ret)
			mb_err("-o/--output %s", err);
	} else if (env->format != MB_FORMAT_TEXT) {
		/* (text on stdout: already printed as the runs went) */
		ret = doc_writer(env->format)(stdout, &d);
		if (!ret && fflush(stdout))
			ret = -errno;
	}
	if (env->nr_more_outputs && !doc)
		return -ENOMEM;
	if (env->nr_more_outputs && write_more_docs(env, &d) && !ret)
		ret = -EIO;
	return ret;
}

/* ---- the suite table ---- */

/* One row: a run, or a part of a split run named by its parameter. */
static void table_row(FILE *f, const struct mb_run *run)
{
	const struct mb_summary *sum = run->summary;
	char params[256] = "", val[64], why[96];
	size_t n = 0;

	if (run->part_name[0])
		n = (size_t)snprintf(params, sizeof(params), "%s=%s", run->bench->part_param,
				     run->part_name);
	for (int o = 0; !run->part_name[0] && run->bench->opts && run->bench->opts[o].name; o++) {
		if (o >= 64 || !(run->opts_given & (1ULL << o)) || n >= sizeof(params))
			continue;
		mb_opt_format(&run->bench->opts[o], run->args, val, sizeof(val));
		n += (size_t)snprintf(params + n, sizeof(params) - n, "%s%s=%s",
				      n ? " " : "", run->bench->opts[o].name, val);
	}
	if (sum) {
		double lat = sum->has_kernel ? mb_summary_latency(run, sum) :
					       sum->latency_wall.mean;

		fprintf(f, "%-24s %-28s %12.3f %10.3f %7s  %s%s\n", run->bench->name,
			n ? params : "-", sum->throughput.mean / 1e6, lat,
			mb_text_num(val, sizeof(val), 0, 2, sum->throughput.cv * 100),
			status_names[run->status],
			mb_text_noise_brief(why, sizeof(why), sum));
	} else {
		fprintf(f, "%-24s %-28s %12s %10s %7s  %s\n", run->bench->name,
			n ? params : "-", "-", "-", "-", status_names[run->status]);
	}
}

void mb_report_table(FILE *f, struct mb_run *runs, int nr)
{
	fprintf(f, "\n%-24s %-28s %12s %10s %7s  %s\n", "bench", "parameters", "M ops/s", "ns/op",
		"CV %", "status");
	for (int i = 0; i < nr; i++)
		for (int k = 0; k < mb_run_nr_results(&runs[i]); k++)
			table_row(f, mb_run_result(&runs[i], k));
	fprintf(f, "ns/op: in-kernel time per op where the op ran in the kernel, else wall-clock per producer\n");
}
