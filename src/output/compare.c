// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_context.h"
#include "util/log.h"
#include "util/json.h"
#include "core/opts.h"
#include "util/stats.h"
#include "output/table.h"

static const char *const verdict_names[MB_CMP_VERDICTS] = {
	[MB_CMP_IMPROVED] = "improved",
	[MB_CMP_REGRESSED] = "regressed",
	[MB_CMP_NO_CHANGE] = "no change",
	[MB_CMP_NOISE] = "within noise",
	[MB_CMP_NOT_COMPARABLE] = "not comparable",
};

const char *const mb_cmp_metric_names[] = { "auto", "throughput", "latency", NULL };

static bool higher_is_better(enum mb_cmp_metric metric)
{
	return metric != MB_CMP_LATENCY;
}

/* A parameter value as the command line writes it. */
/*
 * Global settings that change what a run measures (a sweep can vary them): part of the match
 * like the parameters. warmup and duration only change how many samples there are.
 */
static const char *const config_keys[] = { "consumers", "affinity", "call_us", "interval_ms" };
#define NR_CONFIG_KEYS (sizeof(config_keys) / sizeof(*config_keys))

static bool is_config_key(const char *name)
{
	for (size_t k = 0; k < NR_CONFIG_KEYS; k++)
		if (!strcmp(config_keys[k], name))
			return true;
	return false;
}

