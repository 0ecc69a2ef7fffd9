// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The streaming consumer's check: records of known producers and sequence numbers, some lost,
 * some seen twice, some from no producer, some out of another buffer, and the verdict's counts;
 * and the counts alone (--rb-check counts), which add up or do not, but name no record; the
 * stamp table's rows, none to speak of without the check.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "families/ringbuf/rb.h"
#include "families/ringbuf/rb_check.h"

static void feed(struct rb_check *c, uint64_t producer, uint64_t from, uint64_t to, int buf)
{
	for (uint64_t s = from; s < to; s++)
		rb_check_record(c, rb_record_id(producer, s), buf);
}

static void test_all_received_once(void **state)
{
	const uint64_t made[2] = { 1000, 10 };
	struct rb_check c;
	struct rb_verdict v;

	(void)state;
	assert_int_equal(rb_check_init(&c, 2, 1, true), 0);
	/* Interleaved producers in one buffer, each in order. */
	for (uint64_t s = 0; s < 1000; s++) {
		rb_check_record(&c, rb_record_id(0, s), 0);
		if (s < 10)
			rb_check_record(&c, rb_record_id(1, s), 0);
	}
	rb_check_verdict(&c, made, &v);
	assert_int_equal(v.made, 1010);
	assert_int_equal(v.received, 1010);
	assert_int_equal(v.lost, 0);
	assert_int_equal(v.duplicated, 0);
	assert_true(v.checked);
	assert_true(v.checksum_ok);
	assert_true(v.ok);
	rb_check_free(&c);
}

static void test_lost_and_twice(void **state)
{
	const uint64_t made[1] = { 100 };
	struct rb_check c;
	struct rb_verdict v;

	(void)state;
	assert_int_equal(rb_check_init(&c, 1, 1, true), 0);
	feed(&c, 0, 0, 40, 0);
	feed(&c, 0, 30, 35, 0);		/* 5 seen twice */
	feed(&c, 0, 50, 95, 0);		/* 40..49 and 95..99 never come: 15 lost */
	rb_check_verdict(&c, made, &v);
	assert_int_equal(v.received, 90);
	assert_int_equal(v.duplicated, 5);
	assert_int_equal(v.lost, 15);
	assert_false(v.ok);
	rb_check_free(&c);
}

static void test_foreign_and_buffers(void **state)
{
	const uint64_t made[2] = { 20, 20 };
	struct rb_check c;
	struct rb_verdict v;

	(void)state;
	assert_int_equal(rb_check_init(&c, 2, 4, true), 0);
	/* A producer that moved between CPU buffers: in order within each, not across. */
	feed(&c, 1, 10, 20, 3);
	feed(&c, 1, 0, 10, 2);
	feed(&c, 0, 0, 20, 0);
	rb_check_verdict(&c, made, &v);
	assert_true(v.ok);
	rb_check_record(&c, rb_record_id(2, 0), 0);	/* no producer 2 */
	rb_check_record(&c, rb_record_id(0, 0), 4);	/* no buffer 4 */
	rb_check_verdict(&c, made, &v);
	assert_int_equal(v.foreign, 2);
	assert_int_equal(v.lost, 0);
	assert_false(v.ok);
	rb_check_free(&c);
}

static void test_wrong_numbers_fail_the_checksum(void **state)
{
	const uint64_t made[1] = { 10 };
	struct rb_check c;
	struct rb_verdict v;

	(void)state;
	/* As many records as were made, but one number never made and one missing. */
	assert_int_equal(rb_check_init(&c, 1, 1, true), 0);
	feed(&c, 0, 0, 9, 0);
	rb_check_record(&c, rb_record_id(0, 12), 0);
	rb_check_verdict(&c, made, &v);
	assert_int_equal(v.received, 10);
	assert_int_equal(v.lost, 0);
	assert_false(v.checksum_ok);
	assert_false(v.ok);
	rb_check_free(&c);
}

static void test_counts_only_add_up(void **state)
{
	const uint64_t made[2] = { 1000, 10 };
	struct rb_check c;
	struct rb_verdict v;

	(void)state;
	assert_int_equal(rb_check_init(&c, 2, 1, false), 0);
	for (int i = 0; i < 1010; i++)
		rb_check_count(&c);
	rb_check_verdict(&c, made, &v);
	assert_false(v.checked);
	assert_int_equal(v.made, 1010);
	assert_int_equal(v.received, 1010);
	assert_int_equal(v.lost, 0);
	assert_true(v.ok);
	/* Nothing of a record is read: no latency either. */
	assert_int_equal(c.count[0] + c.count[1], 0);
	assert_int_equal(c.latency->count, 0);
	rb_check_free(&c);
}

static void test_counts_only_fewer_or_more(void **state)
{
	const uint64_t made[1] = { 100 };
	struct rb_check c;
	struct rb_verdict v;

	(void)state;
	assert_int_equal(rb_check_init(&c, 1, 1, false), 0);
	for (int i = 0; i < 85; i++)
		rb_check_count(&c);
	rb_check_verdict(&c, made, &v);
	assert_int_equal(v.received, 85);
	assert_int_equal(v.lost, 15);
	assert_false(v.ok);
	/* More than were made: not lost, still wrong (seen twice or foreign: counts cannot say). */
	for (int i = 0; i < 20; i++)
		rb_check_count(&c);
	rb_check_verdict(&c, made, &v);
	assert_int_equal(v.received, 105);
	assert_int_equal(v.lost, 0);
	assert_false(v.ok);
	rb_check_free(&c);
}

static void test_stamp_rows(void **state)
{
	struct rb_args a = { .check = RB_CHECK_RECORDS };
	struct mb_run run = { .args = &a };

	(void)state;
	/* 512 KiB of 16-byte records: 32768 in flight, 1026 stamps wanted, a power of two. */
	assert_int_equal(rb_stamp_rows(32768), 2048);
	assert_int_equal(rb_stamp_rows(0), 2);
	assert_int_equal(rb_run_stamp_rows(&run, 32768), 2048);
	/* Counts: nothing stamps, a row of one. */
	a.check = RB_CHECK_COUNTS;
	assert_int_equal(rb_run_stamp_rows(&run, 32768), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_received_once),
		cmocka_unit_test(test_lost_and_twice),
		cmocka_unit_test(test_foreign_and_buffers),
		cmocka_unit_test(test_wrong_numbers_fail_the_checksum),
		cmocka_unit_test(test_counts_only_add_up),
		cmocka_unit_test(test_counts_only_fewer_or_more),
		cmocka_unit_test(test_stamp_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
