// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The Mann-Whitney U test against values computed by hand and from the standard tables of
 * critical values of U (two-sided, alpha 0.05: 2 for n1 = n2 = 5, 23 for n1 = n2 = 10; e.g.
 * Siegel & Castellan, "Nonparametric Statistics", table J).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/mwu.h"

#define EPS 1e-9

static void test_textbook_example(void **state)
{
	/*
	 * x = {19, 22, 16, 29, 24}, y = {20, 11, 17, 12} (the example of scipy's documentation,
	 * from Conover). Pairs with x > y: 3 + 4 + 2 + 4 + 4 = 17, so U of y = 20 - 17 = 3.
	 * Under H0 all C(9, 4) = 126 arrangements are equally likely; U = u in as many of them as
	 * there are partitions of u into at most 5 parts of at most 4: u = 0, 1, 2, 3 -> 1, 1, 2, 3.
	 * P(U <= 3) = 7/126, two-sided p = 14/126 = 0.1111.
	 */
	const double x[] = { 19, 22, 16, 29, 24 }, y[] = { 20, 11, 17, 12 };
	struct mb_mwu r;

	(void)state;
	assert_int_equal(mb_mwu_test(x, 5, y, 4, &r), 0);
	assert_int_equal(r.method, MB_MWU_EXACT);
	assert_false(r.ties);
	assert_true(fabs(r.u - 3) < EPS);
	assert_true(fabs(r.p - 14.0 / 126) < EPS);
	assert_true(fabs(r.p_min - 2.0 / 126) < EPS);
}

static void test_exact_cdf(void **state)
{
	(void)state;
	/* n1 = n2 = 5: C(10, 5) = 252; counts for u = 0..3 are 1, 1, 2, 3. */
	assert_true(fabs(mb_mwu_exact_cdf(5, 5, 2) - 4.0 / 252) < EPS);
	assert_true(fabs(mb_mwu_exact_cdf(5, 5, 3) - 7.0 / 252) < EPS);
	/* The table's critical value 2 at 0.05: 2 * 4/252 = 0.032 < 0.05 < 2 * 7/252 = 0.056. */
	assert_true(2 * mb_mwu_exact_cdf(5, 5, 2) < 0.05);
	assert_true(2 * mb_mwu_exact_cdf(5, 5, 3) > 0.05);
	/* n1 = n2 = 10: critical value 23 (two-sided 0.0433; 24 gives 0.0524). */
	assert_true(fabs(2 * mb_mwu_exact_cdf(10, 10, 23) - 0.0432570525) < 1e-9);
	assert_true(fabs(2 * mb_mwu_exact_cdf(10, 10, 24) - 0.0524259023) < 1e-9);
	/* Whole distribution. */
	assert_true(fabs(mb_mwu_exact_cdf(7, 3, 21) - 1) < EPS);
	assert_true(mb_mwu_exact_cdf(3, 3, -1) == 0);
	assert_true(isnan(mb_mwu_exact_cdf(MB_MWU_EXACT_MAX + 1, 2, 1)));
}

/* Brute force: every way to choose which n of the m + n ranks belong to y. */
static void brute_force(size_t m, size_t n, double *count, double *total)
{
	size_t N = m + n;

	*total = 0;
	memset(count, 0, (m * n + 1) * sizeof(double));
	for (unsigned long mask = 0; mask < (1ul << N); mask++) {
		size_t u = 0, xs_below = 0;

		if ((size_t)__builtin_popcountl(mask) != n)
			continue;
		/* Walking up the ranks: each y is above every x seen so far. */
		for (size_t i = 0; i < N; i++) {
			if (mask & (1ul << i))
				u += xs_below;
			else
				xs_below++;
		}
		count[u]++;
		(*total)++;
	}
}

static void test_exact_matches_enumeration(void **state)
{
	double count[64], total;

	(void)state;
	for (size_t m = 1; m <= 6; m++) {
		for (size_t n = 1; n <= 6; n++) {
			double cum = 0;

			brute_force(m, n, count, &total);
			for (size_t u = 0; u <= m * n; u++) {
				cum += count[u];
				assert_true(fabs(mb_mwu_exact_cdf(m, n, (double)u) - cum / total) < 1e-12);
			}
		}
	}
}

