// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "core/opts.h"
#include "plot.h"

#define PANEL_W		720
#define PANEL_H		480
#define MAX_XTICS	12

void mb_plot_gp_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
}

/* 10000 -> "10k", 2500000 -> "2.5M": tick labels that fit. */
static void short_num(double v, char *buf, size_t len)
{
	if (fabs(v) >= 1e9 && fmod(v, 1e8) == 0)
		snprintf(buf, len, "%gG", v / 1e9);
	else if (fabs(v) >= 1e6 && fmod(v, 1e5) == 0)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (fabs(v) >= 1e3 && fmod(v, 1e2) == 0)
		snprintf(buf, len, "%gk", v / 1e3);
	else
		snprintf(buf, len, "%g", v);
}

void mb_plot_terminal(FILE *f, enum mb_plot_term term, int w, int h)
{
	if (term == MB_PLOT_SVG) {
		fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font \"sans,11\" background rgb \"white\"\n",
			w, h);
	} else {
		/* pngcairo draws antialiased text; the gd png terminal is the fallback. */
		fprintf(f, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
			"  set terminal pngcairo size %d,%d noenhanced font \"sans,10\" background rgb \"white\"\n"
			"} else {\n"
			"  set terminal png size %d,%d noenhanced background rgb \"white\"\n"
			"}\n", w, h, w, h);
	}
	fputs("set output\nset encoding utf8\nset grid\n", f);
}

/* ---- sweeps ---- */

struct axis {
	int param;			/* index into sweep.params, -1: none */
	const char *name;
	const struct mb_json *values;	/* typed values */
	bool numeric;
};

struct metric {
	const char *key;		/* summary key, or "metrics.NAME" */
	bool latency;			/* latency_kernel, else latency_wall */
	char label[128];
	double scale;
};

static int param_index(const struct mb_json *params, const char *name)
{
	for (size_t i = 0; i < mb_json_len(params); i++)
		if (mb_opt_name_eq(mb_json_str(mb_json_get(mb_json_at(params, i), "name"), ""), name))
			return (int)i;
	return -1;
}

static size_t nr_values(const struct mb_json *params, int i)
{
	return mb_json_len(mb_json_get(mb_json_at(params, (size_t)i), "values"));
}

static void param_names(const struct mb_json *params, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < mb_json_len(params) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
				      mb_json_str(mb_json_get(mb_json_at(params, i), "name"), "?"));
}

static int set_axis(struct axis *a, const struct mb_json *params, int i)
{
	a->param = i;
	a->numeric = true;
	if (i < 0)
		return 0;
	a->name = mb_json_str(mb_json_get(mb_json_at(params, (size_t)i), "name"), "?");
	a->values = mb_json_get(mb_json_at(params, (size_t)i), "values");
	for (size_t k = 0; k < mb_json_len(a->values); k++)
		a->numeric &= mb_json_is(mb_json_at(a->values, k), MB_JSON_NUMBER);
	return 0;
}

/* The stats object of @metric in a result, or NULL. */
static const struct mb_json *result_stats(const struct mb_json *result, const struct metric *m)
{
	const struct mb_json *sum = mb_json_get(result, "summary");
	const struct mb_json *st;

	if (m->latency) {
		st = mb_json_get(sum, "latency_kernel");
		return mb_json_is(st, MB_JSON_OBJECT) ? st : mb_json_get(sum, "latency_wall");
	}
	/* A bench's own: metrics.NAME (its metrics), counters.NAME (its counters' rates). */
	if (!strncmp(m->key, "metrics.", 8))
		st = mb_json_get(mb_json_get(sum, "metrics"), m->key + 8);
	else if (!strncmp(m->key, "counters.", 9))
		st = mb_json_get(mb_json_get(sum, "counters"), m->key + 9);
	else
		st = mb_json_get(sum, m->key);
	return mb_json_is(st, MB_JSON_OBJECT) ? st : NULL;
}

static bool point_has(const struct mb_json *point, const char *name, const struct mb_json *value)
{
	char a[256], b[256];
	const struct mb_json *v = mb_json_get(mb_json_get(point, "values"), name);

	if (!v)
		return false;
	mb_json_scalar_text(v, a, sizeof(a));
	mb_json_scalar_text(value, b, sizeof(b));
	return !strcmp(a, b);
}

