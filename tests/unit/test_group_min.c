// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The lowest mean per group: the best candidate of each group by the mean of its figures,
 * the first of equal ones, none where no candidate has a finite figure; sizes refused.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/group_min.h"

static void test_best(void **state)
{
	struct mb_group_min m;
	double mean;

	(void)state;
	assert_int_equal(mb_group_min_init(&m, 3, 3), 0);
	/* Group 0: candidate 2 is lowest. */
	mb_group_min_add(&m, 0, 0, 30);
	mb_group_min_add(&m, 0, 1, 20);
	mb_group_min_add(&m, 0, 2, 10);
	assert_int_equal(mb_group_min_best(&m, 0, &mean), 2);
	assert_true(mean == 10);
	/* Group 1: by the mean of two rounds, candidate 0 (5 and 25: 15) over 1 (16). */
	mb_group_min_add(&m, 1, 0, 5);
	mb_group_min_add(&m, 1, 0, 25);
	mb_group_min_add(&m, 1, 1, 16);
	assert_int_equal(mb_group_min_best(&m, 1, &mean), 0);
	assert_true(mean == 15);
	/* Group 2: nothing finite, nothing out of range counts. */
	mb_group_min_add(&m, 2, 0, NAN);
	mb_group_min_add(&m, 2, 1, INFINITY);
	mb_group_min_add(&m, 2, 3, 1);
	mb_group_min_add(&m, 3, 0, 1);
	mb_group_min_add(&m, -1, 0, 1);
	assert_int_equal(mb_group_min_best(&m, 2, &mean), -1);
	assert_true(isnan(mean));
	assert_int_equal(mb_group_min_best(&m, 3, NULL), -1);
	mb_group_min_free(&m);
}

static void test_ties(void **state)
{
	struct mb_group_min m;

	(void)state;
	assert_int_equal(mb_group_min_init(&m, 1, 3), 0);
	mb_group_min_add(&m, 0, 1, 7);
	mb_group_min_add(&m, 0, 2, 7);
	assert_int_equal(mb_group_min_best(&m, 0, NULL), 1);
	/* A negative figure (a net latency below zero) is a figure like any other. */
	mb_group_min_add(&m, 0, 0, -1);
	assert_int_equal(mb_group_min_best(&m, 0, NULL), 0);
	mb_group_min_free(&m);
}

static void test_sizes(void **state)
{
	struct mb_group_min m;

	(void)state;
	assert_int_equal(mb_group_min_init(&m, 0, 1), -EINVAL);
	assert_int_equal(mb_group_min_init(&m, 1, 0), -EINVAL);
	assert_int_equal(mb_group_min_init(&m, 1 << 20, 1 << 20), -EINVAL);
	mb_group_min_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_best),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
