// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "util/cpuset.h"

static void expect_list(const char *in, const char *out, int count)
{
	struct mb_cpuset set;
	const char *why;
	char buf[128];

	assert_int_equal(mb_cpuset_parse(in, &set, &why), 0);
	assert_int_equal(set.count, count);
	mb_cpuset_format(&set, buf, sizeof(buf));
	assert_string_equal(buf, out);
}

static void expect_error(const char *in, const char *why_expected)
{
	struct mb_cpuset set;
	const char *why = NULL;

	assert_int_equal(mb_cpuset_parse(in, &set, &why), -EINVAL);
	assert_non_null(why);
	if (why_expected)
		assert_string_equal(why, why_expected);
}

static void test_valid(void **state)
{
	(void)state;
	expect_list("0", "0", 1);
	expect_list("0-3,8,10-11", "0-3,8,10-11", 7);
	expect_list("3,1,2", "1-3", 3);
	expect_list("5-5", "5", 1);
	expect_list("1,1,1", "1", 1);
	expect_list("0-1,1-2", "0-2", 3);
	expect_list("4095", "4095", 1);
}

static void test_invalid(void **state)
{
	(void)state;
	expect_error("", "empty list");
	expect_error(NULL, "empty list");
	expect_error("-1", "negative CPU number");
	expect_error("1,-2", "negative CPU number");
	expect_error("3-1", "reversed range");
	expect_error("1,,2", "empty item");
	expect_error("1,", "empty item");
	expect_error(",1", "empty item");
	expect_error("1-", "range without an end");
	expect_error("1 2", "unexpected character");
	expect_error(" 1", "expected a CPU number");
	expect_error("a", "expected a CPU number");
	expect_error("4096", "CPU number too large");
	expect_error("99999999999999999999", "CPU number too large");
	expect_error("1-2-3", "unexpected character");
}

static void test_next(void **state)
{
	struct mb_cpuset set;
	const char *why;

	(void)state;
	mb_cpuset_parse("2,5", &set, &why);
	assert_int_equal(mb_cpuset_next(&set, 0), 2);
	assert_int_equal(mb_cpuset_next(&set, 3), 5);
	assert_int_equal(mb_cpuset_next(&set, 6), -1);
	assert_true(mb_cpuset_has(&set, 5));
	assert_false(mb_cpuset_has(&set, -1));
	assert_false(mb_cpuset_has(&set, 5000));
}

static void test_format_truncates(void **state)
{
	struct mb_cpuset set;
	const char *why;
	char buf[4];

	(void)state;
	mb_cpuset_parse("0-3,8,10-11", &set, &why);
	assert_int_equal(mb_cpuset_format(&set, buf, sizeof(buf)), 11);
	assert_int_equal(strlen(buf), 3);
}

static void test_online(void **state)
{
	struct mb_cpuset set;

	(void)state;
	assert_int_equal(mb_cpuset_online(&set), 0);
	assert_true(set.count >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_next),
		cmocka_unit_test(test_format_truncates),
		cmocka_unit_test(test_online),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
