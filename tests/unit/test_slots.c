// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The slots' sum: every count of every producer added, the per-producer state left out, no
 * producer at all an empty sum.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "drivers/slots.h"

static void fill(struct mb_slot *s, __u64 base)
{
	memset(s, 0, sizeof(*s));
	s->ops = base + 1;
	s->hits = base + 2;
	s->misses = base + 3;
	s->errors = base + 4;
	for (int c = 0; c < MB_LOOP_COUNTERS; c++)
		s->counter[c] = base + 10 + (__u64)c;
	s->kernel_ns = base + 5;
	s->calls = base + 6;
	s->cursor = s->rng = s->arg = s->start_ns = s->call_iters = base + 7;
}

static void test_sum(void **state)
{
	struct mb_slot slots[3], sum;

	(void)state;
	fill(&slots[0], 0);
	fill(&slots[1], 100);
	fill(&slots[2], 1000);
	mb_slots_sum(slots, 3, &sum);
	assert_int_equal(sum.ops, 1 + 101 + 1001);
	assert_int_equal(sum.hits, 2 + 102 + 1002);
	assert_int_equal(sum.misses, 3 + 103 + 1003);
	assert_int_equal(sum.errors, 4 + 104 + 1004);
	for (int c = 0; c < MB_LOOP_COUNTERS; c++)
		assert_int_equal(sum.counter[c], 1130 + 3 * (__u64)c);
	assert_int_equal(sum.kernel_ns, 5 + 105 + 1005);
	assert_int_equal(sum.calls, 6 + 106 + 1006);
	/* A cursor or a PRNG state is no count: not added. */
	assert_int_equal(sum.cursor, 0);
	assert_int_equal(sum.rng, 0);
	assert_int_equal(sum.arg, 0);
	assert_int_equal(sum.start_ns, 0);
	assert_int_equal(sum.call_iters, 0);
	/* Only the first @n slots count. */
	mb_slots_sum(slots, 1, &sum);
	assert_int_equal(sum.ops, 1);
	assert_int_equal(sum.calls, 6);
}

static void test_none(void **state)
{
	struct mb_slot slot, sum;

	(void)state;
	fill(&slot, 5);
	memset(&sum, 0xff, sizeof(sum));
	mb_slots_sum(&slot, 0, &sum);
	assert_int_equal(sum.ops, 0);
	assert_int_equal(sum.errors, 0);
	mb_slots_sum(&slot, -1, &sum);
	assert_int_equal(sum.hits, 0);
	assert_int_equal(sum.counter[0], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sum),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
