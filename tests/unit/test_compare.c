// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Reading documents back, matching results, verdicts and the geometric mean. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output/compare.h"
#include "output/doc.h"
#include "util/json.h"

static const double base_lat[] = { 10.0, 10.1, 9.9, 10.05, 9.95, 10.02 };

/* A result: @lat_scale multiplies the latencies (throughput = 1e9 / latency); 0: no latency. */
static size_t result(char *buf, size_t len, const char *bench, const char *params, int producers,
		     const double *lat, int n, double lat_scale, bool with_lat, const char *status)
{
	size_t k = (size_t)snprintf(buf, len,
		"{\"bench\": \"%s\", \"status\": \"%s\", \"params\": %s, \"config\": {\"producers\": %d, \"affinity\": true}, \"samples\": [",
		bench, status, params, producers);

	/* A warm-up sample that must be left out. */
	k += (size_t)snprintf(buf + k, len - k,
			      "{\"warmup\": true, \"throughput\": 1, \"latency_kernel\": 1000}");
	for (int i = 0; i < n; i++) {
		double l = lat[i] * lat_scale;

		if (with_lat)
			k += (size_t)snprintf(buf + k, len - k,
					      ", {\"warmup\": false, \"throughput\": %.17g, \"latency_kernel\": %.17g}",
					      1e9 / l, l);
		else
			k += (size_t)snprintf(buf + k, len - k,
					      ", {\"warmup\": false, \"throughput\": %.17g, \"latency_kernel\": null}",
					      1e9 / l);
	}
	k += (size_t)snprintf(buf + k, len - k, "]}");
	return k;
}

static struct mb_json *doc_of(const char *results)
{
	char *text, err[256];
	struct mb_json *doc;
	enum mb_doc_kind kind;

	assert_true(asprintf(&text, "{\"schema_version\": 1, \"context\": {\"tool\": \"mapbench\"}, \"results\": [%s]}",
			     results) > 0);
	doc = mb_doc_parse(text, strlen(text), &kind, err, sizeof(err));
	if (!doc)
		fail_msg("%s", err);
	assert_int_equal(kind, MB_DOC_RESULTS);
	free(text);
	return doc;
}

static void expect_bad_doc(const char *text, const char *part)
{
	char err[256] = "";
	struct mb_json *doc = mb_doc_parse(text, strlen(text), NULL, err, sizeof(err));

	assert_null(doc);
	if (!strstr(err, part))
		fail_msg("'%s': '%s' lacks '%s'", text, err, part);
}

static void test_doc_checks(void **state)
{
	char err[256];
	enum mb_doc_kind kind;
	struct mb_json *doc;
	const char *cmp = "{\"schema_version\": 1, \"context\": {\"tool\": \"mapbench\"}, \"comparison\": {}}";

	(void)state;
	expect_bad_doc("", "not JSON: line 1, column 1");
	/* Members of the wrong type (found by fuzz_doc: params as an array). */
	expect_bad_doc("{\"schema_version\": 1, \"context\": {\"tool\": \"mapbench\"}, \"results\": [{\"bench\": \"b\", \"params\": [1]}]}",
		       "results[0].params: not an object");
	expect_bad_doc("{\"schema_version\": 1, \"context\": {\"tool\": \"mapbench\"}, \"results\": [{\"bench\": \"b\", \"samples\": {}}]}",
		       "results[0].samples: not an array");
	expect_bad_doc("{\"schema_version\": 1, \"context\": {\"tool\": \"mapbench\"}, \"results\": [{\"bench\": \"b\", \"summary\": 3}]}",
		       "results[0].summary: not an object");
	expect_bad_doc("{\"a\": 1", "not JSON");
	expect_bad_doc("[1, 2]", "not mapbench output");
	expect_bad_doc("{}", "not mapbench output");
	expect_bad_doc("{\"schema_version\": 1, \"context\": {\"tool\": \"other\"}, \"results\": []}",
		       "not mapbench output");
	expect_bad_doc("{\"context\": {\"tool\": \"mapbench\"}, \"results\": []}", "no schema_version");
	expect_bad_doc("{\"schema_version\": 3, \"context\": {\"tool\": \"mapbench\"}, \"results\": []}",
		       "schema_version 3: this mapbench reads schema_version 1 to 2");
	expect_bad_doc("{\"schema_version\": 0, \"context\": {\"tool\": \"mapbench\"}, \"results\": []}",
		       "schema_version 0: this mapbench reads schema_version 1 to 2");
	expect_bad_doc("{\"schema_version\": 1.5, \"context\": {\"tool\": \"mapbench\"}, \"results\": []}",
		       "schema_version 1.5: this mapbench reads schema_version 1 to 2");
	/* Schema 1, before a bench's own counters moved into "counters", still reads. */
	for (int v = 1; v <= 2; v++) {
		char text[128];

		snprintf(text, sizeof(text),
			 "{\"schema_version\": %d, \"context\": {\"tool\": \"mapbench\"}, \"results\": []}",
			 v);
		doc = mb_doc_parse(text, strlen(text), &kind, err, sizeof(err));
		assert_non_null(doc);
		assert_int_equal(kind, MB_DOC_RESULTS);
		mb_json_free(doc);
	}
	expect_bad_doc("{\"schema_version\": 1, \"context\": {\"tool\": \"mapbench\"}}",
		       "no \"results\" array");
	expect_bad_doc("{\"schema_version\": 1, \"context\": {\"tool\": \"mapbench\"}, \"results\": [{}]}",
		       "results[0]: not a result");
	doc = mb_doc_parse(cmp, strlen(cmp), &kind, err, sizeof(err));
	assert_non_null(doc);
	assert_int_equal(kind, MB_DOC_COMPARISON);
	mb_json_free(doc);
	doc = mb_doc_load("/nonexistent/x.json", &kind, err, sizeof(err));
	assert_null(doc);
	assert_non_null(strstr(err, "/nonexistent/x.json: No such file"));
}

