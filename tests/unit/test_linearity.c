// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/linearity.h"

/* The medians, not the means: one disturbed call of each set moves nothing. */
static void test_medians(void **state)
{
	double n[] = { 10, 11, 9, 100, 10 }, n2[] = { 20, 1, 21, 19, 20 };
	struct mb_linearity lin = {};

	(void)state;
	assert_int_equal(mb_linearity_judge(n, n2, MB_LINEARITY_CALLS, &lin), 0);
	assert_true(lin.done);
	assert_float_equal(lin.median_n_ns, 10, 0);
	assert_float_equal(lin.median_2n_ns, 20, 0);
	assert_float_equal(lin.ratio, 2, 1e-12);
	assert_true(lin.ok);
}

/* |ratio - 2| / 2 <= 5 %: within 1.9 .. 2.1 linear, just past it not. */
static void test_threshold(void **state)
{
	const double ratios[] = { 1.91, 2.09, 1.89, 2.11, 2.31, 1.0 };
	const bool ok[] = { true, true, false, false, false, false };

	(void)state;
	for (size_t i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++) {
		double n[MB_LINEARITY_CALLS], n2[MB_LINEARITY_CALLS];
		struct mb_linearity lin = {};

		for (int c = 0; c < MB_LINEARITY_CALLS; c++) {
			n[c] = 1000;
			n2[c] = 1000 * ratios[i];
		}
		assert_int_equal(mb_linearity_judge(n, n2, MB_LINEARITY_CALLS, &lin), 0);
		assert_float_equal(lin.ratio, ratios[i], 1e-9);
		assert_int_equal(lin.ok, ok[i]);
	}
}

/* No time, no ratio: the check says nothing rather than a ratio of 0 or infinity. */
static void test_no_time(void **state)
{
	double zero[] = { 0, 0, 0, 0, 0 }, some[] = { 5, 5, 5, 5, 5 };
	double none[] = { NAN, NAN, NAN, NAN, NAN }, more[] = { 9, 9, 9, 9, 9 };
	struct mb_linearity lin = {};

	(void)state;
	assert_int_equal(mb_linearity_judge(zero, some, MB_LINEARITY_CALLS, &lin), -EINVAL);
	assert_false(lin.done);
	assert_int_equal(mb_linearity_judge(none, more, MB_LINEARITY_CALLS, &lin), -EINVAL);
	assert_false(lin.done);
}

/* N: calls of about the target at the measured cost, 2N within the cap, at least 1. */
static void test_iters(void **state)
{
	(void)state;
	assert_int_equal(mb_linearity_iters(10.0, MB_LINEARITY_CALL_NS, 1u << 23), 1000000);
	/* A 0.1 ns op would ask 100 M: 2N must fit the loop's cap. */
	assert_int_equal(mb_linearity_iters(0.1, MB_LINEARITY_CALL_NS, 1u << 23), 1u << 22);
	assert_int_equal(mb_linearity_iters(10.0, MB_LINEARITY_CALL_NS, 1001), 500);
	/* An op slower than the target: one iteration and two. */
	assert_int_equal(mb_linearity_iters(5e7, MB_LINEARITY_CALL_NS, 1u << 23), 1);
	assert_int_equal(mb_linearity_iters(10.0, MB_LINEARITY_CALL_NS, 1), 0);
	assert_int_equal(mb_linearity_iters(0, MB_LINEARITY_CALL_NS, 1u << 23), 0);
	assert_int_equal(mb_linearity_iters(NAN, MB_LINEARITY_CALL_NS, 1u << 23), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_medians),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_no_time),
		cmocka_unit_test(test_iters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
