// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Key traces of the LRU benches: generation (zipf shape, determinism, bounds), unique keys,
 * disjoint per-task key mapping, and the trace file's read errors. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "maps/keys.h"
#include "families/lru/lru_trace.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Unique keys the slow way: sort a copy and count the runs. */
static size_t unique_bruteforce(const uint64_t *keys, size_t n)
{
	uint64_t *c = malloc(n * sizeof(*c));
	size_t u = 0;

	assert_non_null(c);
	memcpy(c, keys, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_u64);
	for (size_t i = 0; i < n; i++)
		u += !i || c[i] != c[i - 1];
	free(c);
	return u;
}

static void test_generate_bounds_unique(void **state)
{
	static const char *const dists[] = { "zipf:0.01", "zipf:1.01", "zipf:3", "uniform", "seq" };
	static const uint64_t ranges[] = { 1, 7, 1000, 1ULL << 40 };

	(void)state;
	for (size_t d = 0; d < sizeof(dists) / sizeof(*dists); d++) {
		for (size_t r = 0; r < sizeof(ranges) / sizeof(*ranges); r++) {
			struct mb_key_dist dist;
			struct mb_trace t;
			const char *why;
			uint64_t max = 0;

			assert_int_equal(mb_key_dist_parse(dists[d], &dist, &why), 0);
			assert_int_equal(mb_trace_generate(&t, &dist, 5000, ranges[r], 9), 0);
			assert_int_equal(t.n, 5000);
			for (size_t i = 0; i < t.n; i++) {
				assert_true(t.keys[i] < ranges[r]);
				if (t.keys[i] > max)
					max = t.keys[i];
			}
			assert_true(t.max_key == max);
			assert_int_equal(t.unique, unique_bruteforce(t.keys, t.n));
			assert_false(t.dense);
			mb_trace_free(&t);
		}
	}
}

static void test_generate_deterministic(void **state)
{
	struct mb_key_dist d = { .kind = MB_DIST_ZIPF, .theta = 1.01 };
	struct mb_trace a, b, c;
	size_t same = 0;

	(void)state;
	assert_int_equal(mb_trace_generate(&a, &d, 20000, 100000, 42), 0);
	assert_int_equal(mb_trace_generate(&b, &d, 20000, 100000, 42), 0);
	assert_int_equal(mb_trace_generate(&c, &d, 20000, 100000, 43), 0);
	assert_memory_equal(a.keys, b.keys, a.n * sizeof(*a.keys));
	for (size_t i = 0; i < a.n; i++)
		same += a.keys[i] == c.keys[i];
	/* Key 0 has p ~ 0.08 at theta 1.01: two independent traces agree on ~1 % of accesses. */
	assert_true(same < a.n / 10);
	mb_trace_free(&a);
	mb_trace_free(&b);
	mb_trace_free(&c);
}

/*
 * The first keys of a fixed seed, pinned: the trace of a seed must not change between
 * versions (results name their seed). Integer PRNG; the zipf step uses exp/log of the C
 * library, so another libm could in principle round one draw differently.
 */
static void test_generate_golden(void **state)
{
	static const uint64_t want[] = { 49, 716, 328, 4539, 53, 142894, 383638, 5240,
					 3, 455, 1, 0, 1, 81, 225, 2 };
	struct mb_key_dist d = { .kind = MB_DIST_ZIPF, .theta = 0.99 };
	struct mb_trace t;

	(void)state;
	assert_int_equal(mb_trace_generate(&t, &d, 16, 1000000, 1), 0);
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++)
		if (t.keys[i] != want[i])
			fail_msg("key %zu: %llu, expected %llu", i, (unsigned long long)t.keys[i],
				 (unsigned long long)want[i]);
	mb_trace_free(&t);
}

/* Least-squares slope of log(frequency) against log(rank) over the first @ranks ranks. */
static double loglog_slope(uint64_t n, double theta, int ranks, int draws)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	int *count = calloc(n, sizeof(int));
	struct mb_zipf z;
	struct mb_rng r;

	assert_non_null(count);
	assert_int_equal(mb_zipf_init(&z, n, theta), 0);
	mb_rng_seed(&r, 77);
	for (int i = 0; i < draws; i++)
		count[mb_zipf_next(&z, &r)]++;
	for (int k = 1; k <= ranks; k++) {
		double x = log(k), y = log(count[k - 1] ? count[k - 1] : 1);

		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
	}
	free(count);
	return (ranks * sxy - sx * sy) / (ranks * sxx - sx * sx);
}