struct fixed {
	const char *name;
	const struct mb_json *value;
};

#define MAX_FIXED	64

/* What the chart of a sweep draws, all chosen before any of it is written. */
struct sweep_chart {
	const struct mb_json *doc;
	struct axis x, l;		/* along x; a line per value of l */
	struct metric m;
	struct fixed fx[MAX_FIXED];	/* each other varying parameter, held at one value */
	int nfx;
	char sub[1024];			/* the held values, "name=value, ...", for the titles */
	const char *benches[MB_PLOT_MAX_PANELS];	/* a panel each, in the order they ran */
	int nb;
	double xmin, xmax;		/* of a numeric x */
};

/* Pool the results of every round of a point: mean and standard deviation over all samples. */
static bool pooled(const struct sweep_chart *c, const char *bench, size_t xi, size_t li,
		   double *mean, double *sd)
{
	const struct mb_json *points = mb_json_get(mb_json_get(c->doc, "sweep"), "points");
	const struct mb_json *results = mb_json_get(c->doc, "results");
	double n_tot = 0, sum = 0, ss = 0, means[1024], sds[1024], ns[1024];
	int k = 0;

	for (size_t i = 0; i < mb_json_len(points) && k < 1024; i++) {
		const struct mb_json *p = mb_json_at(points, i), *r, *st;
		double ri = mb_json_num(mb_json_get(p, "result"), -1);
		const struct axis *x = &c->x, *l = &c->l;
		bool match = !strcmp(mb_json_str(mb_json_get(p, "bench"), ""), bench) &&
			     point_has(p, x->name, mb_json_at(x->values, xi)) &&
			     (l->param < 0 || point_has(p, l->name, mb_json_at(l->values, li)));

		for (int f = 0; match && f < c->nfx; f++)
			match = point_has(p, c->fx[f].name, c->fx[f].value);
		/* A result index from a file: checked before it becomes an index. */
		if (!match || !(ri >= 0 && ri < (double)mb_json_len(results)))
			continue;
		r = mb_json_at(results, (size_t)ri);
		st = r ? result_stats(r, &c->m) : NULL;
		if (!st || !isfinite(mb_json_num(mb_json_get(st, "mean"), NAN)))
			continue;
		means[k] = mb_json_num(mb_json_get(st, "mean"), 0) * c->m.scale;
		sds[k] = mb_json_num(mb_json_get(st, "stddev"), 0) * c->m.scale;
		ns[k] = mb_json_num(mb_json_get(st, "n"), 1);
		if (ns[k] < 1)
			ns[k] = 1;
		n_tot += ns[k];
		sum += ns[k] * means[k];
		k++;
	}
	if (!k)
		return false;
	*mean = sum / n_tot;
	for (int i = 0; i < k; i++)
		ss += (ns[i] - 1) * sds[i] * sds[i] + ns[i] * (means[i] - *mean) * (means[i] - *mean);
	/* One sample in all (its stddev is null): no spread to draw, an error bar of 0. */
	*sd = n_tot > 1 ? sqrt(ss / (n_tot - 1)) : 0;
	return true;
}

static int pick_metric(const struct mb_json *doc, const char *name, struct metric *m, char *err,
		       size_t errlen)
{
	const struct mb_json *results = mb_json_get(doc, "results");
	const struct mb_json *st = NULL;
	bool all_kernel = mb_json_len(results) > 0;

	memset(m, 0, sizeof(*m));
	m->scale = 1;
	for (size_t i = 0; i < mb_json_len(results); i++) {
		const struct mb_json *sum = mb_json_get(mb_json_at(results, i), "summary");

		if (mb_json_is(sum, MB_JSON_OBJECT) &&
		    !mb_json_is(mb_json_get(sum, "latency_kernel"), MB_JSON_OBJECT))
			all_kernel = false;
	}
	if (!name || !strcmp(name, "auto"))
		name = all_kernel ? "latency" : "throughput";
	if (!strcmp(name, "latency")) {
		m->key = "latency";
		m->latency = true;
		snprintf(m->label, sizeof(m->label), "%s (ns/op)",
			 all_kernel ? "in-kernel latency" : "latency");
		return 0;
	}
	m->key = name;
	for (size_t i = 0; i < mb_json_len(results) && !st; i++)
		st = result_stats(mb_json_at(results, i), m);
	if (!st) {
		snprintf(err, errlen, "--metric %s: not in the results' summaries (throughput, latency, total, hits, misses, errors, kernel_throughput, latency_wall, metrics.NAME, counters.NAME)",
			 name);
		return -EINVAL;
	}
	if (!strcmp(mb_json_str(mb_json_get(st, "unit"), ""), "ops/s")) {
		m->scale = 1e-6;
		snprintf(m->label, sizeof(m->label), "%s (M ops/s)", name);
	} else {
		snprintf(m->label, sizeof(m->label), "%s (%s)", name,
			 mb_json_str(mb_json_get(st, "unit"), ""));
	}
	return 0;
}

