/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A trend of the results history (mapbench trend): one panel per bench, x the bench's runs
 * oldest first, y each run's mean of the headline figure with its standard deviation as
 * error bars, one line per parameter set (and machine class where a bench has several), the
 * kernel release marked on the x axis (a tic and a dashed line) where it changes. The order
 * of the runs, shared with the report's SVG charts, and the gnuplot script are pure.
 */
#ifndef MB_TREND_H
#define MB_TREND_H

#include <stddef.h>

#include "plot.h"
#include "series.h"

#define MB_TREND_MAX_PANELS	16

/* A run's place on a bench's x axis. */
struct mb_trend_point {
	size_t series, run;	/* indices into the set and the series' runs */
	const char *kernel;
	int x;			/* 0-based, by time (then id) across the bench's series */
	bool kernel_changed;	/* the first run, or another kernel than the run before */
};

/*
 * The runs of every series of @bench in @set, on one x axis (malloc'd, @n of them, sorted by
 * x). NULL with errno ENOMEM, or with *n 0 when the bench has no run.
 */
struct mb_trend_point *mb_trend_points(const struct mb_series_set *set, const char *bench,
				       size_t *n);

/* The distinct benches of @set in order of first appearance; @n of them (malloc'd array). */
const char **mb_trend_benches(const struct mb_series_set *set, size_t *n);

/*
 * A series' line title: the parameters that tell it from the bench's other series ("one
 * parameter set" where it has no other), and "machine N" where the bench ran on several.
 */
void mb_trend_label(const struct mb_series_set *set, const struct mb_series *s, char *buf,
		    size_t len);

/*
 * The gnuplot script of the trend of @set (not split by kernel), or NULL with one line in @err:
 * no run, or more benches than MB_TREND_MAX_PANELS.
 */
char *mb_trend_script(const struct mb_series_set *set, enum mb_plot_term term, const char *title,
		      char *err, size_t errlen);

#endif
