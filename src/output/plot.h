/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Charts with gnuplot: a sweep becomes a line chart (x: a swept parameter, log scale when its
 * values span decades; y: a metric with its standard deviation as error bars; one line per
 * value of a second parameter; one panel per bench), a comparison a bar chart of the relative
 * changes, and with --latency the results' per-op latency distributions a CDF or histogram
 * (plot_latency.c). Building the script is a pure function of the documents.
 */
#ifndef MB_PLOT_H
#define MB_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "doc.h"

struct mb_json;

enum mb_plot_term {
	MB_PLOT_SVG,
	MB_PLOT_PNG,
};

#define MB_PLOT_MAX_WHERE	32
#define MB_PLOT_MAX_PANELS	8

struct mb_plot_opts {
	enum mb_plot_term term;
	const char *x;		/* swept parameter on the x axis (NULL: the preset's, or the first) */
	const char *lines;	/* one line per value of this parameter ("none": one line) */
	const char *metric;	/* throughput, latency, auto, a summary key, metrics.NAME */
	const char *benches;	/* comma-separated panels to draw (NULL: every bench) */
	const char *title;
	bool overlay;		/* one panel: every bench's lines together */
	bool hist;		/* --latency: a histogram rather than the CDF */
	const char *where[MB_PLOT_MAX_WHERE];	/* NAME=VALUE: fixes another swept parameter */
	int nr_where;
};

/*
 * The gnuplot script (a malloc'd string) writing the chart to stdout, or NULL with one line in
 * @err: the document has no sweep or comparison, a named parameter or metric is unknown, there
 * is nothing to draw.
 */
char *mb_plot_script(const struct mb_json *doc, enum mb_doc_kind kind,
		     const struct mb_plot_opts *o, char *err, size_t errlen);

/* A result document plot --latency reads, and the file it came from (for the titles). */
struct mb_plot_input {
	const struct mb_json *doc;
	const char *path;
};

/*
 * plot --latency: the gnuplot script (a malloc'd string) drawing the per-op latency
 * distribution (latency_ns.buckets) of every result of @in (of o->benches), one line each: a
 * CDF, or a histogram with o->hist. Each result without one gets a warning naming it and why;
 * NULL with one line in @err when none has one.
 */
char *mb_plot_latency_script(const struct mb_plot_input *in, int nr_in,
			     const struct mb_plot_opts *o, char *err, size_t errlen);

/*
 * What the scripts share: a string literal for gnuplot (\, " and newlines escaped, other
 * control characters out), the terminal of a @w x @h chart on stdout, and whether @bench is in
 * the comma-separated @list (every bench when @list is NULL).
 */
void mb_plot_str(FILE *f, const char *s);
void mb_plot_terminal(FILE *f, enum mb_plot_term term, int w, int h);
bool mb_plot_bench_wanted(const char *list, const char *bench);

#endif
