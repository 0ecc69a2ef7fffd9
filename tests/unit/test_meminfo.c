// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* /proc/meminfo: a figure from sample text, refusals of what is not one, and the real file. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "sys/meminfo.h"

static const char sample[] =
	"MemTotal:       24536052 kB\n"
	"MemFree:         1048576 kB\n"
	"MemAvailable:   22954112 kB\n"
	"Buffers:          123456 kB\n"
	"HugePages_Total:       0\n"
	"Hugepagesize:       2048 kB\n";

static void test_parse(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(mb_meminfo_parse(sample, "MemAvailable", &v), 0);
	assert_true(v == 22954112ULL * 1024);
	assert_int_equal(mb_meminfo_parse(sample, "MemTotal", &v), 0);
	assert_true(v == 24536052ULL * 1024);
	/* A count, not kB; the last line (its own newline or none). */
	assert_int_equal(mb_meminfo_parse(sample, "HugePages_Total", &v), 0);
	assert_true(v == 0);
	assert_int_equal(mb_meminfo_parse("A:\t7 kB", "A", &v), 0);
	assert_true(v == 7 * 1024);
}

static void test_missing(void **state)
{
	uint64_t v = 42;

	(void)state;
	assert_int_equal(mb_meminfo_parse(sample, "SwapTotal", &v), -ENOENT);
	/* A prefix of a key is not the key, nor is a key inside a line. */
	assert_int_equal(mb_meminfo_parse(sample, "Mem", &v), -ENOENT);
	assert_int_equal(mb_meminfo_parse(sample, "Total", &v), -ENOENT);
	assert_int_equal(mb_meminfo_parse("", "MemAvailable", &v), -ENOENT);
	assert_true(v == 42);
}

static void test_malformed(void **state)
{
	uint64_t v = 42;

	(void)state;
	assert_int_equal(mb_meminfo_parse("MemAvailable: lots\n", "MemAvailable", &v), -EINVAL);
	assert_int_equal(mb_meminfo_parse("MemAvailable:\n", "MemAvailable", &v), -EINVAL);
	assert_int_equal(mb_meminfo_parse("MemAvailable: -5 kB\n", "MemAvailable", &v), -EINVAL);
	assert_int_equal(mb_meminfo_parse("MemAvailable: 5 MB\n", "MemAvailable", &v), -EINVAL);
	assert_int_equal(mb_meminfo_parse("MemAvailable: 5 kBx\n", "MemAvailable", &v), -EINVAL);
	/* Bytes past 64 bits, and a number past them. */
	assert_int_equal(mb_meminfo_parse("MemAvailable: 18014398509481984 kB\n", "MemAvailable",
					  &v), -EINVAL);
	assert_int_equal(mb_meminfo_parse("MemAvailable: 99999999999999999999\n", "MemAvailable",
					  &v), -EINVAL);
	assert_true(v == 42);
}

/* The machine's own: some memory is available, no more than there is. */
static void test_read(void **state)
{
	uint64_t avail = 0;

	(void)state;
	assert_int_equal(mb_mem_available(&avail), 0);
	assert_true(avail > 0);
	assert_true(avail < (1ULL << 50));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
