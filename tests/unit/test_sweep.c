// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Sweep value lists and ranges, the product of several lists, and the preset table. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/env.h"
#include "core/opts.h"
#include "plan/presets.h"
#include "families/registry.h"
#include "plan/sweep.h"

/* @want: the values joined by spaces. */
static void expect_values(const char *spec, const char *want)
{
	struct mb_sweep_values v;
	char err[256], got[4096] = "";
	size_t n = 0;

	if (mb_sweep_parse_values(spec, &v, err, sizeof(err)))
		fail_msg("%s: %s", spec, err);
	for (int i = 0; i < v.n; i++)
		n += (size_t)snprintf(got + n, sizeof(got) - n, "%s%s", i ? " " : "", v.v[i]);
	mb_sweep_values_free(&v);
	assert_string_equal(got, want);
}

static void expect_error(const char *spec, const char *part)
{
	struct mb_sweep_values v;
	char err[256] = "";

	assert_int_equal(mb_sweep_parse_values(spec, &v, err, sizeof(err)), -EINVAL);
	assert_null(v.v);
	assert_int_equal(v.n, 0);
	if (!strstr(err, part))
		fail_msg("%s: '%s' lacks '%s'", spec, err, part);
}

static void test_lists(void **state)
{
	(void)state;
	expect_values("1", "1");
	expect_values("1,2,3", "1 2 3");
	/* Values stay as typed: the option parses suffixes and names. */
	expect_values("10k,100k,1M", "10k 100k 1M");
	expect_values("overwrite,batch_add_batch_del", "overwrite batch_add_batch_del");
	expect_values("true,false", "true false");
}

static void test_ranges(void **state)
{
	(void)state;
	expect_values("1..10", "1 2 3 4 5 6 7 8 9 10");
	expect_values("3..3", "3");
	expect_values("0..100:25", "0 25 50 75 100");
	expect_values("1..10:4", "1 5 9");
	expect_values("10..1M*10", "10 100 1000 10000 100000 1000000");
	expect_values("1..16*2", "1 2 4 8 16");
	expect_values("1k..4k:1k", "1000 2000 3000 4000");
	expect_values("0x10..0x12", "16 17 18");
	/* Mixed with plain values, in order. */
	expect_values("1,5..7,100", "1 5 6 7 100");
	/* Near the top of the range: no wrap-around. */
	expect_values("18446744073709551614..18446744073709551615",
		      "18446744073709551614 18446744073709551615");
	expect_values("18446744073709551615..18446744073709551615:1000",
		      "18446744073709551615");
	expect_values("4611686018427387904..18446744073709551615*2", "4611686018427387904 9223372036854775808");
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("", "empty value list");
	expect_error(",", "empty value");
	expect_error("1,,2", "empty value");
	expect_error("1,", "empty value");
	expect_error(",1", "empty value");
	expect_error("10..1", "the start is above the end");
	expect_error("1..", "bounds must be unsigned integers");
	expect_error("..5", "bounds must be unsigned integers");
	expect_error("a..b", "bounds must be unsigned integers");
	expect_error("-1..5", "bounds must be unsigned integers");
	expect_error("1..5:0", "the step after ':' must be an integer >= 1");
	expect_error("1..5:", "the step after ':' must be an integer >= 1");
	expect_error("1..5*1", "the factor after '*' must be an integer >= 2");
	expect_error("0..100*10", "cannot start at 0");
	expect_error("1,2,1", "value '1' listed twice");
	expect_error("1..3,2", "value '2' listed twice");
	expect_error("1..100000", "more than 10000 values");
	expect_error("1..99999999999999999999", "bounds must be unsigned integers");
}

static void test_param(void **state)
{
	struct mb_sweep_values v;
	char name[MB_SWEEP_NAME_MAX], err[256];

	(void)state;
	assert_int_equal(mb_sweep_parse_param("nr_loops=1,2", name, sizeof(name), &v, err,
					      sizeof(err)), 0);
	assert_string_equal(name, "nr_loops");
	assert_int_equal(v.n, 2);
	mb_sweep_values_free(&v);
	assert_int_equal(mb_sweep_parse_param("--nr-entries=1..3", name, sizeof(name), &v, err,
					      sizeof(err)), 0);
	assert_string_equal(name, "nr-entries");
	assert_int_equal(v.n, 3);
	mb_sweep_values_free(&v);
	assert_int_equal(mb_sweep_parse_param("nr_loops", name, sizeof(name), &v, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "must be NAME=V1,V2"));
	assert_int_equal(mb_sweep_parse_param("=1,2", name, sizeof(name), &v, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "no parameter name"));
	assert_int_equal(mb_sweep_parse_param("nr_loops=", name, sizeof(name), &v, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "nr_loops: empty value list");
}

static void test_product(void **state)
{
	const int counts[] = { 2, 3, 4 };
	int idx[3];

	(void)state;
	assert_int_equal(mb_sweep_product(counts, 3), 24);
	assert_int_equal(mb_sweep_product(counts, 0), 1);
	/* The first list varies slowest. */
	mb_sweep_point(counts, 3, 0, idx);
	assert_true(idx[0] == 0 && idx[1] == 0 && idx[2] == 0);
	mb_sweep_point(counts, 3, 1, idx);
	assert_true(idx[0] == 0 && idx[1] == 0 && idx[2] == 1);
	mb_sweep_point(counts, 3, 4, idx);
	assert_true(idx[0] == 0 && idx[1] == 1 && idx[2] == 0);
	mb_sweep_point(counts, 3, 23, idx);
	assert_true(idx[0] == 1 && idx[1] == 2 && idx[2] == 3);
	{
		const int big[] = { 10000, 10000, 10000 };

		assert_int_equal(mb_sweep_product(big, 3), -ERANGE);
		assert_int_equal(mb_sweep_product(big, 1), 10000);
	}
}

/* Every preset parses, names global options that exist, and names existing benches' options. */
static void test_presets(void **state)
{
	(void)state;
	assert_non_null(mb_preset_find("bpf-loop"));
	assert_non_null(mb_preset_find("bloom"));
	assert_null(mb_preset_find("no-such"));
	for (const struct mb_preset *p = mb_presets; p->name; p++) {
		for (int g = 0; p->globals && p->globals[g]; g += 2)
			assert_true(mb_opt_find(mb_global_opts, p->globals[g]) >= 0);
		for (const struct mb_preset_series *s = p->series; s->benches[0]; s++) {
			for (const struct mb_preset_param *pp = s->params; pp->name; pp++) {
				struct mb_sweep_values v;
				char err[256];

				if (mb_sweep_parse_values(pp->values, &v, err, sizeof(err)))
					fail_msg("preset %s: %s: %s", p->name, pp->name, err);
				mb_sweep_values_free(&v);
				/* Options of benches in this build must exist. */
				for (int b = 0; s->benches[b]; b++) {
					const struct mb_bench *bench = mb_bench_find(s->benches[b]);

					if (bench && mb_opt_find(mb_global_opts, pp->name) < 0 &&
					    mb_opt_find(bench->opts, pp->name) < 0)
						fail_msg("preset %s: %s has no --%s", p->name,
							 bench->name, pp->name);
				}
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_param),
		cmocka_unit_test(test_product),
		cmocka_unit_test(test_presets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
