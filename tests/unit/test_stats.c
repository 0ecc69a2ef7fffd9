// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/stats.h"
#include "core/noise.h"

static void test_basic(void **state)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct mb_stats st;

	(void)state;
	assert_int_equal(mb_stats_compute(v, 8, &st), 0);
	assert_int_equal(st.n, 8);
	assert_float_equal(st.mean, 5.0, 1e-12);
	/* Sample stddev (n - 1): sqrt(32 / 7). */
	assert_float_equal(st.stddev, sqrt(32.0 / 7.0), 1e-12);
	assert_float_equal(st.median, 4.5, 1e-12);
	assert_float_equal(st.min, 2, 0);
	assert_float_equal(st.max, 9, 0);
	assert_float_equal(st.cv, sqrt(32.0 / 7.0) / 5.0, 1e-12);
	/* |v - 4.5| = 2.5 .5 .5 .5 .5 .5 2.5 4.5 -> median 0.5 */
	assert_float_equal(st.mad, 0.5, 1e-12);
}

static void test_single_and_empty(void **state)
{
	const double one = 3.5, nan_only = NAN, one_left[] = { NAN, 2.0, NAN }, two[] = { 1, 3 };
	struct mb_stats st;

	(void)state;
	/* One value: the spread is unknown (NaN: JSON null, text n/a), never 0. */
	assert_int_equal(mb_stats_compute(&one, 1, &st), 0);
	assert_int_equal(st.n, 1);
	assert_true(isnan(st.stddev));
	assert_float_equal(st.median, 3.5, 0);
	assert_true(isnan(st.cv));
	/* The same where NaNs leave one value. */
	assert_int_equal(mb_stats_compute(one_left, 3, &st), 0);
	assert_int_equal(st.n, 1);
	assert_true(isnan(st.stddev) && isnan(st.cv));
	/* Two values have a spread: sqrt(2) with n - 1. */
	assert_int_equal(mb_stats_compute(two, 2, &st), 0);
	assert_float_equal(st.stddev, sqrt(2.0), 1e-12);
	assert_float_equal(st.cv, sqrt(2.0) / 2.0, 1e-12);
	assert_int_equal(mb_stats_compute(&nan_only, 1, &st), -EINVAL);
	assert_int_equal(mb_stats_compute(NULL, 0, &st), -EINVAL);
}

static void test_nan_skipped(void **state)
{
	const double v[] = { 1, NAN, 3 };
	struct mb_stats st;

	(void)state;
	assert_int_equal(mb_stats_compute(v, 3, &st), 0);
	assert_int_equal(st.n, 2);
	assert_float_equal(st.mean, 2, 1e-12);
}

static void test_percentiles(void **state)
{
	const double v[] = { 10, 20, 30, 40, 50 };

	(void)state;
	assert_float_equal(mb_percentile_sorted(v, 5, 0), 10, 0);
	assert_float_equal(mb_percentile_sorted(v, 5, 100), 50, 0);
	assert_float_equal(mb_percentile_sorted(v, 5, 50), 30, 1e-12);
	/* rank 0.95 * 4 = 3.8 -> 40 + 0.8 * 10 */
	assert_float_equal(mb_percentile_sorted(v, 5, 95), 48, 1e-12);
	assert_float_equal(mb_percentile_sorted(v, 5, 5), 12, 1e-12);
}

static void test_outlier(void **state)
{
	const double v[] = { 100, 101, 99, 100, 130 };
	const double same[] = { 5, 5, 5, 5 };
	struct mb_stats st;

	(void)state;
	mb_stats_compute(v, 5, &st);
	assert_true(mb_is_outlier(130, &st, 3, 0.02));
	assert_false(mb_is_outlier(101, &st, 3, 0.02));
	/* 3 MADs away but within 2 % of the median: not flagged. */
	assert_false(mb_is_outlier(101.5, &st, 3, 0.02));
	assert_true(mb_is_outlier(101.5, &st, 0.5, 0.0));
	/* Most samples equal (a MAD of 0): the distance to the median alone decides. */
	mb_stats_compute(same, 4, &st);
	assert_true(mb_is_outlier(6, &st, 3, 0.02));
	assert_false(mb_is_outlier(5.05, &st, 3, 0.02));
}

