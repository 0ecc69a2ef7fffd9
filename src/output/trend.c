// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The trend of the results history: runs on one x axis per bench, and its gnuplot script. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trend.h"

#define PANEL_W		900
#define PANEL_H		420


static int by_time(const void *a, const void *b, void *arg)
{
	const struct mb_series_set *sort_set = arg;
	const struct mb_trend_point *p = a, *q = b;
	const struct mb_series_run *r = &sort_set->s[p->series].runs[p->run];
	const struct mb_series_run *s = &sort_set->s[q->series].runs[q->run];
	int c = strcmp(r->time, s->time);

	if (c)
		return c;
	return r->id < s->id ? -1 : r->id > s->id;
}

struct mb_trend_point *mb_trend_points(const struct mb_series_set *set, const char *bench,
				       size_t *n)
{
	struct mb_trend_point *pts;
	size_t total = 0;

	*n = 0;
	for (size_t i = 0; i < set->nr; i++)
		if (!strcmp(set->s[i].bench, bench))
			total += set->s[i].nr;
	pts = calloc(total + 1, sizeof(*pts));
	if (!pts)
		return NULL;
	for (size_t i = 0; i < set->nr; i++) {
		if (strcmp(set->s[i].bench, bench))
			continue;
		for (size_t j = 0; j < set->s[i].nr; j++) {
			pts[*n].series = i;
			pts[*n].run = j;
			pts[*n].kernel = set->s[i].runs[j].kernel;
			(*n)++;
		}
	}
	qsort_r(pts, *n, sizeof(*pts), by_time, (void *)set);
	for (size_t i = 0; i < *n; i++) {
		pts[i].x = (int)i;
		pts[i].kernel_changed = !i || strcmp(pts[i].kernel, pts[i - 1].kernel);
	}
	return pts;
}

const char **mb_trend_benches(const struct mb_series_set *set, size_t *n)
{
	const char **names = calloc(set->nr + 1, sizeof(*names));

	*n = 0;
	if (!names)
		return NULL;
	for (size_t i = 0; i < set->nr; i++) {
		size_t j = 0;

		while (j < *n && strcmp(names[j], set->s[i].bench))
			j++;
		if (j == *n)
			names[(*n)++] = set->s[i].bench;
	}
	return names;
}

void mb_trend_label(const struct mb_series_set *set, const struct mb_series *s, char *buf,
		    size_t len)
{
	int n;

	mb_series_short_params(set, s, buf, len);
	if (!strcmp(buf, "-"))
		snprintf(buf, len, "%s", *s->params ? "one parameter set" : "no parameters");
	n = (int)strlen(buf);

	if (n >= 0 && (size_t)n < len && mb_series_machines(set, s->bench) > 1)
		snprintf(buf + n, len - (size_t)n, ", machine %d", s->machine);
}

/* The x tics: the kernel release at each run where it changes, and a dashed line there. */
static void kernel_marks(FILE *f, const struct mb_trend_point *pts, size_t n)
{
	bool first = true;

	fputs("unset arrow\nset xtics (", f);
	for (size_t i = 0; i < n; i++) {
		if (!pts[i].kernel_changed)
			continue;
		fputs(first ? "" : ", ", f);
		mb_plot_str(f, pts[i].kernel);
		fprintf(f, " %d", pts[i].x);
		first = false;
	}
	fputs(") rotate by -20\n", f);
	for (size_t i = 1; i < n; i++)
		if (pts[i].kernel_changed)
			fprintf(f, "set arrow from %d, graph 0 to %d, graph 1 nohead dt 2 lc rgb \"#808080\"\n",
				pts[i].x, pts[i].x);
}

static void panel_head(FILE *f, const struct mb_series *s, size_t n)
{
	char title[512];

	snprintf(title, sizeof(title), "%s: %s (%s, %s is better)", s->bench, s->figure, s->unit,
		 s->higher_is_better ? "higher" : "lower");
	fputs("set title ", f);
	mb_plot_str(f, title);
	fputs("\nset xlabel \"runs, oldest first (kernel release where it changes)\"\nset ylabel ", f);
	mb_plot_str(f, s->unit);
	fprintf(f, "\nset xrange [-0.5:%zu.5]\nset key outside right top\n", n ? n - 1 : 0);
}

/* One bench: its runs, one yerrorlines line per series, the data inline. */
static int panel(FILE *f, const struct mb_series_set *set, const char *bench)
{
	size_t n, lines = 0;
	struct mb_trend_point *pts = mb_trend_points(set, bench, &n);
	char label[512];

	if (!pts)
		return -ENOMEM;
	for (size_t i = 0; i < set->nr; i++)
		if (!strcmp(set->s[i].bench, bench) && !lines++)
			panel_head(f, &set->s[i], n);
	kernel_marks(f, pts, n);
	fputs("plot ", f);
	for (size_t i = 0, k = 0; i < set->nr; i++) {
		if (strcmp(set->s[i].bench, bench))
			continue;
		mb_trend_label(set, &set->s[i], label, sizeof(label));
		fprintf(f, "%s'-' using 1:2:3 with yerrorlines pt 7 ps 0.6 title ", k++ ? ", " : "");
		mb_plot_str(f, label);
	}
	fputc('\n', f);
	for (size_t i = 0; i < set->nr; i++) {
		if (strcmp(set->s[i].bench, bench))
			continue;
		for (size_t p = 0; p < n; p++) {
			const struct mb_series_run *r = &set->s[i].runs[pts[p].run];

			if (pts[p].series == i && isfinite(r->mean))
				fprintf(f, "%d %.17g %.17g\n", pts[p].x, r->mean,
					isfinite(r->stddev) ? r->stddev : 0);
		}
		fputs("e\n", f);
	}
	free(pts);
	return 0;
}

char *mb_trend_script(const struct mb_series_set *set, enum mb_plot_term term, const char *title,
		      char *err, size_t errlen)
{
	size_t nb, size = 0;
	const char **benches = mb_trend_benches(set, &nb);
	char *script = NULL;
	FILE *f;
	int ret = 0;

	if (!benches || !nb || nb > MB_TREND_MAX_PANELS) {
		if (!benches)
			snprintf(err, errlen, "out of memory");
		else if (!nb)
			snprintf(err, errlen, "no run matched: nothing to draw");
		else
			snprintf(err, errlen, "%zu benches: at most %d panels; name a BENCH", nb,
				 MB_TREND_MAX_PANELS);
		free(benches);
		return NULL;
	}
	f = open_memstream(&script, &size);
	if (!f) {
		free(benches);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	mb_plot_terminal(f, term, PANEL_W + 260, PANEL_H * (int)nb + 40);
	fputs("set multiplot layout ", f);
	fprintf(f, "%zu,1 title ", nb);
	mb_plot_str(f, title ? title : "mapbench trend");
	fputc('\n', f);
	for (size_t i = 0; i < nb && !ret; i++)
		ret = panel(f, set, benches[i]);
	fputs("unset multiplot\n", f);
	free(benches);
	if (fclose(f) || ret) {
		free(script);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return script;
}