static struct mb_cmp_opts default_opts(void)
{
	return (struct mb_cmp_opts){ .threshold = 0.02, .alpha = 0.05, .metric = MB_CMP_AUTO };
}

static void test_matching(void **state)
{
	char b[8192], n[8192];
	size_t k = 0;
	struct mb_json *base, *cur;
	struct mb_comparison c;
	struct mb_cmp_opts o = default_opts();

	(void)state;
	k += result(b + k, sizeof(b) - k, "bpf-loop", "{\"nr_loops\": 10}", 1, base_lat, 6, 1, true, "ok");
	k += (size_t)snprintf(b + k, sizeof(b) - k, ",");
	k += result(b + k, sizeof(b) - k, "bpf-loop", "{\"nr_loops\": 100}", 1, base_lat, 6, 1, true, "ok");
	k += (size_t)snprintf(b + k, sizeof(b) - k, ",");
	k += result(b + k, sizeof(b) - k, "count-local", "{}", 1, base_lat, 6, 1, true, "ok");
	base = doc_of(b);
	k = 0;
	/* Keys in another order, the same point twice (pooled), a bench only here. */
	k += result(n + k, sizeof(n) - k, "bpf-loop", "{\"nr_loops\": 100}", 1, base_lat, 6, 1, true, "ok");
	k += (size_t)snprintf(n + k, sizeof(n) - k, ",");
	k += result(n + k, sizeof(n) - k, "bpf-loop", "{\"nr_loops\": 100}", 1, base_lat, 6, 1, true, "ok");
	k += (size_t)snprintf(n + k, sizeof(n) - k, ",");
	k += result(n + k, sizeof(n) - k, "bpf-loop", "{\"nr_loops\": 10}", 1, base_lat, 6, 1, true, "ok");
	k += (size_t)snprintf(n + k, sizeof(n) - k, ",");
	k += result(n + k, sizeof(n) - k, "count-global", "{}", 1, base_lat, 6, 1, true, "ok");
	k += (size_t)snprintf(n + k, sizeof(n) - k, ",");
	k += result(n + k, sizeof(n) - k, "count-local", "{}", 2, base_lat, 6, 1, true, "ok");
	cur = doc_of(n);
	assert_int_equal(mb_compare(base, cur, &o, &c), 0);
	assert_int_equal(c.nr_rows, 2);
	assert_string_equal(c.rows[0].base->label, "nr_loops=10");
	assert_int_equal(c.rows[0].cur_n, 6);
	assert_string_equal(c.rows[1].base->label, "nr_loops=100");
	assert_int_equal(c.rows[1].cur->nr_results, 2);
	assert_int_equal(c.rows[1].cur_n, 12);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(c.rows[i].verdict, MB_CMP_NO_CHANGE);
		assert_int_equal(c.rows[i].metric, MB_CMP_LATENCY);
	}
	/* Another producer count is another result: listed, not matched. */
	assert_false(c.base[2].matched);
	assert_false(c.cur[2].matched);
	assert_false(c.cur[3].matched);
	assert_string_equal(c.cur[3].label, "p=2");
	mb_comparison_free(&c);

	/* --ignore producers matches count-local across them, and says so. */
	o.ignore[o.nr_ignore++] = "producers";
	assert_int_equal(mb_compare(base, cur, &o, &c), 0);
	assert_int_equal(c.nr_rows, 3);
	assert_non_null(strstr(c.rows[2].note, "producers 1 -> 2"));
	mb_comparison_free(&c);
	mb_json_free(base);
	mb_json_free(cur);
}

