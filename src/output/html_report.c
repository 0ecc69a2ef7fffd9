// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* mapbench report's page: the latest results with their gate verdicts, and a trend per bench. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html_report.h"
#include "svg.h"
#include "trend.h"

#define CHART_W		900
#define CHART_H		320

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222}"
	"table{border-collapse:collapse;font-size:13px}"
	"th,td{border:1px solid #ccc;padding:3px 6px;text-align:left}"
	"td.num{text-align:right}th{background:#f0f0f0}"
	"tr.regressed td{background:#fde0dc}tr.improved td{background:#e0f4e0}"
	"tr.few td{color:#777}section{margin-top:1.5em}";

static const char *row_class(enum mb_gate_verdict v)
{
	switch (v) {
	case MB_GATE_REGRESSED:
		return "regressed";
	case MB_GATE_IMPROVED:
		return "improved";
	case MB_GATE_PASS:
		return "pass";
	default:
		return "few";
	}
}

static void cell(FILE *f, const char *cls, const char *text)
{
	fprintf(f, "<td%s>", cls ? " class=\"num\"" : "");
	mb_svg_escape(f, text && *text ? text : "-");
	fputs("</td>", f);
}

static void num_cell(FILE *f, const char *fmt, double v)
{
	char buf[64];

	if (isfinite(v))
		snprintf(buf, sizeof(buf), fmt, v);
	else
		snprintf(buf, sizeof(buf), "-");
	cell(f, "num", buf);
}

static void table_row(FILE *f, const struct mb_gate_row *row)
{
	const struct mb_gate_result *r = &row->r;
	bool judged = r->verdict != MB_GATE_TOO_FEW && r->verdict != MB_GATE_NO_SAMPLES;
	char buf[96];

	fprintf(f, "<tr class=\"%s\">", row_class(r->verdict));
	cell(f, NULL, row->bench);
	fputs("<td title=\"", f);
	mb_svg_escape(f, row->params);
	fputs("\">", f);
	mb_svg_escape(f, row->label[0] ? row->label : "-");
	fputs("</td>", f);
	cell(f, NULL, row->kernel);
	cell(f, NULL, row->time);
	num_cell(f, "%.4g", r->latest_median);
	cell(f, NULL, row->unit);
	snprintf(buf, sizeof(buf), "%d", r->previous);
	cell(f, "num", buf);
	if (judged)
		snprintf(buf, sizeof(buf), "%.4g..%.4g", r->lo, r->hi);
	cell(f, "num", judged ? buf : "-");
	num_cell(f, "%+.1f %%", judged ? r->change * 100 : NAN);
	if (judged && r->test.p < 0.0001)
		cell(f, "num", "<0.0001");
	else
		num_cell(f, "%.4f", judged ? r->test.p : NAN);
	cell(f, NULL, judged ? mb_cmp_verdict_name(r->cmp) : "-");
	cell(f, NULL, mb_gate_verdict_name(r->verdict));
	cell(f, NULL, r->note);
	fputs("</tr>\n", f);
}

