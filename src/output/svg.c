// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* A small SVG writer: line charts with axes, ticks, a legend and labelled vertical marks. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "svg.h"

#define MARGIN_L	70
#define MARGIN_R	20
#define MARGIN_T	30
#define MARGIN_B	50
#define LEGEND_ROW	16

/* Colours that stay apart for the common forms of colour blindness (Okabe and Ito). */
static const char *const palette[] = { "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
				       "#56B4E9", "#000000", "#F0E442" };
#define NR_COLOURS	(sizeof(palette) / sizeof(*palette))

void mb_svg_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, f);
		}
	}
}

void mb_svg_ticks(double lo, double hi, double *first, double *step)
{
	static const double mult[] = { 1, 2, 5 };
	double range, base;

	if (!(hi > lo)) {
		double pad = lo ? fabs(lo) * 0.05 : 1;

		lo -= pad;
		hi += pad;
	}
	range = hi - lo;
	base = pow(10, floor(log10(range / 10)));
	*step = base;
	for (int k = 0; k < 4; k++) {
		for (int m = 0; m < 3; m++) {
			double s = base * pow(10, k) * mult[m];

			if (range / s <= 10) {
				*step = s;
				*first = floor(lo / s) * s;
				return;
			}
		}
	}
	*first = floor(lo / *step) * *step;
}

struct frame {
	double xmin, xmax, ymin, ymax;
	int x0, y0, w, h;	/* the plot area */
};

static double px(const struct frame *fr, double x)
{
	return fr->x0 + (x - fr->xmin) / (fr->xmax - fr->xmin) * fr->w;
}

static double py(const struct frame *fr, double y)
{
	return fr->y0 + fr->h - (y - fr->ymin) / (fr->ymax - fr->ymin) * fr->h;
}

/* The data's extent, y from round ticks, x padded by half a step. */
static void extent(const struct mb_svg_chart *c, struct frame *fr, double *first, double *step)
{
	double ylo = INFINITY, yhi = -INFINITY, xlo = INFINITY, xhi = -INFINITY;

	for (size_t l = 0; l < c->nr_lines; l++) {
		for (size_t i = 0; i < c->lines[l].n; i++) {
			double x = c->lines[l].x[i], y = c->lines[l].y[i];

			if (!isfinite(x) || !isfinite(y))
				continue;
			ylo = fmin(ylo, y);
			yhi = fmax(yhi, y);
			xlo = fmin(xlo, x);
			xhi = fmax(xhi, x);
		}
	}
	if (!isfinite(ylo)) {
		ylo = 0;
		yhi = 1;
		xlo = 0;
		xhi = 1;
	}
	mb_svg_ticks(ylo, yhi, first, step);
	fr->ymin = *first;
	fr->ymax = *first + ceil((yhi - *first) / *step) * *step;
	if (fr->ymax <= fr->ymin)
		fr->ymax = fr->ymin + *step;
	fr->xmin = xlo - 0.5;
	fr->xmax = xhi + 0.5;
}

static void axes(FILE *f, const struct mb_svg_chart *c, const struct frame *fr, double first,
		 double step)
{
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>\n",
		fr->x0, fr->y0, fr->w, fr->h);
	for (double t = first; t <= fr->ymax + step * 1e-9; t += step) {
		double y = py(fr, t);

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%.6g</text>\n",
			fr->x0, y, fr->x0 + fr->w, y, fr->x0 - 6, y + 4,
			fabs(t) < step * 1e-9 ? 0 : t);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">",
		fr->x0 + fr->w / 2, fr->y0 + fr->h + 40);
	mb_svg_escape(f, c->xlabel);
	fprintf(f, "</text>\n<text transform=\"translate(16 %d) rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">",
		fr->y0 + fr->h / 2);
	mb_svg_escape(f, c->ylabel);
	fputs("</text>\n", f);
}

static void marks(FILE *f, const struct mb_svg_chart *c, const struct frame *fr)
{
	for (size_t i = 0; i < c->nr_marks; i++) {
		double x = px(fr, c->marks[i].x);

		fprintf(f, "<line class=\"mark\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>"
			"<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#555\">",
			x, fr->y0, x, fr->y0 + fr->h, x + 3, fr->y0 + fr->h + 14);
		mb_svg_escape(f, c->marks[i].label);
		fputs("</text>\n", f);
	}
}

static void line(FILE *f, const struct mb_svg_line *l, const struct frame *fr, const char *colour)
{
	fprintf(f, "<g class=\"series\" fill=\"%s\" stroke=\"%s\"><title>", colour, colour);
	mb_svg_escape(f, l->label);
	fputs("</title><polyline fill=\"none\" stroke-width=\"1.5\" points=\"", f);
	for (size_t i = 0; i < l->n; i++)
		if (isfinite(l->x[i]) && isfinite(l->y[i]))
			fprintf(f, "%.1f,%.1f ", px(fr, l->x[i]), py(fr, l->y[i]));
	fputs("\"/>\n", f);
	for (size_t i = 0; i < l->n; i++)
		if (isfinite(l->x[i]) && isfinite(l->y[i]))
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" stroke=\"none\"/>",
				px(fr, l->x[i]), py(fr, l->y[i]));
	fputs("</g>\n", f);
}

static void legend(FILE *f, const struct mb_svg_chart *c, const struct frame *fr)
{
	for (size_t l = 0; l < c->nr_lines; l++) {
		int y = fr->y0 + fr->h + MARGIN_B + 8 + (int)l * LEGEND_ROW;

		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"4\" fill=\"%s\"/><text x=\"%d\" y=\"%d\" font-size=\"11\">",
			fr->x0, y - 4, palette[l % NR_COLOURS], fr->x0 + 18, y);
		mb_svg_escape(f, c->lines[l].label);
		fputs("</text>\n", f);
	}
}

int mb_svg_chart_write(FILE *f, const struct mb_svg_chart *c)
{
	int height = c->height + (int)c->nr_lines * LEGEND_ROW + 8;
	struct frame fr = {
		.x0 = MARGIN_L, .y0 = MARGIN_T,
		.w = c->width - MARGIN_L - MARGIN_R, .h = c->height - MARGIN_T - MARGIN_B,
	};
	double first, step;

	extent(c, &fr, &first, &step);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\">\n<title>",
		c->width, height, c->width, height);
	mb_svg_escape(f, c->title);
	fprintf(f, "</title>\n<text x=\"%d\" y=\"18\" font-size=\"13\" font-weight=\"bold\">", MARGIN_L);
	mb_svg_escape(f, c->title);
	fputs("</text>\n", f);
	axes(f, c, &fr, first, step);
	marks(f, c, &fr);
	for (size_t l = 0; l < c->nr_lines; l++)
		line(f, &c->lines[l], &fr, palette[l % NR_COLOURS]);
	legend(f, c, &fr);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