/* Points of a sweep over a global setting (affinity here) are different results, not repeats. */
static void test_config_in_match(void **state)
{
	char b[8192], *aff;
	size_t k = 0;
	struct mb_json *doc;
	struct mb_comparison c;
	struct mb_cmp_opts o = default_opts();

	(void)state;
	k += result(b + k, sizeof(b) - k, "x", "{}", 1, base_lat, 6, 1, true, "ok");
	k += (size_t)snprintf(b + k, sizeof(b) - k, ",");
	result(b + k, sizeof(b) - k, "x", "{}", 1, base_lat, 6, 2, true, "ok");
	aff = strstr(b + k, "\"affinity\": true");
	assert_non_null(aff);
	memcpy(aff, "\"affinity\":false", 16);
	doc = doc_of(b);
	assert_int_equal(mb_compare(doc, doc, &o, &c), 0);
	assert_int_equal(c.nr_base, 2);
	assert_int_equal(c.nr_rows, 2);
	assert_string_equal(c.base[0].label, "affinity=true");
	assert_string_equal(c.base[1].label, "affinity=false");
	assert_int_equal(c.counts[MB_CMP_NO_CHANGE], 2);
	mb_comparison_free(&c);
	/* --ignore affinity pools them. */
	o.ignore[o.nr_ignore++] = "affinity";
	assert_int_equal(mb_compare(doc, doc, &o, &c), 0);
	assert_int_equal(c.nr_base, 1);
	assert_int_equal(c.base[0].n, 12);
	mb_comparison_free(&c);
	mb_json_free(doc);
}

/* --ignore a,b --ignore c (from a run's --baseline or from compare): one list of names. */
static void test_ignore_lists(void **state)
{
	struct mb_cli_list l = { .items = { "nr_loops,producers", "affinity" }, .nr = 2 };
	struct mb_cmp_opts o = default_opts();
	char *bufs[MB_CLI_LIST_MAX] = { NULL }, many[256] = "a";

	(void)state;
	assert_int_equal(mb_cmp_opts_ignore(&o, &l, bufs), 0);
	assert_int_equal(o.nr_ignore, 3);
	assert_string_equal(o.ignore[0], "nr_loops");
	assert_string_equal(o.ignore[1], "producers");
	assert_string_equal(o.ignore[2], "affinity");
	for (int i = 0; i < MB_CLI_LIST_MAX; i++)
		free(bufs[i]);
	memset(bufs, 0, sizeof(bufs));
	for (int i = 1; i <= MB_CMP_MAX_IGNORE; i++)
		strcat(many, ",a");
	l = (struct mb_cli_list){ .items = { many }, .nr = 1 };
	o = default_opts();
	assert_int_equal(mb_cmp_opts_ignore(&o, &l, bufs), -E2BIG);
	free(bufs[0]);
}

static void test_ignore(void **state)
{
	char b[4096], n[4096];
	struct mb_json *base, *cur;
	struct mb_comparison c;
	struct mb_cmp_opts o = default_opts();

	(void)state;
	result(b, sizeof(b), "bpf-loop", "{\"nr_loops\": 100}", 1, base_lat, 6, 1, true, "ok");
	result(n, sizeof(n), "bpf-loop", "{\"nr_loops\": 1}", 1, base_lat, 6, 3, true, "ok");
	base = doc_of(b);
	cur = doc_of(n);
	assert_int_equal(mb_compare(base, cur, &o, &c), 0);
	assert_int_equal(c.nr_rows, 0);
	mb_comparison_free(&c);
	o.ignore[o.nr_ignore++] = "nr-loops";	/* either spelling */
	assert_int_equal(mb_compare(base, cur, &o, &c), 0);
	assert_int_equal(c.nr_rows, 1);
	assert_int_equal(c.rows[0].verdict, MB_CMP_REGRESSED);
	assert_true(fabs(c.rows[0].change - 2) < 1e-9);
	assert_non_null(strstr(c.rows[0].note, "nr_loops 100 -> 1"));
	assert_true(fabs(c.geomean - 1.0 / 3) < 1e-9);
	mb_comparison_free(&c);
	mb_json_free(base);
	mb_json_free(cur);
}

/* The documents of verdict_of: a comparison points into them, so they outlive it. */
static struct mb_json *vdocs[2];