/*
 * The parameter with the most values (at least two), other than @skip; on a tie a numeric one,
 * then the first. -1 if none varies.
 */
static int first_varying(const struct mb_json *params, int skip)
{
	size_t best_n = 1;
	bool best_numeric = false;
	int best = -1;

	for (size_t i = 0; i < mb_json_len(params); i++) {
		size_t n = nr_values(params, (int)i);
		struct axis a;

		if ((int)i == skip || n < best_n)
			continue;
		set_axis(&a, params, (int)i);
		if (n > best_n || (a.numeric && !best_numeric)) {
			best = (int)i;
			best_n = n;
			best_numeric = a.numeric;
		}
	}
	return best_n >= 2 ? best : -1;
}

static int named_param(const struct mb_json *params, const char *opt, const char *name,
		       char *err, size_t errlen)
{
	char names[512];
	int i = param_index(params, name);

	if (i < 0) {
		param_names(params, names, sizeof(names));
		snprintf(err, errlen, "--%s %s: not a swept parameter (swept: %s)", opt, name,
			 names[0] ? names : "none");
	}
	return i;
}

static bool wanted(const char *list, const char *bench)
{
	size_t n = strlen(bench);

	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && !strncmp(p, bench, n))
			return true;
		if (!comma)
			break;
		p = comma + 1;
	}
	return !list;
}

/* x: asked for, the preset's choice, or the parameter with the most values; -1 if none. */
static int choose_x(const struct mb_json *params, const struct mb_json *defaults,
		    const struct mb_plot_opts *o, char *err, size_t errlen)
{
	int xi;

	if (o->x)
		return named_param(params, "x", o->x, err, errlen);
	xi = param_index(params, mb_json_str(mb_json_get(defaults, "x"), ""));
	if (xi < 0 || nr_values(params, xi) < 2)
		xi = first_varying(params, -1);
	if (xi < 0)
		snprintf(err, errlen, "the sweep varies no parameter: nothing to draw along x");
	return xi;
}

/*
 * The parameter drawn as a line per value, into *li (-1: a single line): asked for ("none":
 * a single line), the preset's choice, or the one with the most values after x.
 */
static int choose_lines(const struct mb_json *params, const struct mb_json *defaults,
			const struct mb_plot_opts *o, int xi, int *li, char *err, size_t errlen)
{
	*li = -1;
	if (o->lines && strcmp(o->lines, "none")) {
		*li = named_param(params, "lines", o->lines, err, errlen);
		if (*li < 0)
			return -EINVAL;
		if (*li == xi) {
			snprintf(err, errlen, "--lines %s: already on the x axis", o->lines);
			return -EINVAL;
		}
	} else if (!o->lines) {
		*li = param_index(params, mb_json_str(mb_json_get(defaults, "lines"), ""));
		if (*li < 0 || *li == xi || nr_values(params, *li) < 2)
			*li = first_varying(params, xi);
	}
	return 0;
}

/* The NAME of a --where NAME=VALUE; false when it does not have that shape. */
static bool where_name(const char *where, char *name, size_t len)
{
	const char *eq = strchr(where, '=');

	if (!eq || eq == where || (size_t)(eq - where) >= len)
		return false;
	snprintf(name, len, "%.*s", (int)(eq - where), where);
	return true;
}