static void test_complete_separation(void **state)
{
	/* y all above x, 4 and 4: U = 16 = mn, only one of C(8, 4) = 70 arrangements: p = 2/70. */
	const double x[] = { 1, 2, 3, 4 }, y[] = { 5, 6, 7, 8 };
	struct mb_mwu r, s;

	(void)state;
	assert_int_equal(mb_mwu_test(x, 4, y, 4, &r), 0);
	assert_true(fabs(r.u - 16) < EPS);
	assert_true(fabs(r.p - 2.0 / 70) < EPS);
	assert_true(fabs(r.p - r.p_min) < EPS);
	/* Swapping the sides mirrors U and keeps p. */
	assert_int_equal(mb_mwu_test(y, 4, x, 4, &s), 0);
	assert_true(fabs(s.u) < EPS);
	assert_true(fabs(s.p - r.p) < EPS);
}

static void test_ties_normal(void **state)
{
	/*
	 * x = {1, 2, 2, 3}, y = {2, 3, 4, 5}. U of y: y=2 beats 1 and ties two 2s (1 + 2 * 0.5),
	 * y=3 beats 1, 2, 2 and ties 3 (3.5), y=4 and y=5 beat all four: U = 2 + 3.5 + 4 + 4 = 13.5.
	 * Ties: three 2s and two 3s, sum(t^3 - t) = 24 + 6 = 30. N = 8, mn = 16:
	 * var = 16/12 * (9 - 30/56) = 11.2857142857; z = (|13.5 - 8| - 0.5) / sqrt(var) = 1.48835;
	 * p = erfc(z / sqrt 2) = 0.136658.
	 */
	const double x[] = { 1, 2, 2, 3 }, y[] = { 2, 3, 4, 5 };
	struct mb_mwu r;

	(void)state;
	assert_int_equal(mb_mwu_test(x, 4, y, 4, &r), 0);
	assert_true(r.ties);
	assert_int_equal(r.method, MB_MWU_NORMAL);
	assert_true(fabs(r.u - 13.5) < EPS);
	assert_true(fabs(r.z - 1.4883513944689681) < 1e-9);
	assert_true(fabs(r.p - 0.13665824773814753) < 1e-9);
}

static void test_all_equal(void **state)
{
	const double x[] = { 5, 5, 5 }, y[] = { 5, 5, 5 };
	struct mb_mwu r;

	(void)state;
	assert_int_equal(mb_mwu_test(x, 3, y, 3, &r), 0);
	assert_true(fabs(r.u - 4.5) < EPS);
	assert_true(fabs(r.p - 1) < EPS);
}

static void test_large_samples(void **state)
{
	double x[60], y[60];
	struct mb_mwu r;

	(void)state;
	/* 60 and 60, no ties: normal approximation. Complete separation: z = 1799.5 / 190.526. */
	for (int i = 0; i < 60; i++) {
		x[i] = i;
		y[i] = 100 + i;
	}
	assert_int_equal(mb_mwu_test(x, 60, y, 60, &r), 0);
	assert_int_equal(r.method, MB_MWU_NORMAL);
	assert_true(fabs(r.z - 9.444925540061197) < 1e-9);
	assert_true(r.p < 1e-20);
	/* Interleaved (0, 2, ..., 38 against 1, 3, ..., 39): U = 210 of 400, no difference. */
	for (int i = 0; i < 20; i++) {
		x[i] = 2 * i;
		y[i] = 2 * i + 1;
	}
	assert_int_equal(mb_mwu_test(x, 20, y, 20, &r), 0);
	assert_int_equal(r.method, MB_MWU_EXACT);
	assert_true(fabs(r.u - 210) < EPS);
	/* Exact: 2 P(U <= 190) = 0.799407 by enumeration; the normal approximation: 0.797. */
	assert_true(fabs(r.p - 0.799407187161697) < 1e-9);
}

static void test_too_few(void **state)
{
	const double x[] = { 1, 2 }, y[] = { 3, 4 };
	struct mb_mwu r;

	(void)state;
	/* 2 and 2: the best case is 2 / C(4, 2) = 1/3, never below 0.05. */
	assert_int_equal(mb_mwu_test(x, 2, y, 2, &r), 0);
	assert_true(fabs(r.p_min - 1.0 / 3) < EPS);
	assert_true(fabs(r.p - 1.0 / 3) < EPS);
	assert_int_equal(mb_mwu_test(x, 0, y, 2, &r), -EINVAL);
	assert_int_equal(mb_mwu_test(x, 2, y, 0, &r), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_textbook_example),
		cmocka_unit_test(test_exact_cdf),
		cmocka_unit_test(test_exact_matches_enumeration),
		cmocka_unit_test(test_complete_separation),
		cmocka_unit_test(test_ties_normal),
		cmocka_unit_test(test_all_equal),
		cmocka_unit_test(test_large_samples),
		cmocka_unit_test(test_too_few),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
