// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The registry: mb_benches and mb_default_suite are the families of families.def, in order. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "drivers/kloop.h"
#include "families/registry.h"

/* mb_benches is every family's benches, one family after another, and each names its family. */
static void test_benches_are_the_families(void **state)
{
	int b = 0;

	(void)state;
	assert_non_null(mb_families[0]);
	for (int f = 0; mb_families[f]; f++) {
		const struct mb_family *fam = mb_families[f];

		assert_non_null(fam->desc);
		assert_null(strchr(fam->desc, '\n'));
		assert_non_null(fam->benches[0]);
		for (int i = 0; fam->benches[i]; i++, b++) {
			assert_ptr_equal(mb_benches[b], fam->benches[i]);
			assert_string_equal(fam->benches[i]->family, fam->name);
		}
		/* A family's name is its folder's; two lines of families.def never share one. */
		for (int g = 0; g < f; g++)
			assert_string_not_equal(mb_families[g]->name, fam->name);
	}
	assert_null(mb_benches[b]);
}

static void test_names_unique(void **state)
{
	(void)state;
	for (int i = 0; mb_benches[i]; i++) {
		assert_ptr_equal(mb_bench_find(mb_benches[i]->name), mb_benches[i]);
		for (int k = 0; k < i; k++)
			assert_string_not_equal(mb_benches[k]->name, mb_benches[i]->name);
	}
	assert_null(mb_bench_find("no-such-bench"));
}

/* The default suite: each family's entries in family order, every one a bench of its family. */
static void test_default_suite(void **state)
{
	int s = 0;

	(void)state;
	for (int f = 0; mb_families[f]; f++) {
		const struct mb_family *fam = mb_families[f];

		for (int i = 0; fam->suite && fam->suite[i].bench; i++, s++) {
			const struct mb_bench *bench = mb_bench_find(fam->suite[i].bench);

			assert_string_equal(mb_default_suite[s].bench, fam->suite[i].bench);
			assert_ptr_equal(mb_default_suite[s].args, fam->suite[i].args);
			assert_non_null(bench);
			assert_string_equal(bench->family, fam->name);
		}
	}
	assert_true(s > 0);
	assert_null(mb_default_suite[s].bench);
}

/*
 * What a bench declares of its figures is sound: at most MB_MAX_COUNTERS counters, each named
 * (a JSON key and a CSV word: lower case, digits, '_'), with a unit and a line, the names
 * unique; a headline that counts a counter names one of them.
 */
static void test_figures_declared(void **state)
{
	(void)state;
	for (int i = 0; mb_benches[i]; i++) {
		const struct mb_bench *b = mb_benches[i];
		int n = 0;

		while (b->counters && b->counters[n].name) {
			const struct mb_counter_desc *c = &b->counters[n];

			assert_true(n < MB_MAX_COUNTERS);
			assert_true(c->name[0]);
			assert_int_equal(strspn(c->name, "abcdefghijklmnopqrstuvwxyz0123456789_"),
					 strlen(c->name));
			assert_non_null(c->unit);
			assert_non_null(c->desc);
			for (int k = 0; k < n; k++)
				assert_string_not_equal(b->counters[k].name, c->name);
			n++;
		}
		assert_int_equal(mb_bench_nr_counters(b), n);
		/* The op loop carries MB_LOOP_COUNTERS of them (kloop_shared.h says why). */
		if (b->instrument == &mb_kloop_instrument)
			assert_true(n <= MB_LOOP_COUNTERS);
		if (b->headline.count == MB_HEADLINE_COUNTER)
			assert_true(b->headline.counter >= 0 && b->headline.counter < n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_benches_are_the_families),
		cmocka_unit_test(test_names_unique),
		cmocka_unit_test(test_default_suite),
		cmocka_unit_test(test_figures_declared),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