static void latest_table(FILE *f, const struct mb_html_report *r)
{
	static const char *const head[] = { "bench", "parameters", "kernel", "time",
					    "latest median", "unit", "previous runs", "band",
					    "change", "p", "samples", "verdict", "note" };

	fprintf(f, "<h2>Latest results</h2>\n<p>%zu regressed, %zu improved, %zu pass, %zu too few runs. ",
		mb_gate_count(r->rows, r->nr_rows, MB_GATE_REGRESSED),
		mb_gate_count(r->rows, r->nr_rows, MB_GATE_IMPROVED),
		mb_gate_count(r->rows, r->nr_rows, MB_GATE_PASS),
		mb_gate_count(r->rows, r->nr_rows, MB_GATE_TOO_FEW));
	fprintf(f, "The latest run of each series (bench, parameters, machine class, kernel) against the previous %d at most: Mann-Whitney U over the samples (threshold %g %%, alpha %g) and the band median &#177; %g scaled MADs of the runs' medians; a regression only when both say so.</p>\n",
		r->window, r->gate->cmp.threshold * 100, r->gate->cmp.alpha, r->gate->k);
	fputs("<table id=\"latest\">\n<thead><tr>", f);
	for (size_t i = 0; i < sizeof(head) / sizeof(*head); i++)
		fprintf(f, "<th>%s</th>", head[i]);
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < r->nr_rows; i++)
		table_row(f, &r->rows[i]);
	fputs("</tbody>\n</table>\n", f);
	if (mb_series_machines(r->trend, NULL) < 2)
		return;
	fputs("<ul id=\"machines\">\n", f);
	for (int m = 1; m <= mb_series_machines(r->trend, NULL); m++) {
		fprintf(f, "<li>machine %d: ", m);
		mb_svg_escape(f, mb_series_machine_class(r->trend, m));
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

/* One bench's chart: x and y of every run of each of its series, marks at kernel changes. */
static int bench_chart(FILE *f, const struct mb_series_set *set, const char *bench)
{
	size_t n, nl = 0, nm = 0;
	struct mb_trend_point *pts = mb_trend_points(set, bench, &n);
	struct mb_svg_line *lines = calloc(set->nr + 1, sizeof(*lines));
	struct mb_svg_mark *marks = calloc(n + 1, sizeof(*marks));
	double *xy = calloc(2 * n + 1, sizeof(*xy));
	char (*labels)[256] = calloc(set->nr + 1, sizeof(*labels)), title[512];
	const struct mb_series *first = NULL;
	int ret = -ENOMEM;

	if (!pts || !lines || !marks || !xy || !labels)
		goto out;
	for (size_t p = 0; p < n; p++)
		if (pts[p].kernel_changed)
			marks[nm++] = (struct mb_svg_mark){ .x = pts[p].x, .label = pts[p].kernel };
	for (size_t i = 0, used = 0; i < set->nr; i++) {
		struct mb_svg_line *l = &lines[nl];

		if (strcmp(set->s[i].bench, bench))
			continue;
		first = first ? first : &set->s[i];
		mb_trend_label(set, &set->s[i], labels[nl], sizeof(labels[nl]));
		l->label = labels[nl++];
		l->x = xy + used;
		l->y = xy + n + used;
		for (size_t p = 0; p < n; p++) {
			if (pts[p].series != i)
				continue;
			xy[used] = pts[p].x;
			xy[n + used++] = set->s[i].runs[pts[p].run].mean;
			l->n++;
		}
	}
	snprintf(title, sizeof(title), "%s: %s, %s (%s is better)", bench,
		 first ? first->figure : "", first ? first->unit : "",
		 first && first->higher_is_better ? "higher" : "lower");
	fprintf(f, "<section class=\"trend\"><h3>");
	mb_svg_escape(f, bench);
	fputs("</h3>\n", f);
	ret = mb_svg_chart_write(f, &(struct mb_svg_chart){
		.title = title, .xlabel = "runs, oldest first (dashed: the kernel changed)",
		.ylabel = first ? first->unit : "", .width = CHART_W, .height = CHART_H,
		.lines = lines, .nr_lines = nl, .marks = marks, .nr_marks = nm });
	fputs("</section>\n", f);
out:
	free(pts);
	free(lines);
	free(marks);
	free(xy);
	free(labels);
	return ret;
}

int mb_html_report_write(FILE *f, const struct mb_html_report *r)
{
	size_t nb;
	const char **benches = mb_trend_benches(r->trend, &nb);
	int ret = 0;

	if (!benches)
		return -ENOMEM;
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>mapbench report</title>\n<style>%s</style>\n</head>\n<body>\n<h1>mapbench report</h1>\n<p>",
		style);
	mb_svg_escape(f, r->source);
	fputs(", ", f);
	mb_svg_escape(f, r->generated);
	fprintf(f, ": %zu series, %zu bench%s.</p>\n", r->nr_rows, nb, nb == 1 ? "" : "es");
	latest_table(f, r);
	fputs("<h2>Trends</h2>\n", f);
	for (size_t i = 0; i < nb && !ret; i++)
		ret = bench_chart(f, r->trend, benches[i]);
	fputs("</body>\n</html>\n", f);
	free(benches);
	return ret ? ret : ferror(f) ? -EIO : 0;
}