/* Each --where names a swept parameter that is not drawn. */
static int check_where(const struct sweep_chart *c, const struct mb_json *params,
		       const struct mb_plot_opts *o, char *err, size_t errlen)
{
	for (int w = 0; w < o->nr_where; w++) {
		char name[128];
		int pi;

		if (!where_name(o->where[w], name, sizeof(name))) {
			snprintf(err, errlen, "--where %s: must be NAME=VALUE", o->where[w]);
			return -EINVAL;
		}
		pi = named_param(params, "where", name, err, errlen);
		if (pi < 0)
			return -EINVAL;
		if (pi == c->x.param || pi == c->l.param) {
			snprintf(err, errlen, "--where %s: %s is drawn (x or lines), it cannot be fixed",
				 o->where[w], name);
			return -EINVAL;
		}
	}
	return 0;
}

/* The value of @name (swept over @vals) that the --where naming it asks for, else its first. */
static int held_value(const char *name, const struct mb_json *vals, const struct mb_plot_opts *o,
		      const struct mb_json **value, char *err, size_t errlen)
{
	char wname[128], val[256];

	*value = mb_json_at(vals, 0);
	for (int w = 0; w < o->nr_where; w++) {
		const char *eq = strchr(o->where[w], '=');
		bool found = false;

		where_name(o->where[w], wname, sizeof(wname));
		if (!mb_opt_name_eq(name, wname))
			continue;
		for (size_t k = 0; k < mb_json_len(vals); k++) {
			mb_json_scalar_text(mb_json_at(vals, k), val, sizeof(val));
			if (!strcmp(val, eq + 1)) {
				*value = mb_json_at(vals, k);
				found = true;
			}
		}
		if (!found) {
			snprintf(err, errlen, "--where %s: %s was not swept over %s", o->where[w], name,
				 eq + 1);
			return -EINVAL;
		}
	}
	return 0;
}

/* Every other parameter is held at one value: --where NAME=VALUE, or its first. */
static int hold_others(struct sweep_chart *c, const struct mb_json *params,
		       const struct mb_plot_opts *o, char *err, size_t errlen)
{
	char val[256];
	size_t n;

	if (check_where(c, params, o, err, errlen))
		return -EINVAL;
	for (size_t i = 0; i < mb_json_len(params) && c->nfx < MAX_FIXED; i++) {
		const struct mb_json *vals = mb_json_get(mb_json_at(params, i), "values");
		const char *name = mb_json_str(mb_json_get(mb_json_at(params, i), "name"), "?");
		struct fixed *fx = &c->fx[c->nfx];

		if ((int)i == c->x.param || (int)i == c->l.param || mb_json_len(vals) < 2)
			continue;
		if (held_value(name, vals, o, &fx->value, err, errlen))
			return -EINVAL;
		fx->name = name;
		mb_json_scalar_text(fx->value, val, sizeof(val));
		n = strlen(c->sub);
		snprintf(c->sub + n, sizeof(c->sub) - n, "%s%s=%s", n ? ", " : "", name, val);
		c->nfx++;
	}
	return 0;
}

/* One panel per bench (those of --bench), in the order they ran. */
static int pick_benches(struct sweep_chart *c, const struct mb_json *points,
			const struct mb_plot_opts *o, char *err, size_t errlen)
{
	for (size_t i = 0; i < mb_json_len(points); i++) {
		const char *b = mb_json_str(mb_json_get(mb_json_at(points, i), "bench"), "?");
		bool seen = false;

		for (int k = 0; k < c->nb; k++)
			seen |= !strcmp(c->benches[k], b);
		if (!seen && wanted(o->benches, b) && c->nb < MB_PLOT_MAX_PANELS)
			c->benches[c->nb++] = b;
	}
	if (!c->nb) {
		snprintf(err, errlen, "--bench %s: no such bench in the sweep",
			 o->benches ? o->benches : "");
		return -EINVAL;
	}
	return 0;
}

