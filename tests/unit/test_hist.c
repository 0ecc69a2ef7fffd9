// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The log-linear histogram: buckets that tile the integers, and percentiles within 1/32. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util/hist.h"

static void test_buckets_tile(void **state)
{
	(void)state;
	/* Each bucket starts right after the previous one ends, and holds what it says. */
	for (unsigned int i = 1; i < MB_HIST_BUCKETS; i++) {
		assert_int_equal(mb_hist_bucket_low(i), mb_hist_bucket_high(i - 1) + 1);
		assert_int_equal(mb_hist_bucket(mb_hist_bucket_low(i)), i);
		assert_int_equal(mb_hist_bucket(mb_hist_bucket_high(i)), i);
	}
	assert_int_equal(mb_hist_bucket(UINT64_MAX), MB_HIST_BUCKETS - 1);
	assert_int_equal(mb_hist_bucket_high(MB_HIST_BUCKETS - 1), UINT64_MAX);
}

static void test_small_values_exact(void **state)
{
	struct mb_hist *h = malloc(sizeof(*h));

	(void)state;
	mb_hist_init(h);
	assert_true(isnan(mb_hist_percentile(h, 50)));
	for (uint64_t v = 1; v <= 9; v++)
		mb_hist_add(h, v);
	assert_true(mb_hist_percentile(h, 50) == 5);
	assert_true(mb_hist_percentile(h, 0) == 1);
	assert_true(mb_hist_percentile(h, 100) == 9);
	free(h);
}

static void test_percentiles_within_resolution(void **state)
{
	struct mb_hist *h = malloc(sizeof(*h)), *half = malloc(sizeof(*half));

	(void)state;
	mb_hist_init(h);
	mb_hist_init(half);
	/* 1..1000000 once each: percentile p is p * 10^4; two halves merged are the same. */
	for (uint64_t v = 1; v <= 1000000; v++)
		mb_hist_add(v % 2 ? h : half, v);
	mb_hist_merge(h, half);
	assert_int_equal(h->count, 1000000);
	assert_int_equal(h->min, 1);
	assert_int_equal(h->max, 1000000);
	for (double p = 1; p <= 99; p += 7) {
		double want = p * 10000, got = mb_hist_percentile(h, p);

		assert_true(fabs(got - want) / want <= 1.0 / MB_HIST_SUB);
	}
	free(h);
	free(half);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_tile),
		cmocka_unit_test(test_small_values_exact),
		cmocka_unit_test(test_percentiles_within_resolution),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
