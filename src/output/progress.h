/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Progress of a long sweep on stderr: a line per finished point, and on a terminal a bar
 * (points done, elapsed, estimated time left) redrawn in place.
 */
#ifndef MB_PROGRESS_H
#define MB_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mb_progress {
	int total, done;
	double est_total;	/* estimated seconds of all points */
	double est_done;	/* estimated seconds of the points done */
	uint64_t t0;
	bool bar;		/* draw the bar (stderr is a terminal, not -q, not -v) */
	bool lines;		/* print a line per point (not -q) */
};

void mb_progress_start(struct mb_progress *p, int total, double est_total, bool bar, bool lines);
/* A point starts: the bar shows what runs. */
void mb_progress_begin(struct mb_progress *p, const char *what);
/* A point is done: print @line (if lines), account its estimate, redraw the bar. */
void mb_progress_end(struct mb_progress *p, double est, const char *line);
void mb_progress_stop(struct mb_progress *p);

/*
 * The bar's text for @done of @total points after @elapsed seconds with @left seconds left
 * (negative: unknown), what runs now, in at most @width columns.
 */
void mb_progress_format(char *buf, size_t len, int done, int total, double elapsed, double left,
			const char *what, int width);
/* "1:02:03", "2:03" or "45 s". */
void mb_progress_duration(char *buf, size_t len, double seconds);

#endif
