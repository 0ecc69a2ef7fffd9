/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Charts with gnuplot: a sweep becomes a line chart (x: a swept parameter, log scale when its
 * values span decades; y: a metric with its standard deviation as error bars; one line per
 * value of a second parameter; one panel per bench), a comparison a bar chart of the relative
 * changes. Building the script is a pure function of the document.
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

/* A string literal for gnuplot: double-quoted, with \ and " escaped, control characters out. */
void mb_plot_gp_str(FILE *f, const char *s);
/* The terminal (SVG, or PNG by pngcairo where gnuplot has it) of @w x @h, output to stdout. */
void mb_plot_terminal(FILE *f, enum mb_plot_term term, int w, int h);

#endif
