/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A small SVG writer: line charts as an inline <svg> element (mapbench report's trends), with
 * axes, ticks at round numbers, a legend, and dashed vertical marks with a label (where the
 * kernel changed). No script, no external reference: the element renders as it is.
 */
#ifndef MB_SVG_H
#define MB_SVG_H

#include <stddef.h>
#include <stdio.h>

struct mb_svg_line {
	const char *label;
	const double *x, *y;	/* @n points; a NaN y is left out */
	size_t n;
};

struct mb_svg_mark {
	double x;
	const char *label;
};

struct mb_svg_chart {
	const char *title, *xlabel, *ylabel;
	int width, height;
	const struct mb_svg_line *lines;
	size_t nr_lines;
	const struct mb_svg_mark *marks;
	size_t nr_marks;
};

/* @s with &, <, >, " and ' escaped for XML text and attributes; control characters left out. */
void mb_svg_escape(FILE *f, const char *s);

/*
 * Round tick values covering [@lo, @hi]: a step of 1, 2 or 5 times a power of ten giving 4..10
 * ticks; writes the first tick (<= @lo) and the step. A zero range is widened first.
 */
void mb_svg_ticks(double lo, double hi, double *first, double *step);

/* Write @c as one <svg> element. Returns 0 or -EIO. */
int mb_svg_chart_write(FILE *f, const struct mb_svg_chart *c);

#endif