static void test_large_values(void **state)
{
	/* Rates near 1e9 with small differences keep their precision. */
	const double v[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };
	struct mb_stats st;

	(void)state;
	mb_stats_compute(v, 3, &st);
	assert_float_equal(st.stddev, 1.0, 1e-6);
}

/* A fixed-seed normal source (xorshift64* and Box-Muller): the same draws on every machine. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static double uniform01(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((double)((rng_state * 0x2545F4914F6CDD1DULL) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(double mean, double sd)
{
	return mean + sd * sqrt(-2.0 * log(uniform01())) * cos(2.0 * M_PI * uniform01());
}

/* Samples flagged among @sets sets of @n quiet samples (normal, CV 1 %). */
static int flagged_quiet(int n, int sets)
{
	double v[64];
	struct mb_stats st;
	int flagged = 0;

	for (int s = 0; s < sets; s++) {
		for (int i = 0; i < n; i++)
			v[i] = normal(100.0, 1.0);
		assert_int_equal(mb_stats_compute(v, (size_t)n, &st), 0);
		for (int i = 0; i < n; i++)
			flagged += mb_noise_is_outlier(v[i], &st, n);
	}
	return flagged;
}

static void test_sort_numbers(void **state)
{
	double v[] = { 3, NAN, 1, 2, NAN };

	(void)state;
	assert_int_equal(mb_sort_numbers(v, 5), 3);
	assert_true(v[0] == 1 && v[1] == 2 && v[2] == 3);
	assert_int_equal(mb_sort_numbers(v, 0), 0);
}

static void test_nearest_rank(void **state)
{
	(void)state;
	assert_int_equal(mb_nearest_rank(10000, 50), 5000);
	/* 99.9 % of 10000 is 9990.000000000002 in doubles: rank 9990, not 9991. */
	assert_int_equal(mb_nearest_rank(10000, 99.9), 9990);
	assert_int_equal(mb_nearest_rank(10000, 99.91), 9991);
	assert_int_equal(mb_nearest_rank(3, 50), 2);
	/* At least the first, at most the last; @p clamped. */
	assert_int_equal(mb_nearest_rank(10, 0), 1);
	assert_int_equal(mb_nearest_rank(10, -5), 1);
	assert_int_equal(mb_nearest_rank(10, 100), 10);
	assert_int_equal(mb_nearest_rank(10, 250), 10);
}

static void test_no_false_alarms(void **state)
{
	(void)state;
	/* Three-sample sets: at most 1 of 100 flagged (with the old rule, 1 in ~12). */
	assert_true(flagged_quiet(3, 100) <= 1);
	/* Larger sets: at most one flag per 100 quiet samples, over 10000 samples each. */
	for (int n = 5; n <= 50; n *= 2)
		assert_true(flagged_quiet(n, 10000 / n) <= 10000 / 100);
}

static void test_real_outlier_caught(void **state)
{
	double v[10];
	struct mb_stats st;

	(void)state;
	for (int i = 0; i < 9; i++)
		v[i] = normal(100.0, 1.0);
	v[9] = 120.0;	/* a level shift like a neighbour's: 20 % */
	mb_stats_compute(v, 10, &st);
	assert_true(mb_noise_is_outlier(v[9], &st, 10));
	mb_stats_compute(v + 6, 4, &st);
	assert_false(mb_noise_is_outlier(v[9], &st, 4));	/* too few to judge */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_nearest_rank),
		cmocka_unit_test(test_sort_numbers),
		cmocka_unit_test(test_single_and_empty),
		cmocka_unit_test(test_nan_skipped),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_outlier),
		cmocka_unit_test(test_large_values),
		cmocka_unit_test(test_no_false_alarms),
		cmocka_unit_test(test_real_outlier_caught),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
