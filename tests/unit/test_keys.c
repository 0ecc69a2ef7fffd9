// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include "maps/keys.h"

static void test_rng_deterministic(void **state)
{
	struct mb_rng a, b, c;

	(void)state;
	mb_rng_seed(&a, 42);
	mb_rng_seed(&b, 42);
	mb_rng_seed(&c, 43);
	for (int i = 0; i < 1000; i++) {
		uint64_t x = mb_rng_next(&a);

		assert_true(x == mb_rng_next(&b));
		assert_true(x != mb_rng_next(&c));
	}
	/* Integer-only arithmetic: this value is the same on every machine. */
	mb_rng_seed(&a, 1);
	assert_true(mb_rng_next(&a) == 0xb3f2af6d0fc710c5ULL);
}

static void test_rng_below(void **state)
{
	int counts[10] = { 0 };
	struct mb_rng r;

	(void)state;
	mb_rng_seed(&r, 7);
	for (int i = 0; i < 100000; i++) {
		uint64_t v = mb_rng_below(&r, 10);

		assert_true(v < 10);
		counts[v]++;
	}
	/* Each bucket expects 10000, sigma ~95: 6 sigma margin. */
	for (int i = 0; i < 10; i++)
		assert_true(abs(counts[i] - 10000) < 600);
	for (int i = 0; i < 1000; i++)
		assert_true(mb_rng_below(&r, 1) == 0);
	for (int i = 0; i < 1000; i++) {
		double d = mb_rng_double(&r);

		assert_true(d >= 0.0 && d < 1.0);
	}
}

/* Empirical rank frequencies follow 1/k^theta within a few standard errors. */
static void check_zipf_shape(uint64_t n, double theta)
{
	const int draws = 400000, top = 10;
	struct mb_zipf z;
	struct mb_rng r;
	int *count = calloc(n, sizeof(int));
	double h = 0;

	assert_non_null(count);
	assert_int_equal(mb_zipf_init(&z, n, theta), 0);
	mb_rng_seed(&r, 12345);
	for (int i = 0; i < draws; i++) {
		uint64_t k = mb_zipf_next(&z, &r);

		assert_true(k < n);
		count[k]++;
	}
	for (uint64_t k = 1; k <= n; k++)
		h += pow((double)k, -theta);
	for (int k = 1; k <= top && (uint64_t)k <= n; k++) {
		double p = pow(k, -theta) / h, expect = p * draws;
		double sigma = sqrt(draws * p * (1 - p));

		if (fabs(count[k - 1] - expect) > 5 * sigma + 1)
			fail_msg("zipf(n=%lu, theta=%g): rank %d: %d draws, %.1f expected",
				 (unsigned long)n, theta, k, count[k - 1], expect);
	}
	free(count);
}

static void test_zipf_shape(void **state)
{
	(void)state;
	check_zipf_shape(1000, 1.0);
	check_zipf_shape(1000, 0.99);
	check_zipf_shape(1000, 1.01);
	check_zipf_shape(1000, 0.5);
	check_zipf_shape(100, 1.5);
	check_zipf_shape(1000, 0.01);
	check_zipf_shape(20, 3.0);
}

static void test_zipf_bounds(void **state)
{
	struct mb_zipf z;
	struct mb_rng r;

	(void)state;
	mb_rng_seed(&r, 1);
	assert_int_equal(mb_zipf_init(&z, 1, 1.0), 0);
	for (int i = 0; i < 1000; i++)
		assert_true(mb_zipf_next(&z, &r) == 0);
	assert_int_equal(mb_zipf_init(&z, 1ULL << 40, 0.8), 0);
	for (int i = 0; i < 10000; i++)
		assert_true(mb_zipf_next(&z, &r) < (1ULL << 40));
	assert_int_equal(mb_zipf_init(&z, 0, 1.0), -EINVAL);
	assert_int_equal(mb_zipf_init(&z, 10, 0.0), -EINVAL);
	assert_int_equal(mb_zipf_init(&z, 10, -1.0), -EINVAL);
	assert_int_equal(mb_zipf_init(&z, 10, 10.5), -EINVAL);
	assert_int_equal(mb_zipf_init(&z, 10, NAN), -EINVAL);
}

