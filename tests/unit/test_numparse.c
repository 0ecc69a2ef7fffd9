// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/numparse.h"

static void expect_u64(const char *s, uint64_t want)
{
	uint64_t v = 0;

	assert_int_equal(mb_parse_u64(s, &v), 0);
	assert_true(v == want);
}

static void expect_u64_err(const char *s, int err)
{
	uint64_t v = 12345;

	assert_int_equal(mb_parse_u64(s, &v), err);
	assert_true(v == 12345);
}

static void test_u64(void **state)
{
	(void)state;
	expect_u64("0", 0);
	expect_u64("42", 42);
	expect_u64("0x40", 0x40);
	expect_u64("0XfF", 255);
	expect_u64("10k", 10000);
	expect_u64("10K", 10000);
	expect_u64("1M", 1000000);
	expect_u64("2G", 2000000000ULL);
	expect_u64("18446744073709551615", UINT64_MAX);
	expect_u64("007", 7);
}

static void test_u64_errors(void **state)
{
	(void)state;
	expect_u64_err("", -EINVAL);
	expect_u64_err(NULL, -EINVAL);
	expect_u64_err("-1", -EINVAL);
	expect_u64_err("+1", -EINVAL);
	expect_u64_err(" 1", -EINVAL);
	expect_u64_err("1 ", -EINVAL);
	expect_u64_err("5x", -EINVAL);
	expect_u64_err("x", -EINVAL);
	expect_u64_err("0x", -EINVAL);
	expect_u64_err("0x1k", -EINVAL);
	expect_u64_err("1kk", -EINVAL);
	expect_u64_err("1m", -EINVAL);
	expect_u64_err("1.5", -EINVAL);
	expect_u64_err("18446744073709551616", -ERANGE);
	expect_u64_err("18446744073709552G", -ERANGE);
	expect_u64_err("0x10000000000000000", -ERANGE);
}

static void test_double(void **state)
{
	double v;

	(void)state;
	assert_int_equal(mb_parse_double("0.99", &v), 0);
	assert_float_equal(v, 0.99, 1e-15);
	assert_int_equal(mb_parse_double("1e-3", &v), 0);
	assert_float_equal(v, 1e-3, 1e-18);
	assert_int_equal(mb_parse_double("", &v), -EINVAL);
	assert_int_equal(mb_parse_double(" 1", &v), -EINVAL);
	assert_int_equal(mb_parse_double("1x", &v), -EINVAL);
	assert_int_equal(mb_parse_double("nan", &v), -ERANGE);
	assert_int_equal(mb_parse_double("inf", &v), -ERANGE);
	assert_int_equal(mb_parse_double("1e999", &v), -ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_u64_errors),
		cmocka_unit_test(test_double),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