static bool ignored(const struct mb_cmp_opts *o, const char *name)
{
	for (int i = 0; i < o->nr_ignore; i++)
		if (mb_opt_name_eq(o->ignore[i], name))
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * bench, then name=value of each parameter sorted by name, then producers and the config keys;
 * \x1f-separated.
 */
static char *group_key(const char *bench, const struct mb_json *params,
		       const struct mb_json *config, double producers, const struct mb_cmp_opts *o)
{
	size_t np = mb_json_len(params), size = 0;
	const char **names = calloc(np + 1, sizeof(*names));
	char *key = NULL, val[256], num[64];
	FILE *f;

	if (!names)
		return NULL;
	for (size_t i = 0; i < np; i++)
		names[i] = mb_json_key_at(params, i);
	qsort(names, np, sizeof(*names), cmp_str);
	f = open_memstream(&key, &size);
	if (!f) {
		free(names);
		return NULL;
	}
	fputs(bench, f);
	for (size_t i = 0; i < np; i++) {
		if (ignored(o, names[i]))
			continue;
		mb_json_scalar_text(mb_json_get(params, names[i]), val, sizeof(val));
		fprintf(f, "\x1f%s=%s", names[i], val);
	}
	if (!ignored(o, "producers")) {
		mb_json_format_number(producers, num, sizeof(num));
		fprintf(f, "\x1fproducers=%s", num);
	}
	for (size_t k = 0; k < NR_CONFIG_KEYS; k++) {
		if (ignored(o, config_keys[k]))
			continue;
		mb_json_scalar_text(mb_json_get(config, config_keys[k]), val, sizeof(val));
		fprintf(f, "\x1f%s=%s", config_keys[k], val);
	}
	fclose(f);
	free(names);
	return key;
}

static int push(double **arr, size_t *n, double v)
{
	double *a;

	if (!isfinite(v))
		return 0;
	a = realloc(*arr, (*n + 1) * sizeof(double));
	if (!a)
		return -ENOMEM;
	a[(*n)++] = v;
	*arr = a;
	return 0;
}

static int add_samples(struct mb_cmp_group *g, const struct mb_json *result)
{
	const struct mb_json *samples = mb_json_get(result, "samples");

	for (size_t i = 0; i < mb_json_len(samples); i++) {
		const struct mb_json *s = mb_json_at(samples, i);
		double tput = mb_json_num(mb_json_get(s, "throughput"), NAN);

		if (mb_json_truthy(mb_json_get(s, "warmup")) || !isfinite(tput))
			continue;
		if (push(&g->tput, &g->n, tput) ||
		    push(&g->lat, &g->n_lat, mb_json_num(mb_json_get(s, "latency_kernel"), NAN)))
			return -ENOMEM;
	}
	return 0;
}

static int collect(const struct mb_json *doc, const struct mb_cmp_opts *o,
		   struct mb_cmp_group **out, size_t *nr)
{
	const struct mb_json *results = mb_json_get(doc, "results");
	size_t nres = mb_json_len(results);
	struct mb_cmp_group *g = calloc(nres + 1, sizeof(*g));

	*out = g;
	*nr = 0;
	if (!g)
		return -ENOMEM;
	for (size_t i = 0; i < nres; i++) {
		const struct mb_json *r = mb_json_at(results, i);
		const struct mb_json *config = mb_json_get(r, "config");
		const char *bench = mb_json_str(mb_json_get(r, "bench"), "?");
		const char *status = mb_json_str(mb_json_get(r, "status"), "unknown");
		const struct mb_json *params = mb_json_get(r, "params");
		double producers = mb_json_num(mb_json_get(config, "producers"), 1);
		char *key = group_key(bench, params, config, producers, o);
		struct mb_cmp_group *grp = NULL;

		if (!key)
			return -ENOMEM;
		for (size_t k = 0; k < *nr && !grp; k++)
			if (!strcmp(g[k].key, key))
				grp = &g[k];
		if (grp) {
			free(key);
		} else {
			grp = &g[(*nr)++];
			grp->key = key;
			grp->bench = bench;
			grp->params = params;
			grp->config = config;
			grp->producers = producers;
			grp->status = status;
		}
		grp->nr_results++;
		grp->noisy |= mb_json_truthy(mb_json_get(mb_json_get(r, "summary"), "noisy"));
		if (!strcmp(grp->status, "ok") && strcmp(status, "ok"))
			grp->status = status;
		if (add_samples(grp, r))
			return -ENOMEM;
	}
	return 0;
}

/* Whether parameter @name has more than one value among the groups of @bench. */
static bool param_varies(const struct mb_comparison *c, const char *bench, const char *name)
{
	char first[256] = "", val[256];
	bool seen = false;

	for (int side = 0; side < 2; side++) {
		const struct mb_cmp_group *g = side ? c->cur : c->base;
		size_t n = side ? c->nr_cur : c->nr_base;

		for (size_t i = 0; i < n; i++) {
			if (strcmp(g[i].bench, bench))
				continue;
			if (!strcmp(name, "producers"))
				mb_json_format_number(g[i].producers, val, sizeof(val));
			else if (is_config_key(name))
				mb_json_scalar_text(mb_json_get(g[i].config, name), val, sizeof(val));
			else
				mb_json_scalar_text(mb_json_get(g[i].params, name), val, sizeof(val));
			if (seen && strcmp(val, first))
				return true;
			snprintf(first, sizeof(first), "%s", val);
			seen = true;
		}
	}
	return false;
}

static int make_label(const struct mb_comparison *c, struct mb_cmp_group *g)
{
	size_t size = 0;
	char val[256];
	FILE *f = open_memstream(&g->label, &size);
	bool any = false;

	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < mb_json_len(g->params); i++) {
		const char *name = mb_json_key_at(g->params, i);

		if (!param_varies(c, g->bench, name))
			continue;
		mb_json_scalar_text(mb_json_at(g->params, i), val, sizeof(val));
		fprintf(f, "%s%s=%s", any ? " " : "", name, val);
		any = true;
	}
	if (param_varies(c, g->bench, "producers")) {
		mb_json_format_number(g->producers, val, sizeof(val));
		fprintf(f, "%sp=%s", any ? " " : "", val);
		any = true;
	}
	for (size_t k = 0; k < NR_CONFIG_KEYS; k++) {
		if (!param_varies(c, g->bench, config_keys[k]))
			continue;
		mb_json_scalar_text(mb_json_get(g->config, config_keys[k]), val, sizeof(val));
		fprintf(f, "%s%s=%s", any ? " " : "", config_keys[k], val);
		any = true;
	}
	if (!any)
		fputs("-", f);
	return fclose(f) ? -ENOMEM : 0;
}

static void note_add(struct mb_cmp_row *row, const char *fmt, const char *a, const char *b,
		     const char *name)
{
	size_t n = strlen(row->note);

	snprintf(row->note + n, sizeof(row->note) - n, fmt, n ? "; " : "", name, a, b);
}