static void test_zipf_deterministic(void **state)
{
	struct mb_keygen a, b;
	struct mb_key_dist d = { .kind = MB_DIST_ZIPF, .theta = 0.99 };

	(void)state;
	mb_keygen_init(&a, &d, 100000, 99);
	mb_keygen_init(&b, &d, 100000, 99);
	for (int i = 0; i < 10000; i++)
		assert_true(mb_keygen_next(&a) == mb_keygen_next(&b));
}

static void test_dist_parse(void **state)
{
	struct mb_key_dist d;
	const char *why;
	char buf[32];

	(void)state;
	assert_int_equal(mb_key_dist_parse("seq", &d, &why), 0);
	assert_int_equal(d.kind, MB_DIST_SEQ);
	assert_int_equal(mb_key_dist_parse("uniform", &d, &why), 0);
	assert_int_equal(d.kind, MB_DIST_UNIFORM);
	assert_int_equal(mb_key_dist_parse("zipf:0.99", &d, &why), 0);
	assert_int_equal(d.kind, MB_DIST_ZIPF);
	assert_float_equal(d.theta, 0.99, 1e-12);
	mb_key_dist_format(&d, buf, sizeof(buf));
	assert_string_equal(buf, "zipf:0.99");
	assert_int_equal(mb_key_dist_parse("zipf:", &d, &why), -EINVAL);
	assert_int_equal(mb_key_dist_parse("zipf:0", &d, &why), -EINVAL);
	assert_int_equal(mb_key_dist_parse("zipf:-1", &d, &why), -EINVAL);
	assert_int_equal(mb_key_dist_parse("zipf:11", &d, &why), -EINVAL);
	assert_int_equal(mb_key_dist_parse("zipf:x", &d, &why), -EINVAL);
	assert_int_equal(mb_key_dist_parse("gauss", &d, &why), -EINVAL);
	assert_non_null(why);
}

static void test_keygen_seq(void **state)
{
	struct mb_key_dist d = { .kind = MB_DIST_SEQ };
	struct mb_keygen g;

	(void)state;
	mb_keygen_init(&g, &d, 3, 0);
	for (int i = 0; i < 9; i++)
		assert_true(mb_keygen_next(&g) == (uint64_t)(i % 3));
	assert_int_equal(mb_keygen_init(&g, &d, 0, 0), -EINVAL);
}

static char *write_tmp(const char *content)
{
	char *path = strdup("/tmp/mb-keys-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
	return path;
}

static void expect_file(const char *content, int err, const char *msg_part, size_t n)
{
	char *path = write_tmp(content), msg[512] = "";
	uint64_t *keys;
	size_t nr;

	assert_int_equal(mb_keys_read_file(path, &keys, &nr, msg, sizeof(msg)), err);
	if (err) {
		assert_null(keys);
		if (!strstr(msg, msg_part))
			fail_msg("'%s' does not contain '%s'", msg, msg_part);
	} else {
		assert_int_equal(nr, n);
		free(keys);
	}
	unlink(path);
	free(path);
}

static void test_keys_file(void **state)
{
	char msg[256];
	uint64_t *keys;
	size_t nr;
	char *path;

	(void)state;
	path = write_tmp("5\n18446744073709551615\r\n7");
	assert_int_equal(mb_keys_read_file(path, &keys, &nr, msg, sizeof(msg)), 0);
	assert_int_equal(nr, 3);
	assert_true(keys[0] == 5 && keys[1] == UINT64_MAX && keys[2] == 7);
	free(keys);
	unlink(path);
	free(path);
	expect_file("1\n2\n", 0, NULL, 2);
	expect_file("", -ENODATA, "has no key", 0);
	expect_file("1\nabc\n", -EINVAL, "line 2", 0);
	expect_file("1\n\n2\n", -EINVAL, "line 2", 0);
	expect_file("1\n-3\n", -EINVAL, "line 2", 0);
	expect_file("1 \n", -EINVAL, "line 1", 0);
	expect_file("0x10\n", -EINVAL, "line 1", 0);
	expect_file("18446744073709551616\n", -EINVAL, "line 1", 0);
	assert_int_equal(mb_keys_read_file("/nonexistent/keys", &keys, &nr, msg, sizeof(msg)),
			 -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng_deterministic),
		cmocka_unit_test(test_rng_below),
		cmocka_unit_test(test_zipf_shape),
		cmocka_unit_test(test_zipf_bounds),
		cmocka_unit_test(test_zipf_deterministic),
		cmocka_unit_test(test_dist_parse),
		cmocka_unit_test(test_keygen_seq),
		cmocka_unit_test(test_keys_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
