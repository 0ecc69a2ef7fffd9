/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * mapbench report's page: one static HTML file, no script and no reference outside it. A
 * table of the latest run of each series with its gate verdict, then a trend per bench as an
 * inline SVG chart (output/svg.h): the mean of each run, one line per parameter set, dashed
 * marks where the kernel changed.
 */
#ifndef MB_HTML_REPORT_H
#define MB_HTML_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "gate.h"
#include "series.h"

struct mb_html_report {
	const char *source;		/* what the runs came from, as shown ("history.db") */
	const char *generated;		/* when, ISO 8601 */
	const struct mb_gate_row *rows;	/* the gate's rows (series split by kernel) */
	size_t nr_rows;
	const struct mb_gate_opts *gate;
	int window;
	const struct mb_series_set *trend;	/* series across kernels, for the charts */
};

/* Write the page. Returns 0 or a negative errno. */
int mb_html_report_write(FILE *f, const struct mb_html_report *r);

#endif