/* What differs between the two sides although they matched (ignored params, config). */
static void note_differences(struct mb_cmp_row *row)
{
	static const char *const noted[] = { "consumers", "affinity", "call_us", "interval_ms",
					     "net" };
	const struct mb_cmp_group *b = row->base, *n = row->cur;
	char x[256], y[256];

	for (size_t i = 0; i < mb_json_len(b->params); i++) {
		const char *name = mb_json_key_at(b->params, i);

		mb_json_scalar_text(mb_json_at(b->params, i), x, sizeof(x));
		mb_json_scalar_text(mb_json_get(n->params, name), y, sizeof(y));
		if (strcmp(x, y))
			note_add(row, "%s%s %s -> %s", x, y, name);
	}
	if (b->producers != n->producers) {
		mb_json_format_number(b->producers, x, sizeof(x));
		mb_json_format_number(n->producers, y, sizeof(y));
		note_add(row, "%s%s %s -> %s", x, y, "producers");
	}
	for (size_t i = 0; i < sizeof(noted) / sizeof(*noted); i++) {
		const struct mb_json *vb = mb_json_get(b->config, noted[i]);
		const struct mb_json *vn = mb_json_get(n->config, noted[i]);

		if (!vb || !vn)
			continue;
		mb_json_scalar_text(vb, x, sizeof(x));
		mb_json_scalar_text(vn, y, sizeof(y));
		if (strcmp(x, y))
			note_add(row, "%s%s %s -> %s", x, y, noted[i]);
	}
}

static void mean_sd(const double *v, size_t n, double *mean, double *sd)
{
	struct mb_stats st;

	if (mb_stats_compute(v, n, &st)) {
		*mean = *sd = NAN;
		return;
	}
	*mean = st.mean;
	*sd = st.stddev;
}

static void decide(struct mb_comparison *c, struct mb_cmp_row *row, const double *bv,
		   const double *nv);

static void compare_row(struct mb_comparison *c, struct mb_cmp_row *row)
{
	const struct mb_cmp_group *b = row->base, *n = row->cur;
	const struct mb_cmp_opts *o = &c->opts;
	bool has_lat = b->n_lat && b->n_lat == b->n && n->n_lat && n->n_lat == n->n;
	const double *bv, *nv;
	size_t len;

	note_differences(row);
	row->change = NAN;
	row->verdict = MB_CMP_NOT_COMPARABLE;
	row->metric = o->metric == MB_CMP_AUTO ? (has_lat ? MB_CMP_LATENCY : MB_CMP_THROUGHPUT) :
						  o->metric;
	len = strlen(row->note);
	if (!b->n || !n->n) {
		snprintf(row->note + len, sizeof(row->note) - len, "%sno measured sample in %s (status %s)",
			 len ? "; " : "", !b->n ? "base" : "new", !b->n ? b->status : n->status);
		return;
	}
	if (row->metric == MB_CMP_LATENCY && !has_lat) {
		snprintf(row->note + len, sizeof(row->note) - len,
			 "%sno in-kernel latency in every sample", len ? "; " : "");
		return;
	}
	bv = row->metric == MB_CMP_LATENCY ? b->lat : b->tput;
	nv = row->metric == MB_CMP_LATENCY ? n->lat : n->tput;
	row->base_n = b->n;
	row->cur_n = n->n;
	mean_sd(bv, b->n, &row->base_mean, &row->base_sd);
	mean_sd(nv, n->n, &row->cur_mean, &row->cur_sd);
	if (!(row->base_mean > 0) || !(row->cur_mean > 0)) {
		snprintf(row->note + len, sizeof(row->note) - len, "%sa mean is 0",
			 len ? "; " : "");
		return;
	}
	if (b->n < 2 || n->n < 2) {
		len = strlen(row->note);
		snprintf(row->note + len, sizeof(row->note) - len,
			 "%sspread unknown: one sample in %s cannot show noise", len ? "; " : "",
			 b->n < 2 && n->n < 2 ? "each" : b->n < 2 ? "base" : "new");
	}
	row->change = (row->cur_mean - row->base_mean) / row->base_mean;
	decide(c, row, bv, nv);
}

