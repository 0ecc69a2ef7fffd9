// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* gnuplot scripts from sweep and comparison documents (without running gnuplot). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output/doc.h"
#include "output/plot.h"
#include "util/json.h"

/*
 * Summary with throughput mean @t (ops/s) and latency @l, both over 5 samples, stddev @sd,
 * and the bench's own counter "half" at @t / 2 per second.
 */
static int summary(char *buf, size_t len, double t, double l, double sd)
{
	return snprintf(buf, len,
		"{\"bench\": \"b\", \"summary\": {\"throughput\": {\"unit\": \"ops/s\", \"mean\": %g, \"stddev\": %g, \"n\": 5},"
		" \"latency_kernel\": {\"unit\": \"ns/op\", \"mean\": %g, \"stddev\": %g, \"n\": 5},"
		" \"counters\": {\"half\": {\"unit\": \"ops/s\", \"mean\": %g, \"stddev\": %g, \"n\": 5}}}}",
		t, sd, l, sd, t / 2, sd);
}

/*
 * A sweep of x (values 10, 100, 1000) by p (1, 2), 2 rounds: result i has throughput
 * (x * p * 1e6 + round * 10e6) and latency 1000 / x.
 */
static struct mb_json *sweep_doc(const char *xs, bool numeric)
{
	char results[16384] = "", points[16384] = "", *text;
	size_t r = 0, p = 0;
	int idx = 0;
	struct mb_json *doc;
	enum mb_doc_kind kind;
	char err[256];

	for (int round = 1; round <= 2; round++) {
		for (int xi = 0; xi < 3; xi++) {
			for (int pi = 1; pi <= 2; pi++) {
				double x = xi == 0 ? 10 : xi == 1 ? 100 : 1000;

				r += (size_t)snprintf(results + r, sizeof(results) - r, "%s", idx ? "," : "");
				r += (size_t)summary(results + r, sizeof(results) - r,
						     x * pi * 1e6 + (round - 1) * 10e6, 1000 / x, 0);
				if (numeric)
					p += (size_t)snprintf(points + p, sizeof(points) - p,
						"%s{\"bench\": \"b\", \"round\": %d, \"values\": {\"x\": %g, \"p\": %d}, \"result\": %d}",
						idx ? "," : "", round, x, pi, idx);
				else
					p += (size_t)snprintf(points + p, sizeof(points) - p,
						"%s{\"bench\": \"b\", \"round\": %d, \"values\": {\"x\": \"v%d\", \"p\": %d}, \"result\": %d}",
						idx ? "," : "", round, xi, pi, idx);
				idx++;
			}
		}
	}
	assert_true(asprintf(&text,
		"{\"schema_version\": 1, \"context\": {\"tool\": \"mapbench\"}, \"results\": [%s],"
		" \"sweep\": {\"params\": [{\"name\": \"x\", \"values\": %s}, {\"name\": \"p\", \"values\": [1, 2]}],"
		" \"points\": [%s], \"plot\": {\"x\": null, \"lines\": null, \"metric\": null}}}",
		results, xs, points) > 0);
	doc = mb_doc_parse(text, strlen(text), &kind, err, sizeof(err));
	free(text);
	if (!doc)
		fail_msg("%s", err);
	return doc;
}

static char *script(const struct mb_json *doc, enum mb_doc_kind kind, struct mb_plot_opts *o,
		    char *err, size_t len)
{
	return mb_plot_script(doc, kind, o, err, len);
}

