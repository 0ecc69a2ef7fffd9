// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Welch's t-test and the incomplete beta function behind its p-value, against values from
 * the standard t tables (two-sided 5 % critical values) and computed to 30 digits with mpmath
 * (betainc): the example of Welch's test on Wikipedia (two sets of 15, t = 2.4554,
 * df = 24.99, p = 0.02138).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/welch.h"

static void test_incomplete_beta(void **state)
{
	(void)state;
	/* I_0.5(2, 3) = (C(4,2) + C(4,3) + C(4,4)) / 16 */
	assert_float_equal(mb_incomplete_beta(0.5, 2, 3), 11.0 / 16, 1e-12);
	assert_float_equal(mb_incomplete_beta(0, 2, 3), 0, 0);
	assert_float_equal(mb_incomplete_beta(1, 2, 3), 1, 0);
	/* Both sides of the symmetry switch. */
	assert_float_equal(mb_incomplete_beta(0.99, 50, 0.5), 0.317304397874197, 1e-10);
	assert_float_equal(mb_incomplete_beta(0.9, 0.5, 40), 1.0, 1e-12);
}

/* p of |T| > t with @df degrees of freedom, through a two-sample test built to give it. */
static double p_of(double t, double df)
{
	return mb_incomplete_beta(df / (df + t * t), df / 2, 0.5);
}

static void test_t_table(void **state)
{
	(void)state;
	assert_float_equal(p_of(2.776445, 4), 0.05, 1e-6);
	assert_float_equal(p_of(12.7062, 1), 0.05, 1e-6);
	assert_float_equal(p_of(2.042272, 30), 0.05, 1e-6);
	assert_float_equal(p_of(6.0, 4.0), 0.00388253704696, 1e-10);
	assert_float_equal(p_of(0.5, 2.5), 0.657697919869715, 1e-10);
}

static void test_welch_example(void **state)
{
	const double x[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6,
			     19.0, 21.7, 21.4 };
	const double y[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1,
			     22.9, 20.5, 24.4 };
	struct mb_welch r;

	(void)state;
	assert_int_equal(mb_welch_test(x, 15, y, 15, &r), 0);
	assert_float_equal(r.t, 2.455356398286, 1e-9);
	assert_float_equal(r.df, 24.988529290231, 1e-9);
	assert_float_equal(r.p, 0.021378001462867, 1e-10);
	/* The other way round: the same p, t negated. */
	assert_int_equal(mb_welch_test(y, 15, x, 15, &r), 0);
	assert_float_equal(r.t, -2.455356398286, 1e-9);
	assert_float_equal(r.p, 0.021378001462867, 1e-10);
}

static void test_edges(void **state)
{
	const double a[] = { 5, 5, 5 }, b[] = { 6, 6, 6 }, one[] = { 1 };
	struct mb_welch r;

	(void)state;
	assert_int_equal(mb_welch_test(one, 1, a, 3, &r), -EINVAL);
	assert_int_equal(mb_welch_test(a, 3, one, 1, &r), -EINVAL);
	/* No spread at all: equal means are the same, different ones certainly not. */
	assert_int_equal(mb_welch_test(a, 3, a, 3, &r), 0);
	assert_float_equal(r.p, 1, 0);
	assert_int_equal(mb_welch_test(a, 3, b, 3, &r), 0);
	assert_float_equal(r.p, 0, 0);
	assert_true(isinf(r.t) && r.t > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_incomplete_beta),
		cmocka_unit_test(test_t_table),
		cmocka_unit_test(test_welch_example),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