/*
 * The test behind a verdict: Mann-Whitney U, or where its smallest p-value cannot go below
 * alpha (3 and 3 samples: 0.1), Welch's t-test, so that a few tight samples far apart are
 * judged by what they show rather than called noise.
 */
enum mb_cmp_verdict mb_cmp_decide(const double *base, size_t nb, const double *cur, size_t nc,
				  double change, bool higher_is_better,
				  const struct mb_cmp_opts *o, struct mb_cmp_test *t)
{
	bool better = higher_is_better ? change > 0 : change < 0;

	memset(t, 0, sizeof(*t));
	t->p = NAN;
	t->tested = !mb_mwu_test(base, nb, cur, nc, &t->mwu);
	if (t->tested)
		t->p = t->mwu.p;
	if (t->tested && t->mwu.p_min >= o->alpha) {
		t->welch = !mb_welch_test(base, nb, cur, nc, &t->t);
		if (t->welch)
			t->p = t->t.p;
	}
	if (fabs(change) < o->threshold)
		return MB_CMP_NO_CHANGE;
	if (t->p < o->alpha)
		return better ? MB_CMP_IMPROVED : MB_CMP_REGRESSED;
	return MB_CMP_NOISE;
}

const char *mb_cmp_verdict_name(enum mb_cmp_verdict v)
{
	return v >= 0 && v < MB_CMP_VERDICTS ? verdict_names[v] : "?";
}

static void decide(struct mb_comparison *c, struct mb_cmp_row *row, const double *bv,
		   const double *nv)
{
	const struct mb_cmp_group *b = row->base, *n = row->cur;
	struct mb_cmp_test t;
	size_t len;

	row->verdict = mb_cmp_decide(bv, b->n, nv, n->n, row->change,
				     higher_is_better(row->metric), &c->opts, &t);
	row->tested = t.tested;
	row->test = t.mwu;
	row->welch = t.welch;
	row->t = t.t;
	row->p = t.p;
	if (row->tested && row->test.p_min >= c->opts.alpha) {
		len = strlen(row->note);
		snprintf(row->note + len, sizeof(row->note) - len,
			 "%stoo few samples (%zu and %zu: p cannot go below %.2g)%s", len ? "; " : "",
			 b->n, n->n, row->test.p_min, row->welch ? ": Welch's t-test" : "");
	}
	if (row->verdict == MB_CMP_NOISE && (b->noisy || n->noisy)) {
		len = strlen(row->note);
		snprintf(row->note + len, sizeof(row->note) - len, "%s%s noisy", len ? "; " : "",
			 b->noisy && n->noisy ? "both results" : b->noisy ? "base result" :
			 "new result");
	}
}

