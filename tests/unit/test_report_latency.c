// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * latency_ns in JSON (output/report_latency.c): the histogram's non-empty buckets come with
 * the percentiles, lowest first, their counts add up to count, and each percentile lies in
 * the bucket that holds the value of its rank; the last bucket ends at max.
 */
#include <linux/types.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/latency.h"
#include "output/report.h"
#include "util/json.h"
#include "util/stats.h"
#include "lat_hist_add.h"

static __u64 u(const struct mb_json *row, size_t i)
{
	return (__u64)mb_json_num(mb_json_at(row, i), -1);
}

/* The percentile @key lies in the bucket where the cumulative count reaches its rank. */
static void assert_in_named_bucket(const struct mb_json *lat, const char *key, double p)
{
	const struct mb_json *buckets = mb_json_get(lat, "buckets");
	__u64 rank = mb_nearest_rank((uint64_t)mb_json_num(mb_json_get(lat, "count"), 0), p);
	double v = mb_json_num(mb_json_get(lat, key), NAN);
	__u64 seen = 0;

	for (size_t i = 0; i < mb_json_len(buckets); i++) {
		const struct mb_json *row = mb_json_at(buckets, i);

		seen += u(row, 2);
		if (seen < rank)
			continue;
		if (v < (double)u(row, 0) || v > (double)u(row, 1))
			fail_msg("%s %.1f outside its bucket %llu..%llu", key, v,
				 (unsigned long long)u(row, 0), (unsigned long long)u(row, 1));
		return;
	}
	fail_msg("%s: rank %llu beyond the buckets", key, (unsigned long long)rank);
}

static void test_buckets(void **state)
{
	struct mb_latency *lat = calloc(1, sizeof(*lat));
	struct mb_run run = { .latency = lat };
	const struct mb_json *buckets, *row;
	struct mb_json *o;
	__u64 sum = 0, prev_high = 0;

	(void)state;
	assert_non_null(lat);
	lat->every = 8192;
	lat->ops_per_timed = 1;
	lat_hist_add(&lat->op, 20, 900);
	lat_hist_add(&lat->op, 37, 80);
	lat_hist_add(&lat->op, 2711, 19);
	lat_hist_add(&lat->op, 50000000, 1);	/* beyond 16.8 ms: in the last bucket, which ends at max */
	o = mb_report_latency_json(&run);
	buckets = mb_json_get(o, "buckets");
	assert_int_equal(mb_json_len(buckets), 4);
	for (size_t i = 0; i < mb_json_len(buckets); i++) {
		row = mb_json_at(buckets, i);
		assert_int_equal(mb_json_len(row), 3);
		assert_true(u(row, 0) <= u(row, 1));
		assert_true(i == 0 || u(row, 0) > prev_high);
		assert_true(u(row, 2) > 0);
		prev_high = u(row, 1);
		sum += u(row, 2);
	}
	assert_int_equal(sum, (__u64)mb_json_num(mb_json_get(o, "count"), 0));
	row = mb_json_at(buckets, 2);
	assert_true(u(row, 0) <= 2711 && 2711 <= u(row, 1) && u(row, 1) - u(row, 0) < 32);
	row = mb_json_at(buckets, 3);
	assert_int_equal(u(row, 0), mb_lat_bucket_low(MB_LAT_BUCKETS - 1));
	assert_int_equal(u(row, 1), 50000000);
	assert_in_named_bucket(o, "p50", 50);
	assert_in_named_bucket(o, "p90", 90);
	assert_in_named_bucket(o, "p99", 99);
	assert_in_named_bucket(o, "p999", 99.9);
	mb_json_free(o);
	free(lat);
}

static void test_empty(void **state)
{
	struct mb_latency *lat = calloc(1, sizeof(*lat));
	struct mb_run run = { .latency = lat };
	struct mb_json *o;

	(void)state;
	assert_non_null(lat);
	o = mb_report_latency_json(&run);
	assert_true(mb_json_is(mb_json_get(o, "buckets"), MB_JSON_ARRAY));
	assert_int_equal(mb_json_len(mb_json_get(o, "buckets")), 0);
	mb_json_free(o);
	free(lat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
