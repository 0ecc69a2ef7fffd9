// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The history's readers on a set built by hand: series grouping (by kernel or across), the
 * gate leaving out an older kernel's series, the runs' order on a trend's x axis with the
 * kernel marks, the gnuplot script, the SVG writer's ticks and escaping, the report's page.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output/gate.h"
#include "output/html_report.h"
#include "output/series.h"
#include "output/svg.h"
#include "output/trend.h"

/*
 * map-lookup nr_entries=100 and 1000 alternating, 8 runs each; the first 4 of each on kernel
 * 6.17, the rest on 6.18; times 2026-12-01T00:00:NNZ in order. Means 10 and 20 (+ run % 3).
 */
static void build(struct mb_series_set *set, bool by_kernel)
{
	static const char *const params[] = { "nr_entries=100", "nr_entries=1000" };
	double samples[5];
	char when[32];

	memset(set, 0, sizeof(*set));
	set->by_kernel = by_kernel;
	for (int i = 0; i < 16; i++) {
		int p = i % 2, k = i / 2;
		double m = (p ? 20 : 10) + k % 3;
		struct mb_series_input in = {
			.id = i + 1, .time = when, .bench = "map-lookup", .params = params[p],
			.kernel = k < 4 ? "6.17" : "6.18", .machine_class = "AMD 26/2",
			.figure = "latency_kernel", .unit = "ns/op", .mean = m, .median = m,
			.stddev = 0.1, .samples = samples, .n = 5,
		};

		snprintf(when, sizeof(when), "2026-12-01T00:00:%02dZ", i);
		for (int s = 0; s < 5; s++)
			samples[s] = m + (s - 2) * 0.05;
		assert_int_equal(mb_series_add(set, &in), 0);
	}
	mb_series_number_machines(set);
}

static void test_grouping(void **state)
{
	struct mb_series_set set;

	(void)state;
	build(&set, true);
	assert_int_equal(set.nr, 4);
	assert_string_equal(set.s[0].kernel, "6.17");
	assert_int_equal(set.s[0].nr, 4);
	assert_int_equal(set.s[0].runs[3].n, 5);
	assert_int_equal(set.s[0].machine, 1);
	assert_int_equal(mb_series_machines(&set, "map-lookup"), 1);
	mb_series_free(&set);
	build(&set, false);
	assert_int_equal(set.nr, 2);
	assert_int_equal(set.s[1].nr, 8);
	assert_null(set.s[1].kernel);
	mb_series_free(&set);
}

static void test_gate_latest_kernel_only(void **state)
{
	struct mb_series_set set;
	struct mb_gate_opts o;
	struct mb_gate_row *rows;
	size_t n;

	(void)state;
	build(&set, true);
	mb_gate_opts_default(&o);
	assert_int_equal(mb_gate_series(&set, &o, 10, &rows, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].kernel, "6.18");
	assert_string_equal(rows[0].params, "nr_entries=100");
	assert_int_equal(rows[0].r.previous, 3);
	assert_string_equal(rows[0].time, "2026-12-01T00:00:14Z");
	/* A window of 2: too few. */
	free(rows);
	assert_int_equal(mb_gate_series(&set, &o, 2, &rows, &n), 0);
	assert_int_equal(rows[1].r.verdict, MB_GATE_TOO_FEW);
	assert_int_equal(rows[1].r.previous, 2);
	free(rows);
	mb_series_free(&set);
}

/* One bench on two machine classes: two series, labelled by machine where nothing else differs. */
static void test_machines(void **state)
{
	static const char *const classes[] = { "AMD 26/2", "Intel 6/143" };
	double samples[3] = { 10, 10.1, 9.9 };
	struct mb_series_set set = { .by_kernel = true };
	struct mb_gate_opts o;
	struct mb_gate_row *rows;
	char when[32], label[256], *buf = NULL;
	size_t n, len = 0;
	FILE *f;

	(void)state;
	for (int i = 0; i < 8; i++) {
		struct mb_series_input in = {
			.id = i + 1, .time = when, .bench = "bpf-noop", .params = "producers=1",
			.kernel = "6.18", .machine_class = classes[i % 2], .figure = "latency_kernel",
			.unit = "ns/op", .mean = 10, .median = 10, .samples = samples, .n = 3,
		};

		snprintf(when, sizeof(when), "2026-12-01T00:00:%02dZ", i);
		assert_int_equal(mb_series_add(&set, &in), 0);
	}
	mb_series_number_machines(&set);
	assert_int_equal(set.nr, 2);
	assert_int_equal(mb_series_machines(&set, "bpf-noop"), 2);
	mb_gate_opts_default(&o);
	assert_int_equal(mb_gate_series(&set, &o, 10, &rows, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].label, "machine 1");
	assert_string_equal(rows[1].label, "machine 2");
	assert_string_equal(rows[1].machine_class, "Intel 6/143");
	assert_int_equal(rows[1].r.previous, 3);
	mb_trend_label(&set, &set.s[1], label, sizeof(label));
	assert_string_equal(label, "one parameter set, machine 2");
	assert_string_equal(mb_series_machine_class(&set, 2), "Intel 6/143");
	f = open_memstream(&buf, &len);
	assert_int_equal(mb_gate_print(f, rows, n, MB_FORMAT_MD, &o, 10), 0);
	fclose(f);
	assert_non_null(strstr(buf, "- machine 1: AMD 26/2\n- machine 2: Intel 6/143\n"));
	free(buf);
	free(rows);
	mb_series_free(&set);
}