int mb_cmp_opts_ignore(struct mb_cmp_opts *o, const struct mb_cli_list *l, char **bufs)
{
	for (int i = 0; i < l->nr; i++) {
		char *save = NULL, *tok;

		bufs[i] = strdup(l->items[i]);
		if (!bufs[i])
			return -ENOMEM;
		for (tok = strtok_r(bufs[i], ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (o->nr_ignore == MB_CMP_MAX_IGNORE)
				return -E2BIG;
			o->ignore[o->nr_ignore++] = tok;
		}
	}
	return 0;
}

int mb_compare(const struct mb_json *base, const struct mb_json *cur,
	       const struct mb_cmp_opts *opts, struct mb_comparison *c)
{
	double log_sum = 0;

	memset(c, 0, sizeof(*c));
	c->opts = *opts;
	c->geomean = NAN;
	if (collect(base, opts, &c->base, &c->nr_base) || collect(cur, opts, &c->cur, &c->nr_cur))
		return -ENOMEM;
	for (size_t i = 0; i < c->nr_base; i++)
		if (make_label(c, &c->base[i]))
			return -ENOMEM;
	for (size_t i = 0; i < c->nr_cur; i++)
		if (make_label(c, &c->cur[i]))
			return -ENOMEM;
	c->rows = calloc(c->nr_base + 1, sizeof(*c->rows));
	if (!c->rows)
		return -ENOMEM;
	for (size_t i = 0; i < c->nr_base; i++) {
		for (size_t j = 0; j < c->nr_cur; j++) {
			struct mb_cmp_row *row;

			if (c->cur[j].matched || strcmp(c->base[i].key, c->cur[j].key))
				continue;
			c->base[i].matched = c->cur[j].matched = true;
			row = &c->rows[c->nr_rows++];
			row->base = &c->base[i];
			row->cur = &c->cur[j];
			compare_row(c, row);
			c->counts[row->verdict]++;
			if (row->verdict != MB_CMP_NOT_COMPARABLE) {
				double ratio = row->cur_mean / row->base_mean;

				log_sum += log(higher_is_better(row->metric) ? ratio : 1 / ratio);
				c->geomean_n++;
			}
			break;
		}
	}
	if (c->geomean_n)
		c->geomean = exp(log_sum / c->geomean_n);
	return 0;
}

static void free_groups(struct mb_cmp_group *g, size_t n)
{
	for (size_t i = 0; g && i < n; i++) {
		free(g[i].key);
		free(g[i].label);
		free(g[i].tput);
		free(g[i].lat);
	}
	free(g);
}

void mb_comparison_free(struct mb_comparison *c)
{
	free_groups(c->base, c->nr_base);
	free_groups(c->cur, c->nr_cur);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

/* ---- output ---- */

static const char *metric_key(enum mb_cmp_metric m)
{
	return m == MB_CMP_LATENCY ? "latency_kernel" : "throughput";
}

static const char *metric_unit(enum mb_cmp_metric m)
{
	return m == MB_CMP_LATENCY ? "ns/op" : "ops/s";
}

static struct mb_json *side_json(double mean, double sd, size_t n)
{
	struct mb_json *o = mb_json_object();

	mb_json_set_num(o, "mean", mean);
	mb_json_set(o, "stddev", isnan(sd) ? mb_json_null() : mb_json_number(sd));
	mb_json_set_num(o, "n", (double)n);
	return o;
}

static struct mb_json *group_json(const struct mb_cmp_group *g)
{
	struct mb_json *o = mb_json_object();

	mb_json_set_str(o, "bench", g->bench);
	mb_json_set(o, "params", g->params ? mb_json_copy(g->params) : mb_json_object());
	mb_json_set_num(o, "producers", g->producers);
	mb_json_set_str(o, "label", g->label);
	mb_json_set_num(o, "results", g->nr_results);
	mb_json_set_str(o, "status", g->status);
	return o;
}

static struct mb_json *source_json(const char *name, const struct mb_json *doc)
{
	const struct mb_json *ctx = mb_json_get(doc, "context");
	struct mb_json *o = mb_json_object();

	mb_json_set_str(o, "source", name);
	mb_json_set_str(o, "time", mb_json_str(mb_json_get(ctx, "time"), NULL));
	mb_json_set_str(o, "kernel", mb_json_str(mb_json_get(mb_json_get(ctx, "kernel"), "release"),
						NULL));
	mb_json_set_str(o, "cpu_model", mb_json_str(mb_json_get(ctx, "cpu_model"), NULL));
	mb_json_set_str(o, "hostname", mb_json_str(mb_json_get(ctx, "hostname"), NULL));
	mb_json_set_str(o, "version", mb_json_str(mb_json_get(ctx, "version"), NULL));
	mb_json_set_str(o, "git_revision", mb_json_str(mb_json_get(ctx, "git_revision"), NULL));
	return o;
}

struct mb_json *mb_comparison_json(const struct mb_comparison *c, struct mb_json *context,
				   const char *base_name, const struct mb_json *base_doc,
				   const char *cur_name, const struct mb_json *cur_doc)
{
	struct mb_json *doc = mb_json_object(), *cmp, *rows, *ob, *on, *counts, *gm;

	mb_json_set_num(doc, "schema_version", 1);
	mb_json_set(doc, "context", context);
	cmp = mb_json_child(doc, "comparison");
	mb_json_set(cmp, "base", source_json(base_name, base_doc));
	mb_json_set(cmp, "new", source_json(cur_name, cur_doc));
	mb_json_set(cmp, "machine_differences", mb_context_differences(base_doc, cur_doc));
	mb_json_set_str(cmp, "test", "mann-whitney-u, two-sided; welch-t where too few samples");
	mb_json_set_num(cmp, "threshold", c->opts.threshold);
	mb_json_set_num(cmp, "alpha", c->opts.alpha);
	mb_json_set_str(cmp, "metric", mb_cmp_metric_names[c->opts.metric]);
	rows = mb_json_array();
	for (size_t i = 0; i < c->nr_rows; i++) {
		const struct mb_cmp_row *r = &c->rows[i];
		struct mb_json *o = group_json(r->base);
		bool ok = r->verdict != MB_CMP_NOT_COMPARABLE;

		mb_json_set(o, "new_params", r->cur->params ? mb_json_copy(r->cur->params) :
							      mb_json_object());
		mb_json_set_num(o, "new_producers", r->cur->producers);
		mb_json_set_str(o, "metric", metric_key(r->metric));
		mb_json_set_str(o, "unit", metric_unit(r->metric));
		mb_json_set_bool(o, "higher_is_better", higher_is_better(r->metric));
		mb_json_set(o, "base", ok ? side_json(r->base_mean, r->base_sd, r->base_n) :
					    mb_json_null());
		mb_json_set(o, "new", ok ? side_json(r->cur_mean, r->cur_sd, r->cur_n) :
					   mb_json_null());
		mb_json_set(o, "change", ok ? mb_json_number(r->change) : mb_json_null());
		if (r->tested) {
			mb_json_set_num(o, "u", r->test.u);
			mb_json_set_num(o, "p_value", r->p);
			mb_json_set_num(o, "p_min", r->test.p_min);
			mb_json_set_str(o, "method",
					r->test.method == MB_MWU_EXACT ? "exact" : "normal");
		} else {
			mb_json_set(o, "u", mb_json_null());
			mb_json_set(o, "p_value", mb_json_null());
			mb_json_set(o, "p_min", mb_json_null());
			mb_json_set(o, "method", mb_json_null());
		}
		mb_json_set_str(o, "test", !r->tested ? NULL : r->welch ? "welch-t" :
							       "mann-whitney-u");
		mb_json_set(o, "t", r->welch && isfinite(r->t.t) ? mb_json_number(r->t.t) :
								   mb_json_null());
		mb_json_set(o, "df", r->welch ? mb_json_number(r->t.df) : mb_json_null());
		mb_json_set_str(o, "verdict", verdict_names[r->verdict]);
		mb_json_set_str(o, "note", r->note[0] ? r->note : NULL);
		mb_json_append(rows, o);
	}
	mb_json_set(cmp, "rows", rows);
	ob = mb_json_array();
	for (size_t i = 0; i < c->nr_base; i++)
		if (!c->base[i].matched)
			mb_json_append(ob, group_json(&c->base[i]));
	mb_json_set(cmp, "only_in_base", ob);
	on = mb_json_array();
	for (size_t i = 0; i < c->nr_cur; i++)
		if (!c->cur[i].matched)
			mb_json_append(on, group_json(&c->cur[i]));
	mb_json_set(cmp, "only_in_new", on);
	gm = mb_json_child(cmp, "geometric_mean");
	mb_json_set(gm, "speed_ratio", c->geomean_n ? mb_json_number(c->geomean) : mb_json_null());
	mb_json_set_num(gm, "n", c->geomean_n);
	counts = mb_json_child(cmp, "counts");
	for (int v = 0; v < MB_CMP_VERDICTS; v++)
		mb_json_set_num(counts, verdict_names[v], c->counts[v]);
	mb_json_set_num(counts, "only_in_base", (double)mb_json_len(ob));
	mb_json_set_num(counts, "only_in_new", (double)mb_json_len(on));
	return doc;
}

static void describe(FILE *f, const char *what, const char *name, const struct mb_json *doc)
{
	const struct mb_json *ctx = mb_json_get(doc, "context");

	fprintf(f, "%s %s (%s, kernel %s, %s, mapbench %s %s)\n", what, name,
		mb_json_str(mb_json_get(ctx, "time"), "?"),
		mb_json_str(mb_json_get(mb_json_get(ctx, "kernel"), "release"), "?"),
		mb_json_str(mb_json_get(ctx, "hostname"), "?"),
		mb_json_str(mb_json_get(ctx, "version"), "?"),
		mb_json_str(mb_json_get(ctx, "git_revision"), "?"));
}

static void context_diff(FILE *f, const struct mb_json *a, const struct mb_json *b)
{
	static const char *const keys[] = { "online_cpus", "libbpf_version", "bpf_jit_enable",
					     "bpf_stats_enabled" };
	const struct mb_json *ca = mb_json_get(a, "context"), *cb = mb_json_get(b, "context");
	struct mb_json *machine = mb_context_differences(a, b);
	char x[256], y[256];

	for (size_t i = 0; i < mb_json_len(machine); i++)
		fprintf(f, "Machines differ: %s\n", mb_json_str(mb_json_at(machine, i), "?"));
	if (mb_json_len(machine))
		mb_warn("compare: the two sides ran on different kernels, CPUs, microcode or mitigations (%zu differences): in-kernel figures can change several-fold from that alone",
			mb_json_len(machine));
	mb_json_free(machine);
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		mb_json_scalar_text(mb_json_get(ca, keys[i]), x, sizeof(x));
		mb_json_scalar_text(mb_json_get(cb, keys[i]), y, sizeof(y));
		if (strcmp(x, y))
			fprintf(f, "Machines differ: %s %s -> %s\n", keys[i], x, y);
	}
}

static void fmt_value(char *buf, size_t len, enum mb_cmp_metric m, double mean, double sd)
{
	double scale = m == MB_CMP_LATENCY ? 1 : 1e-6;

	/* One sample: its spread is unknown (n/a), which 0 would hide. */
	if (isnan(sd))
		snprintf(buf, len, "%.3f \u00B1 n/a", mean * scale);
	else
		snprintf(buf, len, "%.3f \u00B1 %.3f", mean * scale, sd * scale);
}

static struct mb_table *make_table(const struct mb_comparison *c)
{
	static const char *const head[] = { "bench", "parameters", "metric", "base", "new",
					    "change", "p", "verdict", "note" };
	struct mb_table *t = mb_table_new(9);
	char b[96], n[96];

	if (!t)
		return NULL;
	for (int i = 0; i < 9; i++)
		mb_table_head(t, i, head[i], i >= 3 && i <= 6);
	for (size_t i = 0; i < c->nr_rows; i++) {
		const struct mb_cmp_row *r = &c->rows[i];
		bool ok = r->verdict != MB_CMP_NOT_COMPARABLE;

		if (mb_table_row(t))
			break;
		mb_table_cell(t, "%s", r->base->bench);
		mb_table_cell(t, "%s", r->base->label);
		mb_table_cell(t, "%s", !ok ? "-" : r->metric == MB_CMP_LATENCY ? "ns/op" :
								       "M ops/s");
		fmt_value(b, sizeof(b), r->metric, r->base_mean, r->base_sd);
		fmt_value(n, sizeof(n), r->metric, r->cur_mean, r->cur_sd);
		mb_table_cell(t, "%s", ok ? b : "-");
		mb_table_cell(t, "%s", ok ? n : "-");
		if (ok)
			mb_table_cell(t, "%+.1f %%", r->change * 100);
		else
			mb_table_cell(t, "-");
		if (r->tested && r->p < 0.0001)
			mb_table_cell(t, "<0.0001");
		else if (r->tested)
			mb_table_cell(t, "%.4f", r->p);
		else
			mb_table_cell(t, "-");
		mb_table_cell(t, "%s", verdict_names[r->verdict]);
		mb_table_cell(t, "%s", r->note);
	}
	return t;
}

static void list_unmatched(FILE *f, const struct mb_comparison *c, const char *base_name,
			   const char *cur_name)
{
	for (int side = 0; side < 2; side++) {
		const struct mb_cmp_group *g = side ? c->cur : c->base;
		size_t n = side ? c->nr_cur : c->nr_base;

		for (size_t i = 0; i < n; i++) {
			char num[64];

			if (g[i].matched)
				continue;
			mb_json_format_number(g[i].producers, num, sizeof(num));
			fprintf(f, "Only in %s: %s %s (producers %s, %s)\n",
				side ? cur_name : base_name, g[i].bench, g[i].label, num, g[i].status);
		}
	}
}

/*
 * The names in a note made by note_differences ("a 1 -> 2; b x -> y"): "a,b"; not net, which
 * is not part of the match.
 */
static void differing_names(const struct mb_cmp_row *row, char *buf, size_t len)
{
	const char *p = row->note;
	size_t n = 0;

	buf[0] = '\0';
	while (*p && n < len) {
		size_t w = strcspn(p, " ");

		if (w != 3 || strncmp(p, "net", 3))
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? "," : "", (int)w, p);
		p = strstr(p, "; ");
		if (!p)
			break;
		p += 2;
	}
}

