// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * mapbench plot --latency: the per-op latency distribution of results (latency_ns.buckets,
 * docs/output.md) as a gnuplot script: one line per result, on a log x axis in ns, as a CDF
 * (the share of timed ops at or below x, a step at each bucket's top) or as a histogram (each
 * bucket's share of the timed ops, across its width).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "util/json.h"
#include "util/log.h"

#define LAT_W		960
#define LAT_H		560
#define LABEL_LEN	512

/* A result drawn: its buckets (checked) and its line's title. */
struct lat_line {
	const struct mb_json *result;
	const struct mb_json *buckets;
	const char *path;
	double total;			/* the buckets' counts added up */
	char label[LABEL_LEN];
};

struct lat_chart {
	struct lat_line *lines;
	int n;
	bool several_files;
};

static double cell(const struct mb_json *row, size_t i)
{
	return mb_json_num(mb_json_at(row, i), NAN);
}

/*
 * The total of @buckets' counts when they are rows [low, high, count] of whole numbers, lowest
 * first and apart, else -1 (a document from elsewhere is read with care).
 */
static double buckets_total(const struct mb_json *buckets)
{
	double total = 0, prev_high = -1;

	for (size_t i = 0; i < mb_json_len(buckets); i++) {
		const struct mb_json *row = mb_json_at(buckets, i);
		double lo = cell(row, 0), hi = cell(row, 1), count = cell(row, 2);

		if (!mb_json_is(row, MB_JSON_ARRAY) || mb_json_len(row) != 3 || !(lo >= 0) ||
		    !(hi >= lo) || !(lo > prev_high) || !(count >= 0) || count != floor(count) ||
		    lo != floor(lo) || hi != floor(hi))
			return -1;
		total += count;
		prev_high = hi;
	}
	return total;
}

/* Why @result is not drawn, or NULL when it is; its buckets and their total into @l. */
static const char *why_not(const struct mb_json *result, struct lat_line *l)
{
	const struct mb_json *lat = mb_json_get(result, "latency_ns");
	const char *why = mb_json_str(mb_json_get(lat, "why"), NULL);

	if (!mb_json_is(lat, MB_JSON_OBJECT))
		return "no latency_ns: it ran without --latency";
	l->buckets = mb_json_get(lat, "buckets");
	if (!mb_json_is(l->buckets, MB_JSON_ARRAY))
		return "latency_ns has no buckets: written by a mapbench from before they were kept";
	l->total = buckets_total(l->buckets);
	if (l->total < 0)
		return "latency_ns.buckets are not rows [low, high, count] in order";
	if (l->total == 0)
		return why ? why : "no op was timed";
	return NULL;
}

/* Each result of @in with a distribution becomes a line; each other gets one warning. */
static int collect_lines(struct lat_chart *c, const struct mb_plot_input *in, int nr_in,
			 const struct mb_plot_opts *o)
{
	for (int d = 0; d < nr_in; d++) {
		const struct mb_json *results = mb_json_get(in[d].doc, "results");

		for (size_t i = 0; i < mb_json_len(results); i++) {
			const struct mb_json *r = mb_json_at(results, i);
			const char *bench = mb_json_str(mb_json_get(r, "bench"), "?");
			struct lat_line *l = &c->lines[c->n];
			const char *why;

			if (!mb_plot_bench_wanted(o->benches, bench))
				continue;
			memset(l, 0, sizeof(*l));
			why = why_not(r, l);
			if (why) {
				mb_warn("plot: %s: result %zu (%s): %s; not drawn", in[d].path, i + 1,
					bench, why);
				continue;
			}
			l->result = r;
			l->path = in[d].path;
			c->n++;
		}
	}
	return c->n;
}

/*
 * Whether parameter @key has the same value in every drawn result of @bench (the results of
 * other benches are told apart by their name).
 */
static bool same_everywhere(const struct lat_chart *c, const char *bench, const char *key,
			    const char *value)
{
	char other[256];

	for (int k = 0; k < c->n; k++) {
		const struct mb_json *r = c->lines[k].result;
		const struct mb_json *v = mb_json_get(mb_json_get(r, "params"), key);

		if (strcmp(mb_json_str(mb_json_get(r, "bench"), "?"), bench))
			continue;
		if (!v)
			return false;
		mb_json_scalar_text(v, other, sizeof(other));
		if (strcmp(other, value))
			return false;
	}
	return true;
}

/*
 * A line's title: the bench, the parameters whose values differ between the drawn results of
 * that bench, the file when there are several, and the ops timed.
 */
static void make_label(const struct lat_chart *c, struct lat_line *l)
{
	const struct mb_json *params = mb_json_get(l->result, "params");
	const char *base = strrchr(l->path, '/');
	const char *bench = mb_json_str(mb_json_get(l->result, "bench"), "?");
	char *s = l->label, value[256];
	size_t n;

	n = (size_t)snprintf(s, LABEL_LEN, "%s", bench);
	for (size_t i = 0; i < mb_json_len(params) && n < LABEL_LEN; i++) {
		const char *key = mb_json_key_at(params, i);

		mb_json_scalar_text(mb_json_at(params, i), value, sizeof(value));
		if (!same_everywhere(c, bench, key, value))
			n += (size_t)snprintf(s + n, LABEL_LEN - n, " %s=%s", key, value);
	}
	if (c->several_files && n < LABEL_LEN)
		n += (size_t)snprintf(s + n, LABEL_LEN - n, " (%s)", base ? base + 1 : l->path);
	if (n < LABEL_LEN)
		snprintf(s + n, LABEL_LEN - n, ", %.0f timed", l->total);
}

/* A point, where the log axis can draw it (ops of 0 ns count in the shares, but have no place). */
static void point(FILE *f, double x, double y)
{
	if (x > 0)
		fprintf(f, "%.17g %.17g\n", x, y);
}

/*
 * The CDF, a step line: at each bucket's bottom the share of the ops below it, at its top
 * the share at or below it.
 */
static void write_cdf(FILE *f, const struct lat_line *l)
{
	double seen = 0;

	for (size_t i = 0; i < mb_json_len(l->buckets); i++) {
		const struct mb_json *row = mb_json_at(l->buckets, i);

		point(f, cell(row, 0), seen / l->total);
		seen += cell(row, 2);
		point(f, cell(row, 1), seen / l->total);
	}
}

/* The histogram: each bucket's share (%) across its width, 0 between buckets apart. */
static void write_hist(FILE *f, const struct lat_line *l)
{
	double end = -1;

	for (size_t i = 0; i < mb_json_len(l->buckets); i++) {
		const struct mb_json *row = mb_json_at(l->buckets, i);
		double lo = cell(row, 0), share = cell(row, 2) / l->total * 100;

		if (cell(row, 1) < 1)
			continue;	/* 0 ns: no width on the log axis */
		if (lo != end) {
			if (end >= 0)
				point(f, end, 0);
			point(f, lo, 0);
		}
		point(f, lo, share);
		end = cell(row, 1) + 1;
		point(f, end, share);
	}
	point(f, end, 0);
}

/* The terminal, the titles, a log x axis with a tic per decade named in ns, us, ms. */
static void write_axes(FILE *f, const struct mb_plot_opts *o)
{
	static const char *const decades[] = { "1 ns", "10 ns", "100 ns", "1 us", "10 us",
					       "100 us", "1 ms", "10 ms", "100 ms", "1 s" };
	char title[512];

	mb_plot_terminal(f, o->term, LAT_W, LAT_H);
	snprintf(title, sizeof(title), "%s\nns per timed op, each with the clock's own cost (timer_ns)",
		 o->title ? o->title : o->hist ? "per-op latency: histogram" :
						 "per-op latency: CDF");
	fputs("set title ", f);
	mb_plot_str(f, title);
	fputs("\nset logscale x 10\nset xtics (", f);
	for (size_t k = 0; k < sizeof(decades) / sizeof(*decades); k++) {
		fprintf(f, "%s", k ? ", " : "");
		mb_plot_str(f, decades[k]);
		fprintf(f, " %g", pow(10, (double)k));
	}
	fputs(")\nset mxtics 10\nset xlabel \"latency of one timed op\"\n", f);
	if (o->hist)
		fputs("set ylabel \"share of the timed ops in the bucket (%)\"\nset yrange [0:*]\n"
		      "set key top right\n", f);
	else
		fputs("set ylabel \"share of the timed ops at or below x\"\nset yrange [0:1.02]\n"
		      "set key bottom right\n", f);
}

static void write_chart(FILE *f, const struct lat_chart *c, const struct mb_plot_opts *o)
{
	for (int k = 0; k < c->n; k++) {
		fprintf(f, "$L%d << EOD\n", k);
		if (o->hist)
			write_hist(f, &c->lines[k]);
		else
			write_cdf(f, &c->lines[k]);
		fputs("EOD\n", f);
	}
	write_axes(f, o);
	fputs("plot ", f);
	for (int k = 0; k < c->n; k++) {
		fprintf(f, "%s$L%d using 1:2 with %s lw 1.5 title ", k ? ", \\\n     " : "", k,
			o->hist ? "lines" : "steps");
		mb_plot_str(f, c->lines[k].label);
	}
	fputc('\n', f);
}

char *mb_plot_latency_script(const struct mb_plot_input *in, int nr_in,
			     const struct mb_plot_opts *o, char *err, size_t errlen)
{
	struct lat_chart c = { .several_files = nr_in > 1 };
	size_t nr_results = 0, size = 0;
	char *buf = NULL;
	FILE *f;

	for (int d = 0; d < nr_in; d++)
		nr_results += mb_json_len(mb_json_get(in[d].doc, "results"));
	c.lines = calloc(nr_results ? nr_results : 1, sizeof(*c.lines));
	if (!c.lines) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!collect_lines(&c, in, nr_in, o)) {
		snprintf(err, errlen, "no result%s has a latency distribution to draw (latency_ns: run with --latency)",
			 o->benches ? " of --bench" : "");
		goto out;
	}
	for (int k = 0; k < c.n; k++)
		make_label(&c, &c.lines[k]);
	f = open_memstream(&buf, &size);
	if (!f) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	fputs("# mapbench plot --latency: a gnuplot script\n", f);
	write_chart(f, &c, o);
	if (fclose(f)) {
		snprintf(err, errlen, "out of memory");
		free(buf);
		buf = NULL;
	}
out:
	free(c.lines);
	return buf;
}