/* Chooses what a sweep's chart draws: x, the lines, the metric, the held values, the panels. */
static int plan_sweep_chart(struct sweep_chart *c, const struct mb_json *doc,
			    const struct mb_plot_opts *o, char *err, size_t errlen)
{
	const struct mb_json *sw = mb_json_get(doc, "sweep");
	const struct mb_json *params = mb_json_get(sw, "params"), *points = mb_json_get(sw, "points");
	const struct mb_json *defaults = mb_json_get(sw, "plot");
	int xi, li;

	memset(c, 0, sizeof(*c));
	c->doc = doc;
	if (!mb_json_is(params, MB_JSON_ARRAY) || !mb_json_is(points, MB_JSON_ARRAY)) {
		snprintf(err, errlen, "the \"sweep\" object has no params or points");
		return -EINVAL;
	}
	xi = choose_x(params, defaults, o, err, errlen);
	if (xi < 0 || choose_lines(params, defaults, o, xi, &li, err, errlen))
		return -EINVAL;
	set_axis(&c->x, params, xi);
	set_axis(&c->l, params, li);
	if (pick_metric(doc, o->metric ? o->metric : mb_json_str(mb_json_get(defaults, "metric"),
								 NULL), &c->m, err, errlen))
		return -EINVAL;
	if (hold_others(c, params, o, err, errlen) || pick_benches(c, points, o, err, errlen))
		return -EINVAL;
	c->xmin = INFINITY;
	c->xmax = -INFINITY;
	for (size_t k = 0; c->x.numeric && k < mb_json_len(c->x.values); k++) {
		double v = mb_json_num(mb_json_at(c->x.values, k), 0);

		c->xmin = fmin(c->xmin, v);
		c->xmax = fmax(c->xmax, v);
	}
	return 0;
}

static size_t nr_lines(const struct sweep_chart *c)
{
	return c->l.param < 0 ? 1 : mb_json_len(c->l.values);
}

/* The data first: a block per bench and line, $D<bench>_<line>. Returns the points written. */
static int write_sweep_data(FILE *f, const struct sweep_chart *c)
{
	const struct axis *x = &c->x;
	int drawn = 0;

	for (int b = 0; b < c->nb; b++) {
		for (size_t lv = 0; lv < nr_lines(c); lv++) {
			fprintf(f, "$D%d_%zu << EOD\n", b, lv);
			for (size_t xv = 0; xv < mb_json_len(x->values); xv++) {
				double mean, sd;

				if (!pooled(c, c->benches[b], xv, lv, &mean, &sd))
					continue;
				if (x->numeric)
					fprintf(f, "%.17g %.17g %.17g\n",
						mb_json_num(mb_json_at(x->values, xv), 0), mean, sd);
				else
					fprintf(f, "%zu %.17g %.17g\n", xv, mean, sd);
				drawn++;
			}
			fputs("EOD\n", f);
		}
	}
	return drawn;
}

/*
 * x: logarithmic when it spans two decades, categories when not numbers, a labelled tic per
 * value when there are few.
 */
static void write_x_axis(FILE *f, const struct sweep_chart *c)
{
	const struct axis *x = &c->x;
	char val[256];

	if (x->numeric && c->xmin > 0 && c->xmax / c->xmin >= 100)
		fputs("set logscale x 10\n", f);
	if (!x->numeric)
		fprintf(f, "set xrange [-0.5:%zu.5]\n", mb_json_len(x->values) - 1);
	else if (c->xmin == c->xmax)
		fprintf(f, "set xrange [%g:%g]\n", c->xmin - 1, c->xmax + 1);
	else
		fputs("set offsets graph 0.03, graph 0.03, 0, 0\n", f);
	if (!x->numeric || mb_json_len(x->values) <= MAX_XTICS) {
		fputs("set xtics (", f);
		for (size_t k = 0; k < mb_json_len(x->values); k++) {
			const struct mb_json *v = mb_json_at(x->values, k);

			if (x->numeric)
				short_num(mb_json_num(v, 0), val, sizeof(val));
			else
				mb_json_scalar_text(v, val, sizeof(val));
			fputs(k ? ", " : "", f);
			mb_plot_gp_str(f, val);
			if (x->numeric)
				fprintf(f, " %.17g", mb_json_num(v, 0));
			else
				fprintf(f, " %zu", k);
		}
		fputs(")\n", f);
	}
	fputs("set xlabel ", f);
	mb_plot_gp_str(f, x->name);
	fputc('\n', f);
}