/* One base result against one new result made by @scale, with @with_lat latencies. */
static void verdict_of(double scale, bool with_lat, int n, enum mb_cmp_metric metric,
		       struct mb_comparison *c)
{
	char b[4096], nn[4096];
	struct mb_cmp_opts o = default_opts();

	o.metric = metric;
	result(b, sizeof(b), "x", "{}", 1, base_lat, n, 1, with_lat, "ok");
	result(nn, sizeof(nn), "x", "{}", 1, base_lat, n, scale, with_lat, "ok");
	vdocs[0] = doc_of(b);
	vdocs[1] = doc_of(nn);
	assert_int_equal(mb_compare(vdocs[0], vdocs[1], &o, c), 0);
	assert_int_equal(c->nr_rows, 1);
}

static void verdict_done(struct mb_comparison *c)
{
	mb_comparison_free(c);
	mb_json_free(vdocs[0]);
	mb_json_free(vdocs[1]);
}

static void test_verdicts(void **state)
{
	struct mb_comparison c;

	(void)state;
	/* Latency up 50 %: worse (lower ns/op is better); 6 vs 6 separated: p = 2/924. */
	verdict_of(1.5, true, 6, MB_CMP_AUTO, &c);
	assert_int_equal(c.rows[0].metric, MB_CMP_LATENCY);
	assert_int_equal(c.rows[0].verdict, MB_CMP_REGRESSED);
	assert_true(fabs(c.rows[0].test.p - 2.0 / 924) < 1e-12);
	assert_true(mb_comparison_regressed(&c));
	verdict_done(&c);
	/* Latency halved: better. */
	verdict_of(0.5, true, 6, MB_CMP_AUTO, &c);
	assert_int_equal(c.rows[0].verdict, MB_CMP_IMPROVED);
	assert_true(fabs(c.geomean - 2) < 1e-9);
	verdict_done(&c);
	/* Same throughput compared: 1/1.5 of it, lower is worse. */
	verdict_of(1.5, true, 6, MB_CMP_THROUGHPUT, &c);
	assert_int_equal(c.rows[0].metric, MB_CMP_THROUGHPUT);
	assert_int_equal(c.rows[0].verdict, MB_CMP_REGRESSED);
	assert_true(c.rows[0].change < 0);
	verdict_done(&c);
	/* No in-kernel latency: auto falls back to throughput. */
	verdict_of(1.5, false, 6, MB_CMP_AUTO, &c);
	assert_int_equal(c.rows[0].metric, MB_CMP_THROUGHPUT);
	assert_int_equal(c.rows[0].verdict, MB_CMP_REGRESSED);
	verdict_done(&c);
	/* Asking for latency that was not measured: not comparable, said why. */
	verdict_of(1.5, false, 6, MB_CMP_LATENCY, &c);
	assert_int_equal(c.rows[0].verdict, MB_CMP_NOT_COMPARABLE);
	assert_non_null(strstr(c.rows[0].note, "no in-kernel latency"));
	assert_int_equal(c.geomean_n, 0);
	verdict_done(&c);
	/* Below the threshold: no change, whatever p says. */
	verdict_of(1.01, true, 6, MB_CMP_AUTO, &c);
	assert_int_equal(c.rows[0].verdict, MB_CMP_NO_CHANGE);
	verdict_done(&c);
	/*
	 * Two samples each: +50 %, p of the rank test cannot go below 1/3; Welch's t-test sees
	 * two tight pairs far apart (within 1 % of each other, 50 % apart): regressed.
	 */
	verdict_of(1.5, true, 2, MB_CMP_AUTO, &c);
	assert_int_equal(c.rows[0].verdict, MB_CMP_REGRESSED);
	assert_true(c.rows[0].welch && c.rows[0].p < 0.05);
	assert_non_null(strstr(c.rows[0].note, "too few samples (2 and 2"));
	assert_non_null(strstr(c.rows[0].note, "Welch's t-test"));
	verdict_done(&c);
	/* Three samples each within 1 %, 5 % apart: the tight samples decide, not noise. */
	verdict_of(1.05, true, 3, MB_CMP_AUTO, &c);
	assert_int_equal(c.rows[0].verdict, MB_CMP_REGRESSED);
	assert_true(c.rows[0].welch);
	verdict_done(&c);
}

/* Put @member ("key": value, ) first in the result object @res. */
static void insert_member(char *res, const char *member)
{
	size_t k = strlen(member);

	memmove(res + 1 + k, res + 1, strlen(res));	/* with the terminating NUL */
	memcpy(res + 1, member, k);
}