static void test_points_and_script(void **state)
{
	struct mb_series_set set;
	struct mb_trend_point *pts;
	char err[256], *script;
	size_t n;

	(void)state;
	build(&set, false);
	pts = mb_trend_points(&set, "map-lookup", &n);
	assert_non_null(pts);
	assert_int_equal(n, 16);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(pts[i].x, (int)i);
		assert_int_equal(pts[i].series, i % 2);
		assert_int_equal(pts[i].kernel_changed, i == 0 || i == 8);
	}
	free(pts);
	script = mb_trend_script(&set, MB_PLOT_SVG, NULL, err, sizeof(err));
	assert_non_null(script);
	assert_non_null(strstr(script, "set xtics (\"6.17\" 0, \"6.18\" 8)"));
	assert_non_null(strstr(script, "set arrow from 8, graph 0 to 8, graph 1"));
	assert_non_null(strstr(script, "title \"nr_entries=100\", '-' using 1:2:3"));
	assert_non_null(strstr(script, "\n15 21 0.10000000000000001\ne\n"));
	free(script);
	mb_series_free(&set);
	memset(&set, 0, sizeof(set));
	assert_null(mb_trend_script(&set, MB_PLOT_SVG, NULL, err, sizeof(err)));
	assert_string_equal(err, "no run matched: nothing to draw");
}

static void test_svg(void **state)
{
	double first, step, x[3] = { 0, 1, 2 }, y[3] = { 1, NAN, 3 };
	struct mb_svg_line line = { .label = "a<b & \"c\"", .x = x, .y = y, .n = 3 };
	struct mb_svg_mark mark = { .x = 1, .label = "6.18" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	mb_svg_ticks(0.3, 9.7, &first, &step);
	assert_float_equal(first, 0, 0);
	assert_float_equal(step, 1, 1e-12);
	mb_svg_ticks(95.5, 104.4, &first, &step);
	assert_float_equal(step, 1, 1e-12);
	assert_float_equal(first, 95, 1e-12);
	mb_svg_ticks(1234, 1234, &first, &step);
	assert_true(step > 0 && first <= 1234);
	f = open_memstream(&buf, &len);
	assert_int_equal(mb_svg_chart_write(f, &(struct mb_svg_chart){
		.title = "t", .xlabel = "x", .ylabel = "y", .width = 400, .height = 200,
		.lines = &line, .nr_lines = 1, .marks = &mark, .nr_marks = 1 }), 0);
	fclose(f);
	assert_non_null(strstr(buf, "<title>a&lt;b &amp; &quot;c&quot;</title>"));
	assert_non_null(strstr(buf, "class=\"mark\""));
	/* Two points drawn, the NaN left out. */
	assert_non_null(strstr(buf, "<circle"));
	assert_null(strstr(strstr(strstr(buf, "<circle") + 1, "<circle") + 1, "<circle"));
	assert_null(strstr(buf, "nan"));
	free(buf);
}

static void test_page(void **state)
{
	struct mb_series_set by_kernel, across;
	struct mb_gate_opts o;
	struct mb_gate_row *rows;
	char *buf = NULL;
	size_t len = 0, n;
	FILE *f;

	(void)state;
	build(&by_kernel, true);
	build(&across, false);
	mb_gate_opts_default(&o);
	assert_int_equal(mb_gate_series(&by_kernel, &o, 10, &rows, &n), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(mb_html_report_write(f, &(struct mb_html_report){
		.source = "h.db", .generated = "2026-12-03T06:00:00Z", .rows = rows,
		.nr_rows = n, .gate = &o, .window = 10, .trend = &across }), 0);
	fclose(f);
	assert_true(strncmp(buf, "<!DOCTYPE html>", 15) == 0);
	assert_non_null(strstr(buf, "<table id=\"latest\">"));
	assert_non_null(strstr(buf, "<tr class=\"pass\"><td>map-lookup</td><td title=\"nr_entries=100\">nr_entries=100</td><td>6.18</td>"));
	assert_non_null(strstr(buf, "<section class=\"trend\"><h3>map-lookup</h3>\n<svg"));
	/* Nothing outside the page: the SVG namespace is the only address, no script. */
	for (const char *p = strstr(buf, "http"); p; p = strstr(p + 1, "http"))
		assert_true(strncmp(p, "http://www.w3.org/2000/svg\"", 27) == 0);
	assert_null(strstr(buf, "<script"));
	assert_null(strstr(buf, "href"));
	assert_null(strstr(buf, "src="));
	free(buf);
	free(rows);
	mb_series_free(&by_kernel);
	mb_series_free(&across);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grouping),
		cmocka_unit_test(test_gate_latest_kernel_only),
		cmocka_unit_test(test_machines),
		cmocka_unit_test(test_points_and_script),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