/* Rank-frequency shape: a straight line of slope -theta on log-log axes. */
static void test_zipf_loglog(void **state)
{
	static const double thetas[] = { 0.5, 0.99, 1.01, 1.5 };

	(void)state;
	for (size_t i = 0; i < sizeof(thetas) / sizeof(*thetas); i++) {
		double s = loglog_slope(100000, thetas[i], 100, 2000000);

		if (fabs(s + thetas[i]) > 0.05)
			fail_msg("zipf theta %g: log-log slope %.4f", thetas[i], s);
	}
	/* theta 0.01 is nearly uniform: the slope is close to 0. */
	assert_true(fabs(loglog_slope(1000, 0.01, 100, 2000000)) < 0.03);
}

static void test_adopt(void **state)
{
	uint64_t *k = malloc(6 * sizeof(*k));
	struct mb_trace t;

	(void)state;
	assert_non_null(k);
	memcpy(k, (uint64_t[]){ 5, UINT64_MAX, 5, 9, 9, 5 }, 6 * sizeof(*k));
	assert_int_equal(mb_trace_adopt(&t, k, 6), 0);
	assert_int_equal(t.unique, 3);
	assert_true(t.max_key == UINT64_MAX);
	mb_trace_free(&t);
	assert_int_equal(mb_trace_adopt(&t, malloc(8), 0), -EINVAL);
}

static void check_pattern(const uint64_t *orig, const struct mb_trace *t)
{
	for (size_t i = 0; i < t->n; i++)
		for (size_t j = 0; j < t->n; j++)
			assert_true((orig[i] == orig[j]) == (t->keys[i] == t->keys[j]));
}

static void test_for_tasks(void **state)
{
	uint64_t orig[] = { 1ULL << 61, 3, 1ULL << 61, 77, 3, 3 };
	size_t n = sizeof(orig) / sizeof(*orig);
	uint64_t *k = malloc(sizeof(orig));
	struct mb_trace t;

	(void)state;
	assert_non_null(k);
	memcpy(k, orig, sizeof(orig));
	assert_int_equal(mb_trace_adopt(&t, k, n), 0);
	/* One task: keys below the limit stay as they are. */
	assert_int_equal(mb_trace_for_tasks(&t, 1, (1ULL << 62) - 1), 0);
	assert_false(t.dense);
	assert_true(t.stride == (1ULL << 61) + 1);
	/* Two tasks would overflow 62 bits with offsets: renumbered densely, same pattern. */
	assert_int_equal(mb_trace_for_tasks(&t, 2, (1ULL << 62) - 1), 0);
	assert_true(t.dense);
	assert_int_equal(t.stride, 3);
	assert_true(t.max_key == 2);
	check_pattern(orig, &t);
	/* Task keys key + t * stride are disjoint: every key is below the stride. */
	for (size_t i = 0; i < n; i++)
		assert_true(t.keys[i] < t.stride);
	/* Even dense keys of 4 tasks do not fit under 10: refused. */
	assert_int_equal(mb_trace_for_tasks(&t, 4, 10), -ERANGE);
	mb_trace_free(&t);

	/* Small keys and many tasks: offsets of max_key + 1. */
	k = malloc(3 * sizeof(*k));
	assert_non_null(k);
	memcpy(k, (uint64_t[]){ 0, 99, 5 }, 3 * sizeof(*k));
	assert_int_equal(mb_trace_adopt(&t, k, 3), 0);
	assert_int_equal(mb_trace_for_tasks(&t, 256, (1ULL << 62) - 1), 0);
	assert_false(t.dense);
	assert_int_equal(t.stride, 100);
	mb_trace_free(&t);
}

static void test_read_errors(void **state)
{
	char msg[256] = "";
	uint64_t *keys;
	size_t nr;

	(void)state;
	/* A directory opens but cannot be read: the message says why. */
	assert_true(mb_keys_read_file("/", &keys, &nr, msg, sizeof(msg)) < 0);
	assert_non_null(strstr(msg, "Is a directory"));
	assert_null(keys);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generate_bounds_unique),
		cmocka_unit_test(test_generate_deterministic),
		cmocka_unit_test(test_generate_golden),
		cmocka_unit_test(test_zipf_loglog),
		cmocka_unit_test(test_adopt),
		cmocka_unit_test(test_for_tasks),
		cmocka_unit_test(test_read_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