static void test_noise(void **state)
{
	/* A change of the mean from one wild sample, not a shift of the distribution. */
	const double noisy[] = { 9.9, 10.1, 10.0, 9.95, 10.05, 14.0 };
	char b[4096], n[4096];
	struct mb_json *base, *cur;
	struct mb_comparison c;
	struct mb_cmp_opts o = default_opts();

	(void)state;
	result(b, sizeof(b), "x", "{}", 1, base_lat, 6, 1, true, "ok");
	result(n, sizeof(n), "x", "{}", 1, noisy, 6, 1, true, "ok");
	base = doc_of(b);
	cur = doc_of(n);
	assert_int_equal(mb_compare(base, cur, &o, &c), 0);
	assert_true(c.rows[0].change > 0.05);
	assert_true(c.rows[0].test.p > 0.05);
	/* Six samples each: the rank test can reach alpha, so it decides alone. */
	assert_false(c.rows[0].welch);
	assert_int_equal(c.rows[0].verdict, MB_CMP_NOISE);
	/* Neither result says it is noisy: the note does not claim it. */
	assert_null(strstr(c.rows[0].note, "noisy"));
	mb_comparison_free(&c);
	mb_json_free(base);
	mb_json_free(cur);
	/* The new result's own verdict says noisy: the note names it. */
	insert_member(n, "\"summary\": {\"noisy\": true}, ");
	base = doc_of(b);
	cur = doc_of(n);
	assert_int_equal(mb_compare(base, cur, &o, &c), 0);
	assert_int_equal(c.rows[0].verdict, MB_CMP_NOISE);
	assert_non_null(strstr(c.rows[0].note, "new result noisy"));
	mb_comparison_free(&c);
	mb_json_free(base);
	mb_json_free(cur);
}

static void test_failed_result(void **state)
{
	char b[4096], n[4096];
	struct mb_json *base, *cur, *doc;
	struct mb_comparison c;
	struct mb_cmp_opts o = default_opts();

	(void)state;
	result(b, sizeof(b), "x", "{}", 1, base_lat, 6, 1, true, "ok");
	result(n, sizeof(n), "x", "{}", 1, base_lat, 0, 1, true, "failed");
	base = doc_of(b);
	cur = doc_of(n);
	assert_int_equal(mb_compare(base, cur, &o, &c), 0);
	assert_int_equal(c.rows[0].verdict, MB_CMP_NOT_COMPARABLE);
	assert_non_null(strstr(c.rows[0].note, "no measured sample in new (status failed)"));
	doc = mb_comparison_json(&c, mb_json_object(), "a.json", base, "b.json", cur);
	assert_non_null(doc);
	assert_true(mb_json_num(mb_json_get(mb_json_get(mb_json_get(doc, "comparison"), "counts"),
					    "not comparable"), 0) == 1);
	assert_true(mb_json_is(mb_json_get(mb_json_at(mb_json_get(mb_json_get(doc, "comparison"),
								      "rows"), 0), "p_value"),
			       MB_JSON_NULL));
	mb_json_free(doc);
	mb_comparison_free(&c);
	mb_json_free(base);
	mb_json_free(cur);
}

static void test_print(void **state)
{
	char *out = NULL;
	size_t size = 0;
	struct mb_comparison c;
	struct mb_json *base;
	FILE *f;

	(void)state;
	verdict_of(1.5, true, 6, MB_CMP_AUTO, &c);
	base = doc_of("");
	f = open_memstream(&out, &size);
	assert_int_equal(mb_comparison_print(f, &c, MB_FORMAT_TEXT, "a.json", base, "b.json", base), 0);
	fclose(f);
	assert_non_null(strstr(out, "Metric: in-kernel ns/op (lower is better)"));
	assert_non_null(strstr(out, "+50.0 %"));
	assert_non_null(strstr(out, "regressed"));
	assert_non_null(strstr(out, "1 regressed, 0 improved"));
	free(out);
	f = open_memstream(&out, &size);
	assert_int_equal(mb_comparison_print(f, &c, MB_FORMAT_CSV, "a.json", base, "b.json", base), 0);
	fclose(f);
	assert_true(!strncmp(out, "bench,parameters,metric,base,new,change,p,verdict,note\n", 55));
	free(out);
	mb_json_free(base);
	verdict_done(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doc_checks),
		cmocka_unit_test(test_matching),
		cmocka_unit_test(test_config_in_match),
		cmocka_unit_test(test_ignore),
		cmocka_unit_test(test_ignore_lists),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_failed_result),
		cmocka_unit_test(test_print),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
