// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Comma-separated lists: an item is found whole, never as a part of another. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/strlist.h"

static void test_has(void **state)
{
	(void)state;
	assert_true(mb_list_has("tp_btf", "tp_btf"));
	assert_true(mb_list_has("tp_btf,raw_tp", "raw_tp"));
	assert_true(mb_list_has(",raw_tp,,tp,", "tp"));
	assert_false(mb_list_has("tp_btf", "tp"));
	assert_false(mb_list_has("tp", "tp_btf"));
	assert_false(mb_list_has("", "tp"));
	assert_false(mb_list_has(NULL, "tp"));
	assert_false(mb_list_has("tp", NULL));
	assert_false(mb_list_has("a,b", ""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_has),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