/* Whether line @lv of bench @b has a point to draw. */
static bool line_drawn(const struct sweep_chart *c, int b, size_t lv)
{
	double mean, sd;

	for (size_t xv = 0; xv < mb_json_len(c->x.values); xv++)
		if (pooled(c, c->benches[b], xv, lv, &mean, &sd))
			return true;
	return false;
}

/*
 * Each line of bench @b that has a point, after *@first's "plot " (or a comma): titled by the
 * --lines value, the metric when there is one line, and the bench's name first in an overlay.
 */
static void write_lines(FILE *f, const struct sweep_chart *c, int b, bool overlay, bool *first)
{
	char val[256], t[600];

	for (size_t lv = 0; lv < nr_lines(c); lv++) {
		if (!line_drawn(c, b, lv))
			continue;
		fprintf(f, "%s$D%d_%zu using 1:2:3 with yerrorlines lw 1.5 title ",
			*first ? "" : ", \\\n     ", b, lv);
		if (c->l.param >= 0) {
			mb_json_scalar_text(mb_json_at(c->l.values, lv), val, sizeof(val));
			snprintf(t, sizeof(t), "%s%s%s=%s", overlay ? c->benches[b] : "",
				 overlay ? ", " : "", c->l.name, val);
		} else {
			snprintf(t, sizeof(t), "%s", overlay ? c->benches[b] : c->m.label);
		}
		mb_plot_gp_str(f, t);
		*first = false;
	}
}

/*
 * A panel: its title, with the held values, and each line that has a point: of bench @b, or
 * of every bench (@b < 0, --overlay).
 */
static void write_panel(FILE *f, const struct sweep_chart *c, int b, const struct mb_plot_opts *o)
{
	const char *name = b < 0 ? "" : c->benches[b];
	char title[1200];
	bool first = true;

	snprintf(title, sizeof(title), "%s%s%s", (b < 0 || c->nb == 1) && o->title ? o->title : name,
		 c->sub[0] && (o->title || b >= 0) ? "\n" : "", c->sub);
	fputs("set title ", f);
	mb_plot_gp_str(f, title);
	fputs("\nplot ", f);
	for (int k = b < 0 ? 0 : b; k < (b < 0 ? c->nb : b + 1); k++)
		write_lines(f, c, k, b < 0, &first);
	if (first)
		fputs("NaN notitle", f);
	fputc('\n', f);
}

static int sweep_script(FILE *f, const struct mb_json *doc, const struct mb_plot_opts *o,
			char *err, size_t errlen)
{
	struct sweep_chart c;
	int rows, cols, panels;

	if (plan_sweep_chart(&c, doc, o, err, errlen))
		return -EINVAL;
	if (!write_sweep_data(f, &c)) {
		snprintf(err, errlen, "no point with a result to draw%s%s", c.sub[0] ? " at " : "",
			 c.sub);
		return -EINVAL;
	}
	panels = o->overlay ? 1 : c.nb;
	cols = panels > 1 ? 2 : 1;
	rows = (panels + cols - 1) / cols;
	mb_plot_terminal(f, o->term, PANEL_W * cols + 160, PANEL_H * rows);
	fputs("set key outside right top\nset pointsize 0.8\nset bars small\n", f);
	if (panels > 1 || o->title) {
		fputs("set multiplot layout ", f);
		fprintf(f, "%d,%d title ", rows, cols);
		mb_plot_gp_str(f, o->title ? o->title : "mapbench sweep");
		fputc('\n', f);
	}
	write_x_axis(f, &c);
	fputs("set ylabel ", f);
	mb_plot_gp_str(f, c.m.label);
	fputs("\nset yrange [0:*]\n", f);
	for (int b = 0; b < panels; b++)
		write_panel(f, &c, o->overlay ? -1 : b, o);
	if (panels > 1 || o->title)
		fputs("unset multiplot\n", f);
	return 0;
}

/* ---- comparisons ---- */

/* The bars' colours by verdict; the last takes every other verdict. */
static const struct {
	const char *verdict, *color, *title;
} bar_classes[] = {
	{ "regressed", "#d62728", "regressed" },
	{ "improved", "#2ca02c", "improved" },
	{ NULL, "#9e9e9e", "no change or within noise" },
};

#define NR_BAR_CLASSES	((int)(sizeof(bar_classes) / sizeof(bar_classes[0])))

