// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * --latency on the syscall path (drivers/user_latency): one op in @every is due, counted per
 * producer; the sampler adds what the producers timed since its last read, only for measured
 * samples, merged over the producers; nothing without --latency.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/latency.h"
#include "drivers/user_latency.h"

static void test_due_every(void **state)
{
	struct mb_latency lat = { .fd = -1 };
	struct mb_run run = { .nr_producers = 2, .latency = &lat };
	struct mb_user_lat *u;
	int due = 0;

	(void)state;
	assert_int_equal(mb_user_latency_start(&run, 4, 3, "batch calls"), 0);
	assert_int_equal(lat.every, 4);
	assert_int_equal(lat.ops_per_timed, 3);
	assert_string_equal(lat.timed, "batch calls");
	assert_string_equal(lat.why, "");
	u = mb_user_latency_of(&run, 1);
	assert_non_null(u);
	assert_null(mb_user_latency_of(&run, 2));
	assert_null(mb_user_latency_of(&run, -1));
	/* The first op, then gaps of 2 to 6 ops (4 / 2 .. 3 * 4 / 2), 4 on average. */
	assert_true(mb_user_latency_due(u));
	for (int i = 0, gap = 1; i < 4000; i++, gap++) {
		if (!mb_user_latency_due(u))
			continue;
		assert_in_range(gap, 2, 6);
		gap = 0;
		due++;
	}
	assert_in_range(due, 900, 1100);
	assert_false(mb_user_latency_due(NULL));
	mb_user_latency_release(&run);
	assert_null(lat.user);
}

static void test_samples(void **state)
{
	struct mb_latency lat = { .fd = -1 };
	struct mb_run run = { .nr_producers = 2, .latency = &lat };
	struct mb_sample warm = { .warmup = true }, measured = { .warmup = false };
	struct mb_user_lat *u0, *u1;

	(void)state;
	assert_int_equal(mb_user_latency_start(&run, 3, 1, NULL), -EINVAL);
	assert_int_equal(mb_user_latency_start(&run, 1, 1, NULL), -EINVAL);
	assert_int_equal(mb_user_latency_start(&run, 2, 1, NULL), 0);
	u0 = mb_user_latency_of(&run, 0);
	u1 = mb_user_latency_of(&run, 1);
	/* Values added by hand here: due() decides only which ops a producer times. */
	mb_user_latency_add(u0, 100, 150, 170);		/* before the baseline: left out */
	mb_user_latency_sample(&run, NULL);
	mb_user_latency_add(u0, 1000, 1300, 1320);	/* in the warm-up: left out */
	mb_user_latency_sample(&run, &warm);
	assert_int_equal(lat.op.count, 0);
	mb_user_latency_add(u0, 2000, 2040, 2060);
	mb_user_latency_add(u1, 3000, 3090, 3110);
	mb_user_latency_add(u1, 4000, 3000, 4010);	/* a clock that went back: no value */
	mb_user_latency_sample(&run, &measured);
	assert_int_equal(lat.op.count, 2);
	assert_int_equal(lat.op.sum, 40 + 90);
	assert_int_equal(lat.op.max, 300);		/* the cumulative max, as in the BPF map */
	assert_int_equal(lat.timer.count, 2);
	assert_int_equal(lat.timer.sum, 40);
	assert_true(mb_lat_hist_percentile(&lat.op, 50) == 40);
	assert_true(mb_lat_hist_percentile(&lat.op, 100) == 90);
	mb_user_latency_release(&run);
	assert_null(lat.last_op);
}

static void test_without_latency(void **state)
{
	struct mb_run run = { .nr_producers = 1 };

	(void)state;
	assert_int_equal(mb_user_latency_start(&run, 64, 1, NULL), 0);
	assert_null(mb_user_latency_of(&run, 0));
	mb_user_latency_unavailable(&run, "why");
	mb_user_latency_sample(&run, NULL);
	mb_user_latency_release(&run);
}

static int read_fails(const struct mb_latency *lat, struct mb_lat_hist *op,
		      struct mb_lat_hist *timer)
{
	(void)lat;
	(void)op;
	(void)timer;
	return -EIO;
}

static int read_one(const struct mb_latency *lat, struct mb_lat_hist *op,
		    struct mb_lat_hist *timer)
{
	(void)lat;
	memset(op, 0, sizeof(*op));
	memset(timer, 0, sizeof(*timer));
	op->bucket[mb_lat_bucket(25)] = op->count = 1;
	op->sum = op->max = 25;
	return 0;
}

/* The hook both drivers share (core/latency.c): a reading that fails takes nothing. */
static void test_shared_sample(void **state)
{
	struct mb_latency lat = { .fd = -1 };

	(void)state;
	assert_int_equal(mb_latency_sample(&lat, read_fails, true), -EIO);
	assert_int_equal(lat.op.count, 0);
	assert_null(lat.last_op);
	assert_int_equal(mb_latency_sample(&lat, read_one, true), 0);
	assert_int_equal(lat.op.count, 1);
	assert_int_equal(mb_latency_sample(&lat, read_one, true), 0);
	assert_int_equal(lat.op.count, 1);	/* nothing new since the last reading */
	mb_latency_forget(&lat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_due_every),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_without_latency),
		cmocka_unit_test(test_shared_sample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
