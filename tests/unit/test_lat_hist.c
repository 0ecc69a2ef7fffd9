// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The per-op latency histogram (--latency): buckets that tile 0 .. 2^64, none wider than 1 %
 * of its value up to 10 ms, merging, and percentiles of known distributions within a bucket.
 */
#include <linux/types.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/lat_hist.h"
#include "lat_hist_add.h"

static struct mb_lat_hist *hist_new(void)
{
	struct mb_lat_hist *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	return h;
}

/* |got - want| at most the width of want's bucket. */
static void assert_within_bucket(double got, __u64 want)
{
	__u32 b = mb_lat_bucket(want);
	double width = (double)(mb_lat_bucket_high(b) - mb_lat_bucket_low(b) + 1);

	if (fabs(got - (double)want) > width)
		fail_msg("percentile %.1f, expected %llu within one bucket (%.0f)", got,
			 (unsigned long long)want, width);
}

static void test_buckets_tile(void **state)
{
	(void)state;
	for (__u32 i = 1; i < MB_LAT_BUCKETS; i++) {
		assert_int_equal(mb_lat_bucket_low(i), mb_lat_bucket_high(i - 1) + 1);
		assert_int_equal(mb_lat_bucket(mb_lat_bucket_low(i)), i);
		if (i < MB_LAT_BUCKETS - 1)
			assert_int_equal(mb_lat_bucket(mb_lat_bucket_high(i)), i);
	}
	assert_int_equal(mb_lat_bucket(0), 0);
	assert_int_equal(mb_lat_bucket(UINT64_MAX), MB_LAT_BUCKETS - 1);
	assert_true(mb_lat_bucket_high(MB_LAT_BUCKETS - 1) == UINT64_MAX);
}

/* From 1 ns to 10 ms every bucket is at most 1 % of its lowest value wide. */
static void test_bucket_error(void **state)
{
	(void)state;
	assert_true(mb_lat_bucket(10000000) < MB_LAT_BUCKETS - 1);
	for (__u32 i = 1; i <= mb_lat_bucket(10000000); i++) {
		double lo = (double)mb_lat_bucket_low(i);
		double width = (double)(mb_lat_bucket_high(i) - mb_lat_bucket_low(i) + 1);

		assert_true(width == 1 || width / lo <= 0.01);
	}
}

static void test_empty_and_exact(void **state)
{
	struct mb_lat_hist *h = hist_new();

	(void)state;
	assert_true(isnan(mb_lat_hist_percentile(h, 50)));
	assert_true(isnan(mb_lat_hist_max(h)));
	for (__u64 v = 1; v <= 100; v++)
		lat_hist_add(h, v, 1);
	assert_true(mb_lat_hist_percentile(h, 50) == 50);
	assert_true(mb_lat_hist_percentile(h, 99) == 99);
	assert_true(mb_lat_hist_percentile(h, 0) == 1);
	assert_true(mb_lat_hist_percentile(h, 100) == 100);
	assert_true(mb_lat_hist_max(h) == 100);
	free(h);
}

/*
 * A known distribution, as an op that takes longer on every Nth call would give: 90 % at
 * 21 ns, 9 % at 300 ns, 0.9 % at 5 us, 0.1 % at 2 ms; each percentile within its bucket.
 */
static void test_injected_distribution(void **state)
{
	struct mb_lat_hist *h = hist_new();

	(void)state;
	lat_hist_add(h, 21, 9000);
	lat_hist_add(h, 300, 900);
	lat_hist_add(h, 5000, 90);
	lat_hist_add(h, 2000000, 10);
	assert_within_bucket(mb_lat_hist_percentile(h, 50), 21);
	assert_within_bucket(mb_lat_hist_percentile(h, 90), 21);
	assert_within_bucket(mb_lat_hist_percentile(h, 90.01), 300);
	assert_within_bucket(mb_lat_hist_percentile(h, 99), 300);
	assert_within_bucket(mb_lat_hist_percentile(h, 99.9), 5000);
	assert_within_bucket(mb_lat_hist_percentile(h, 99.91), 2000000);
	assert_true(mb_lat_hist_max(h) == 2000000);
	free(h);
}

/* A spread of values 1000 .. 50999 ns: each percentile within a bucket of its exact value. */
static void test_uniform(void **state)
{
	struct mb_lat_hist *h = hist_new();
	const double ps[] = { 50, 90, 99, 99.9 };

	(void)state;
	for (__u64 v = 1000; v < 51000; v++)
		lat_hist_add(h, v, 1);
	for (size_t k = 0; k < sizeof(ps) / sizeof(*ps); k++) {
		__u64 want = 999 + (__u64)ceil(ps[k] / 100 * 50000);

		assert_within_bucket(mb_lat_hist_percentile(h, ps[k]), want);
	}
	free(h);
}

/* Merging per-CPU histograms gives the histogram of all their values. */
static void test_merge(void **state)
{
	struct mb_lat_hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	struct mb_lat_hist *sum = hist_new();

	(void)state;
	for (__u64 v = 1; v < 20000; v += 7) {
		lat_hist_add(v % 3 ? a : b, v, 1);
		lat_hist_add(all, v, 1);
	}
	mb_lat_hist_merge(sum, a);
	mb_lat_hist_merge(sum, b);
	assert_int_equal(sum->count, all->count);
	assert_int_equal(sum->sum, all->sum);
	assert_int_equal(sum->max, all->max);
	assert_memory_equal(sum->bucket, all->bucket, sizeof(all->bucket));
	assert_true(mb_lat_hist_percentile(sum, 99) == mb_lat_hist_percentile(all, 99));
	free(a);
	free(b);
	free(all);
	free(sum);
}

/* A sample's histogram is a difference of cumulative ones: its max is read to a bucket. */
static void test_max_of_difference(void **state)
{
	struct mb_lat_hist *h = hist_new();

	(void)state;
	lat_hist_add(h, 1000, 5);
	h->max = 900000;	/* the older, cumulative max, from values no longer counted */
	assert_true(mb_lat_hist_max(h) == (double)mb_lat_bucket_high(mb_lat_bucket(1000)));
	assert_true(mb_lat_hist_percentile(h, 100) <= mb_lat_hist_max(h));
	free(h);
}

/*
 * A reading taken while the writer adds a value holds it in its bucket and not yet in count:
 * the difference counts the buckets' values, so the percentiles' ranks fall within them.
 */
static void test_difference_counts_buckets(void **state)
{
	struct mb_lat_hist *then = hist_new(), *now = hist_new(), *acc = hist_new();

	(void)state;
	lat_hist_add(then, 20, 3);
	memcpy(now, then, sizeof(*now));
	lat_hist_add(now, 20, 5);
	lat_hist_add(now, 3000, 2);
	now->bucket[mb_lat_bucket(3000)]++;	/* a third one, its count not yet written */
	mb_lat_hist_add_difference(acc, now, then);
	assert_int_equal(acc->count, 8);
	assert_true(mb_lat_hist_percentile(acc, 100) >= mb_lat_bucket_low(mb_lat_bucket(3000)));
	free(then);
	free(now);
	free(acc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_tile),
		cmocka_unit_test(test_bucket_error),
		cmocka_unit_test(test_empty_and_exact),
		cmocka_unit_test(test_injected_distribution),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_max_of_difference),
		cmocka_unit_test(test_difference_counts_buckets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