/* What the bar chart of a comparison learns from its rows while it writes their data. */
struct bar_chart {
	const struct mb_json *rows;
	double threshold;		/* in % */
	int n;				/* rows with a change: the bars */
	int count[NR_BAR_CLASSES];	/* bars of each class */
	int npos, nneg;			/* bars going up, down */
	double lo, hi;			/* the lowest and highest change, in %, with 0 */
};

static bool has_change(const struct mb_json *row)
{
	return mb_json_is(mb_json_get(row, "change"), MB_JSON_NUMBER);
}

static int bar_class(const struct mb_json *row)
{
	const char *verdict = mb_json_str(mb_json_get(row, "verdict"), "");
	int c = 0;

	while (bar_classes[c].verdict && strcmp(verdict, bar_classes[c].verdict))
		c++;
	return c;
}

/* A block per class, $C<class>: each of its bars' position and change in %. */
static void write_class_data(FILE *f, struct bar_chart *bc)
{
	for (int c = 0; c < NR_BAR_CLASSES; c++) {
		int k = 0;

		fprintf(f, "$C%d << EOD\n", c);
		for (size_t i = 0; i < mb_json_len(bc->rows); i++) {
			const struct mb_json *r = mb_json_at(bc->rows, i);

			if (!has_change(r))
				continue;
			if (bar_class(r) == c) {
				fprintf(f, "%d %.17g\n", k,
					mb_json_num(mb_json_get(r, "change"), 0) * 100);
				bc->count[c]++;
			}
			k++;
		}
		fputs("EOD\n", f);
	}
}

/* $L: every bar's change again, for the labels; notes the range and the signs. */
static void write_label_data(FILE *f, struct bar_chart *bc)
{
	int k = 0;

	fputs("$L << EOD\n", f);
	for (size_t i = 0; i < mb_json_len(bc->rows); i++) {
		const struct mb_json *ch = mb_json_get(mb_json_at(bc->rows, i), "change");
		double v;

		if (!mb_json_is(ch, MB_JSON_NUMBER))
			continue;
		v = mb_json_num(ch, 0) * 100;
		fprintf(f, "%d %.17g\n", k++, v);
		bc->lo = fmin(bc->lo, v);
		bc->hi = fmax(bc->hi, v);
		bc->npos += v >= 0;
		bc->nneg += v < 0;
	}
	fputs("EOD\n", f);
}

/* A tic per bar: its bench, its label unless "-", and its unit. */
static void write_bar_tics(FILE *f, const struct bar_chart *bc)
{
	char label[512];
	int k = 0;

	fputs("set xtics rotate by -30 left (", f);
	for (size_t i = 0; i < mb_json_len(bc->rows); i++) {
		const struct mb_json *r = mb_json_at(bc->rows, i);
		const char *lab = mb_json_str(mb_json_get(r, "label"), "-");

		if (!has_change(r))
			continue;
		snprintf(label, sizeof(label), "%s%s%s [%s]", mb_json_str(mb_json_get(r, "bench"), "?"),
			 strcmp(lab, "-") ? " " : "", strcmp(lab, "-") ? lab : "",
			 mb_json_str(mb_json_get(r, "unit"), ""));
		fputs(k ? ", " : "", f);
		mb_plot_gp_str(f, label);
		fprintf(f, " %d", k++);
	}
	fputs(")\n", f);
}