static void test_line_chart(void **state)
{
	struct mb_json *doc = sweep_doc("[10, 100, 1000]", true);
	struct mb_plot_opts o = { .term = MB_PLOT_SVG, .metric = "throughput" };
	char err[256], *s;

	(void)state;
	s = script(doc, MB_DOC_RESULTS, &o, err, sizeof(err));
	if (!s)
		fail_msg("%s", err);
	if (getenv("SHOW"))
		fputs(s, stderr);
	assert_non_null(strstr(s, "set terminal svg"));
	/* 10 to 1000 spans two decades: log scale. */
	assert_non_null(strstr(s, "set logscale x 10"));
	assert_non_null(strstr(s, "set xlabel \"x\""));
	assert_non_null(strstr(s, "set ylabel \"throughput (M ops/s)\""));
	assert_non_null(strstr(s, "title \"p=1\""));
	assert_non_null(strstr(s, "title \"p=2\""));
	assert_non_null(strstr(s, "with yerrorlines"));
	/*
	 * p = 2, pooled over two rounds of 5 samples each with stddev 0 and means 20 and 30 (x = 10),
	 * 200 and 210 (x = 100): means 25 and 205, sd = sqrt((5 * 25 + 5 * 25) / 9) = 5.2704627669.
	 */
	assert_non_null(strstr(s, "$D0_1 << EOD\n10 25 5.2704627669472988\n100 205 5.2704627669472988\n"));
	free(s);
	/* A bench's own counter: counters.NAME, its rate in M ops/s. */
	o.metric = "counters.half";
	s = script(doc, MB_DOC_RESULTS, &o, err, sizeof(err));
	if (!s)
		fail_msg("%s", err);
	assert_non_null(strstr(s, "set ylabel \"counters.half (M ops/s)\""));
	assert_non_null(strstr(s, "$D0_1 << EOD\n10 12.5 "));
	free(s);
	/* Latency, with lines "none" and a title with a quote. */
	o.metric = "latency";
	o.lines = "none";
	o.title = "a \"b\"";
	s = script(doc, MB_DOC_RESULTS, &o, err, sizeof(err));
	assert_non_null(s);
	assert_non_null(strstr(s, "set ylabel \"in-kernel latency (ns/op)\""));
	assert_non_null(strstr(s, "\"a \\\"b\\\"\""));
	/* p held at its first value, and said so. */
	assert_non_null(strstr(s, "p=1"));
	free(s);
	o.term = MB_PLOT_PNG;
	o.where[o.nr_where++] = "p=2";
	s = script(doc, MB_DOC_RESULTS, &o, err, sizeof(err));
	assert_non_null(s);
	assert_non_null(strstr(s, "pngcairo"));
	assert_non_null(strstr(s, "p=2"));
	free(s);
	mb_json_free(doc);
}

/* --overlay: two benches' lines in one panel, each titled by its bench; without it, 2 panels. */
static void test_overlay(void **state)
{
	char results[4096] = "", points[4096] = "", *text, err[256], *s;
	struct mb_plot_opts o = { .term = MB_PLOT_SVG, .metric = "latency", .overlay = true };
	size_t r = 0, p = 0;
	enum mb_doc_kind kind;
	struct mb_json *doc;
	int idx = 0;

	(void)state;
	for (int b = 0; b < 2; b++) {
		for (int x = 1; x <= 2; x++, idx++) {
			r += (size_t)snprintf(results + r, sizeof(results) - r, "%s", idx ? "," : "");
			r += (size_t)summary(results + r, sizeof(results) - r, 1e6, 10 * x + b, 0);
			p += (size_t)snprintf(points + p, sizeof(points) - p,
				"%s{\"bench\": \"%s\", \"round\": 1, \"values\": {\"x\": %d}, \"result\": %d}",
				idx ? "," : "", b ? "bench-two" : "bench-one", x, idx);
		}
	}
	assert_true(asprintf(&text,
		"{\"schema_version\": 1, \"context\": {\"tool\": \"mapbench\"}, \"results\": [%s],"
		" \"sweep\": {\"params\": [{\"name\": \"x\", \"values\": [1, 2]}],"
		" \"points\": [%s], \"plot\": {\"x\": null, \"lines\": null, \"metric\": null}}}",
		results, points) > 0);
	doc = mb_doc_parse(text, strlen(text), &kind, err, sizeof(err));
	free(text);
	if (!doc)
		fail_msg("%s", err);
	s = script(doc, MB_DOC_RESULTS, &o, err, sizeof(err));
	if (!s)
		fail_msg("%s", err);
	assert_null(strstr(s, "multiplot"));
	assert_non_null(strstr(s, "$D0_0 using 1:2:3 with yerrorlines lw 1.5 title \"bench-one\""));
	assert_non_null(strstr(s, "$D1_0 using 1:2:3 with yerrorlines lw 1.5 title \"bench-two\""));
	assert_non_null(strstr(s, "$D1_0 << EOD\n1 11 0\n2 21 0\n"));
	free(s);
	o.overlay = false;
	s = script(doc, MB_DOC_RESULTS, &o, err, sizeof(err));
	assert_non_null(s);
	assert_non_null(strstr(s, "set multiplot layout 1,2"));
	assert_non_null(strstr(s, "set title \"bench-two\""));
	free(s);
	mb_json_free(doc);
}

static void test_categories(void **state)
{
	struct mb_json *doc = sweep_doc("[\"v0\", \"v1\", \"v2\"]", false);
	struct mb_plot_opts o = { .term = MB_PLOT_SVG };
	char err[256], *s;

	(void)state;
	s = script(doc, MB_DOC_RESULTS, &o, err, sizeof(err));
	assert_non_null(s);
	assert_null(strstr(s, "logscale"));
	assert_non_null(strstr(s, "set xtics (\"v0\" 0, \"v1\" 1, \"v2\" 2)"));
	/* auto: every result has in-kernel latency. */
	assert_non_null(strstr(s, "in-kernel latency (ns/op)"));
	free(s);
	mb_json_free(doc);
}