/* Unmatched results of the same bench on both sides: say which parameters differ. */
static void hint_unmatched(FILE *f, const struct mb_comparison *c)
{
	char names[256];

	for (size_t i = 0; i < c->nr_base; i++) {
		for (size_t j = 0; j < c->nr_cur; j++) {
			struct mb_cmp_row tmp = { .base = &c->base[i], .cur = &c->cur[j] };

			if (c->base[i].matched || c->cur[j].matched ||
			    strcmp(c->base[i].bench, c->cur[j].bench))
				continue;
			note_differences(&tmp);
			differing_names(&tmp, names, sizeof(names));
			fprintf(f, "Hint: %s differs in %s; --ignore %s compares across %s\n",
				c->base[i].bench, tmp.note[0] ? tmp.note : "nothing shown",
				names[0] ? names : "NAME", strchr(names, ',') ? "them" : "it");
			return;
		}
	}
}

int mb_comparison_print(FILE *f, const struct mb_comparison *c, enum mb_format format,
			const char *base_name, const struct mb_json *base_doc,
			const char *cur_name, const struct mb_json *cur_doc)
{
	struct mb_table *t = make_table(c);
	bool csv = format == MB_FORMAT_CSV;
	int err;

	if (!t)
		return -ENOMEM;
	if (!csv) {
		describe(f, "Base:", base_name, base_doc);
		describe(f, "New: ", cur_name, cur_doc);
		context_diff(f, base_doc, cur_doc);
		fprintf(f, "Mann-Whitney U test (two-sided) over the measured samples, Welch's t-test where too few samples leave it no p below alpha; threshold %g %%, alpha %g.\n",
			c->opts.threshold * 100, c->opts.alpha);
		if (c->opts.metric == MB_CMP_LATENCY)
			fprintf(f, "Metric: in-kernel ns/op (lower is better).\n");
		else if (c->opts.metric == MB_CMP_THROUGHPUT)
			fprintf(f, "Metric: throughput, M ops/s (higher is better).\n");
		else
			fprintf(f, "Metric: in-kernel ns/op (lower is better) where both sides measured it, else throughput in M ops/s (higher is better).\n");
		fputc('\n', f);
	}
	if (mb_table_rows(t))
		err = mb_table_write(f, t, format);
	else
		err = csv ? mb_table_write(f, t, format) : (fputs("No result matched.\n", f), 0);
	mb_table_free(t);
	if (err || csv)
		return err;
	fputc('\n', f);
	if (c->geomean_n)
		fprintf(f, "Geometric mean of the speed ratios new/base over %d result%s: %.3f (%+.1f %%)\n",
			c->geomean_n, c->geomean_n > 1 ? "s" : "", c->geomean, (c->geomean - 1) * 100);
	list_unmatched(f, c, base_name, cur_name);
	hint_unmatched(f, c);
	fprintf(f, "%d regressed, %d improved, %d no change, %d within noise, %d not comparable\n",
		c->counts[MB_CMP_REGRESSED], c->counts[MB_CMP_IMPROVED], c->counts[MB_CMP_NO_CHANGE],
		c->counts[MB_CMP_NOISE], c->counts[MB_CMP_NOT_COMPARABLE]);
	return ferror(f) ? -EIO : 0;
}