/* The terminal, the title naming both sides, the axes and the dashed threshold lines. */
static void write_bar_axes(FILE *f, const struct bar_chart *bc, const struct mb_json *cmp,
			   const struct mb_plot_opts *o)
{
	/* Zero and the threshold lines always in view, and room for the labels. */
	double lo = fmin(bc->lo, -bc->threshold), hi = fmax(bc->hi, bc->threshold);
	int width = bc->n * 70 + 360;
	char title[1024];

	mb_plot_terminal(f, o->term, width > 2400 ? 2400 : (width < 720 ? 720 : width), PANEL_H + 120);
	snprintf(title, sizeof(title), "%s\nbase %s, new %s\nns/op: lower is better; ops/s: higher is better",
		 o->title ? o->title : "mapbench compare",
		 mb_json_str(mb_json_get(mb_json_get(cmp, "base"), "source"), "?"),
		 mb_json_str(mb_json_get(mb_json_get(cmp, "new"), "source"), "?"));
	fputs("set title ", f);
	mb_plot_gp_str(f, title);
	fputs("\nset ylabel ", f);
	mb_plot_gp_str(f, "change of the mean (%)");
	fputs("\nset key outside right top\nset style fill solid 0.8 border -1\nset boxwidth 0.7\n"
	      "set xzeroaxis lt -1\nset grid noxtics ytics\n", f);
	fprintf(f, "set xrange [-0.6:%d.6]\n", bc->n - 1);
	fprintf(f, "set yrange [%.17g:%.17g]\n", lo - (hi - lo) * 0.12, hi + (hi - lo) * 0.12);
	fprintf(f, "set arrow from graph 0, first %g to graph 1, first %g nohead dt 2 lc rgb \"#606060\"\n",
		bc->threshold, bc->threshold);
	fprintf(f, "set arrow from graph 0, first %g to graph 1, first %g nohead dt 2 lc rgb \"#606060\"\n",
		-bc->threshold, -bc->threshold);
}

/* The bars of each class that has some, their values, and the threshold in the key. */
static void write_bars(FILE *f, const struct bar_chart *bc)
{
	bool first = true;
	char val[64];

	fputs("plot ", f);
	for (int c = 0; c < NR_BAR_CLASSES; c++) {
		if (!bc->count[c])
			continue;
		fprintf(f, "%s$C%d using 1:2 with boxes lc rgb \"%s\" title \"%s\"",
			first ? "" : ", \\\n     ", c, bar_classes[c].color, bar_classes[c].title);
		first = false;
	}
	/*
	 * The value above a bar that goes up, below one that goes down. A labels plot without a
	 * single valid point crashes gnuplot 5.4, so each is there only when it has one.
	 */
	if (bc->npos)
		fputs(", \\\n     $L using 1:($2 >= 0 ? $2 : NaN):(sprintf(\"%+.1f%%\", $2)) with labels offset 0,0.8 notitle", f);
	if (bc->nneg)
		fputs(", \\\n     $L using 1:($2 < 0 ? $2 : NaN):(sprintf(\"%+.1f%%\", $2)) with labels offset 0,-0.8 notitle", f);
	snprintf(val, sizeof(val), "%g", bc->threshold);
	fprintf(f, ", \\\n     NaN with lines dt 2 lc rgb \"#606060\" title \"threshold +-%s %%\"\n", val);
}

static int comparison_script(FILE *f, const struct mb_json *doc, const struct mb_plot_opts *o,
			     char *err, size_t errlen)
{
	const struct mb_json *cmp = mb_json_get(doc, "comparison");
	struct bar_chart bc = {
		.rows = mb_json_get(cmp, "rows"),
		.threshold = mb_json_num(mb_json_get(cmp, "threshold"), 0.02) * 100,
	};

	for (size_t i = 0; i < mb_json_len(bc.rows); i++)
		bc.n += has_change(mb_json_at(bc.rows, i));
	if (!bc.n) {
		snprintf(err, errlen, "the comparison has no matched result with a change to draw");
		return -EINVAL;
	}
	write_class_data(f, &bc);
	write_label_data(f, &bc);
	write_bar_axes(f, &bc, cmp, o);
	write_bar_tics(f, &bc);
	write_bars(f, &bc);
	return 0;
}

char *mb_plot_script(const struct mb_json *doc, enum mb_doc_kind kind,
		     const struct mb_plot_opts *o, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f;
	int ret;

	if (kind == MB_DOC_RESULTS && !mb_json_is(mb_json_get(doc, "sweep"), MB_JSON_OBJECT)) {
		snprintf(err, errlen, "not a sweep (no \"sweep\" object): plot draws the output of mapbench sweep or mapbench compare --format json");
		return NULL;
	}
	f = open_memstream(&buf, &size);
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	fputs("# mapbench plot: a gnuplot script\n", f);
	ret = kind == MB_DOC_COMPARISON ? comparison_script(f, doc, o, err, errlen) :
					  sweep_script(f, doc, o, err, errlen);
	if (fclose(f) || ret) {
		if (!ret)
			snprintf(err, errlen, "out of memory");
		free(buf);
		return NULL;
	}
	return buf;
}