static void expect_error(const struct mb_json *doc, enum mb_doc_kind kind, struct mb_plot_opts *o,
			 const char *part)
{
	char err[512] = "", *s = script(doc, kind, o, err, sizeof(err));

	assert_null(s);
	if (!strstr(err, part))
		fail_msg("'%s' lacks '%s'", err, part);
}

static void test_errors(void **state)
{
	struct mb_json *doc = sweep_doc("[10, 100, 1000]", true), *plain;
	struct mb_plot_opts o = { .term = MB_PLOT_SVG };
	const char *text = "{\"schema_version\": 1, \"context\": {\"tool\": \"mapbench\"}, \"results\": []}";
	char err[256];

	(void)state;
	plain = mb_doc_parse(text, strlen(text), NULL, err, sizeof(err));
	expect_error(plain, MB_DOC_RESULTS, &o, "not a sweep (no \"sweep\" object)");
	o.x = "nope";
	expect_error(doc, MB_DOC_RESULTS, &o, "--x nope: not a swept parameter (swept: x, p)");
	o.x = "x";
	o.lines = "x";
	expect_error(doc, MB_DOC_RESULTS, &o, "--lines x: already on the x axis");
	o.lines = NULL;
	o.metric = "bogus";
	expect_error(doc, MB_DOC_RESULTS, &o, "--metric bogus: not in the results' summaries");
	o.metric = NULL;
	o.lines = "none";
	o.where[o.nr_where++] = "p=3";
	expect_error(doc, MB_DOC_RESULTS, &o, "--where p=3: p was not swept over 3");
	o.where[0] = "q=1";
	expect_error(doc, MB_DOC_RESULTS, &o, "--where q: not a swept parameter");
	o.where[0] = "p";
	expect_error(doc, MB_DOC_RESULTS, &o, "--where p: must be NAME=VALUE");
	o.nr_where = 0;
	o.benches = "zz";
	expect_error(doc, MB_DOC_RESULTS, &o, "--bench zz: no such bench");
	mb_json_free(plain);
	mb_json_free(doc);
}

static void test_bar_chart(void **state)
{
	const char *text =
		"{\"schema_version\": 1, \"context\": {\"tool\": \"mapbench\"}, \"comparison\": {"
		"\"base\": {\"source\": \"a.json\"}, \"new\": {\"source\": \"b.json\"}, \"threshold\": 0.02,"
		"\"rows\": ["
		"{\"bench\": \"x\", \"label\": \"n=1\", \"unit\": \"ns/op\", \"change\": 0.5, \"verdict\": \"regressed\"},"
		"{\"bench\": \"y\", \"label\": \"-\", \"unit\": \"ops/s\", \"change\": -0.01, \"verdict\": \"no change\"},"
		"{\"bench\": \"z\", \"label\": \"-\", \"unit\": \"ops/s\", \"change\": null, \"verdict\": \"not comparable\"}]}}";
	const char *empty =
		"{\"schema_version\": 1, \"context\": {\"tool\": \"mapbench\"}, \"comparison\": {\"rows\": []}}";
	struct mb_plot_opts o = { .term = MB_PLOT_SVG };
	enum mb_doc_kind kind;
	char err[256], *s;
	struct mb_json *doc = mb_doc_parse(text, strlen(text), &kind, err, sizeof(err));

	(void)state;
	assert_non_null(doc);
	assert_int_equal(kind, MB_DOC_COMPARISON);
	s = script(doc, kind, &o, err, sizeof(err));
	assert_non_null(s);
	assert_non_null(strstr(s, "$C0 << EOD\n0 50\nEOD"));
	assert_non_null(strstr(s, "$C2 << EOD\n1 -1\nEOD"));
	assert_non_null(strstr(s, "(\"x n=1 [ns/op]\" 0, \"y [ops/s]\" 1)"));
	assert_non_null(strstr(s, "title \"regressed\""));
	assert_null(strstr(s, "title \"improved\""));
	assert_non_null(strstr(s, "first 2 to graph 1, first 2"));
	free(s);
	mb_json_free(doc);
	doc = mb_doc_parse(empty, strlen(empty), &kind, err, sizeof(err));
	expect_error(doc, kind, &o, "no matched result with a change to draw");
	mb_json_free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_chart),
		cmocka_unit_test(test_overlay),
		cmocka_unit_test(test_categories),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_bar_chart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
