// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/iqr.h"

/* Fewer than 8 values: sorted, NaNs dropped, none judged an outlier however far. */
static void test_few_kept_whole(void **state)
{
	double v[] = { 5, NAN, 1, 1000, 3, 2, 4, 6 };

	(void)state;
	assert_int_equal(mb_iqr_filter(v, 8), 7);
	assert_float_equal(v[0], 1, 0);
	assert_float_equal(v[5], 6, 0);
	assert_float_equal(v[6], 1000, 0);
}

/*
 * Ten values: Q1 = 11.25 (rank 2.25), Q3 = 13 (rank 6.75), IQR 1.75, fences 8.625 and 15.625:
 * 40 goes, 10 and 14 stay.
 */
static void test_outlier_dropped(void **state)
{
	double v[] = { 13, 40, 11, 12, 10, 12, 14, 11, 13, 12 };
	const double want[] = { 10, 11, 11, 12, 12, 12, 13, 13, 14 };

	(void)state;
	assert_int_equal(mb_iqr_filter(v, 10), 9);
	for (int i = 0; i < 9; i++)
		assert_float_equal(v[i], want[i], 0);
}

/* Both fences, and a value on a fence is kept (the kernel drops only those outside). */
static void test_both_fences(void **state)
{
	double v[] = { 2, 3, 7, -5, 4, 2, 3, 4, 100 };

	(void)state;
	/* Nine values: Q1 = 2 (rank 2), Q3 = 4 (rank 6), fences -1 and 7. */
	assert_int_equal(mb_iqr_filter(v, 9), 7);
	assert_float_equal(v[0], 2, 0);
	assert_float_equal(v[6], 7, 0);
}

/* All equal: IQR 0, every value on both fences, all kept. */
static void test_all_equal(void **state)
{
	double v[12];

	(void)state;
	for (int i = 0; i < 12; i++)
		v[i] = 7.5;
	assert_int_equal(mb_iqr_filter(v, 12), 12);
	assert_int_equal(mb_iqr_filter(v, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_few_kept_whole),
		cmocka_unit_test(test_outlier_dropped),
		cmocka_unit_test(test_both_fences),
		cmocka_unit_test(test_all_equal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
