// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * plot --latency's gnuplot script (without running gnuplot): one line per result with
 * buckets, titled by the bench and the parameters that differ; its CDF rises to 1 at the
 * last bucket's top; its histogram's shares add up to 100 %; a result without a distribution
 * gets one warning line; none at all is an error.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output/plot.h"
#include "util/json.h"
#include "util/log.h"

static struct mb_json *parse(const char *text)
{
	char err[256];
	struct mb_json *v = mb_json_parse(text, strlen(text), err, sizeof(err));

	if (!v)
		fail_msg("%s", err);
	return v;
}

static const char *const two_results =
	"{\"results\": ["
	"{\"bench\": \"map-lookup\", \"params\": {\"map_type\": \"hash\", \"path\": \"kernel\"},"
	" \"latency_ns\": {\"count\": 10, \"why\": null,"
	"  \"buckets\": [[0, 0, 1], [20, 20, 5], [30, 30, 2], [2688, 2703, 2]]}},"
	"{\"bench\": \"map-lookup\", \"params\": {\"map_type\": \"hash\", \"path\": \"batch\"}},"
	"{\"bench\": \"map-lookup\", \"params\": {\"map_type\": \"hash\", \"path\": \"syscall\"},"
	" \"latency_ns\": {\"count\": 4, \"why\": null, \"buckets\": [[1600, 1611, 4]]}},"
	"{\"bench\": \"map-update\", \"params\": {\"map_type\": \"hash\", \"path\": \"kernel\"},"
	" \"latency_ns\": {\"count\": 0, \"why\": \"the bpf_loop fallback ran\", \"buckets\": []}}"
	"]}";

/* The rows "x y" of data block $L@k in @script, into @x and @y; their number. */
static int block(const char *script, int k, double *x, double *y, int max)
{
	char head[32];
	const char *p;
	int n = 0;

	snprintf(head, sizeof(head), "$L%d << EOD\n", k);
	p = strstr(script, head);
	if (!p)
		return -1;
	p += strlen(head);
	while (n < max && strncmp(p, "EOD\n", 4)) {
		assert_int_equal(sscanf(p, "%lf %lf", &x[n], &y[n]), 2);
		n++;
		p = strchr(p, '\n') + 1;
	}
	return n;
}

static char *script_of(const char *text, bool hist, char *warnings, size_t len)
{
	struct mb_json *doc = parse(text);
	struct mb_plot_input in = { doc, "dir/a.json" };
	struct mb_plot_opts o = { .term = MB_PLOT_SVG, .hist = hist };
	char err[256] = "", *script;
	FILE *w = fmemopen(warnings, len, "w");

	assert_non_null(w);
	mb_log_set_error_stream(w);
	script = mb_plot_latency_script(&in, 1, &o, err, sizeof(err));
	mb_log_set_error_stream(stderr);
	fclose(w);
	if (!script)
		snprintf(warnings, len, "%s", err);
	mb_json_free(doc);
	return script;
}

static void test_cdf(void **state)
{
	char warnings[2048] = "", *s;
	double x[64], y[64];
	int n;

	(void)state;
	s = script_of(two_results, false, warnings, sizeof(warnings));
	assert_non_null(s);
	/* One line per result with a distribution; the others named, one line each. */
	assert_non_null(strstr(s, "title \"map-lookup path=kernel, 10 timed\""));
	assert_non_null(strstr(s, "title \"map-lookup path=syscall, 4 timed\""));
	assert_null(strstr(s, "$L2"));
	assert_non_null(strstr(s, "set logscale x 10"));
	assert_non_null(strstr(warnings, "dir/a.json: result 2 (map-lookup): no latency_ns"));
	assert_non_null(strstr(warnings, "result 4 (map-update): the bpf_loop fallback ran"));
	/*
	 * A step at each bucket: the share below it at its bottom, at or below it at its top. The
	 * 0 ns bucket counts in the shares but has no point on the log axis.
	 */
	n = block(s, 0, x, y, 64);
	assert_int_equal(n, 6);
	assert_true(x[0] == 20 && fabs(y[0] - 0.1) < 1e-12);
	assert_true(x[1] == 20 && fabs(y[1] - 0.6) < 1e-12);
	assert_true(x[2] == 30 && fabs(y[2] - 0.6) < 1e-12);
	assert_true(x[3] == 30 && fabs(y[3] - 0.8) < 1e-12);
	assert_true(x[4] == 2688 && fabs(y[4] - 0.8) < 1e-12);
	assert_true(x[5] == 2703 && y[5] == 1);
	n = block(s, 1, x, y, 64);
	assert_int_equal(n, 2);
	assert_true(x[0] == 1600 && y[0] == 0 && x[1] == 1611 && y[1] == 1);
	free(s);
}

/* Results of two benches: told apart by their names, whatever their parameters. */
static void test_two_benches(void **state)
{
	char warnings[2048] = "", *s;

	(void)state;
	s = script_of("{\"results\": ["
		      "{\"bench\": \"map-lookup\", \"params\": {\"map_type\": \"hash\"},"
		      " \"latency_ns\": {\"buckets\": [[20, 20, 3]]}},"
		      "{\"bench\": \"lpm-trie-lookup\", \"params\": {\"prefix_len\": 32},"
		      " \"latency_ns\": {\"buckets\": [[90, 90, 2]]}}]}",
		      false, warnings, sizeof(warnings));
	assert_non_null(s);
	assert_non_null(strstr(s, "title \"map-lookup, 3 timed\""));
	assert_non_null(strstr(s, "title \"lpm-trie-lookup, 2 timed\""));
	free(s);
}

static void test_hist(void **state)
{
	char warnings[2048] = "", *s;
	double x[64], y[64], total = 0;
	int n;

	(void)state;
	s = script_of(two_results, true, warnings, sizeof(warnings));
	assert_non_null(s);
	assert_non_null(strstr(s, "with lines"));
	n = block(s, 0, x, y, 64);
	assert_true(n > 0);
	/* Each bucket a flat top from its bottom to its top + 1; 0 between buckets apart. */
	for (int i = 1; i < n; i++) {
		assert_true(x[i] >= x[i - 1]);
		if (y[i] > 0 && y[i] == y[i - 1] && x[i] > x[i - 1])
			total += y[i];
	}
	assert_true(y[0] == 0 && y[n - 1] == 0);
	/* The 0 ns bucket's 10 % has no width on the log axis. */
	assert_true(fabs(total - 90) < 1e-9);
	free(s);
}

static void test_nothing_to_draw(void **state)
{
	char warnings[2048] = "", *s;

	(void)state;
	s = script_of("{\"results\": [{\"bench\": \"b\"}]}", false, warnings, sizeof(warnings));
	assert_null(s);
	assert_non_null(strstr(warnings, "no result has a latency distribution"));
	/* Buckets out of order or not [low, high, count] are not drawn. */
	s = script_of("{\"results\": [{\"bench\": \"b\", \"latency_ns\": {\"buckets\": [[5, 9, 1], [3, 4, 1]]}},"
		      "{\"bench\": \"c\", \"latency_ns\": {\"buckets\": [[5, 9]]}},"
		      "{\"bench\": \"d\", \"latency_ns\": {\"buckets\": [[5, 9, 1.5]]}},"
		      "{\"bench\": \"e\", \"latency_ns\": {\"count\": 3}}]}",
		      false, warnings, sizeof(warnings));
	assert_null(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cdf),
		cmocka_unit_test(test_two_benches),
		cmocka_unit_test(test_hist),
		cmocka_unit_test(test_nothing_to_draw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
