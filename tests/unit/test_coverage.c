// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * --map-types' coverage, without a kernel: benches by the types they list, a footprint bench
 * apart and only for types created here, the reasons of types not covered, the document.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "families/coverage.h"
#include "util/json.h"

static const struct mb_bench ops = { .name = "ops", .map_types = MB_MAP_TYPES("hash", "queue") };
static const struct mb_bench none = { .name = "none" };
static const struct mb_bench mem = { .name = "mem", .flags = MB_BENCH_FOOTPRINT,
				     .map_types = MB_MAP_TYPES("hash", "xskmap", "prog_array") };
static const struct mb_bench *const benches[] = { &ops, &none, &mem, NULL };

/*
 * The test's own recipe for xskmap, with a reason why no bench covers it: the real table's
 * every creatable type has a bench, and the path of a type without one must stay tested.
 */
static const struct mb_map_recipe uncovered = { .name = "xskmap", .key_size = 4,
						.value_size = 4, .max_entries = 1,
						.no_bench = "no bench yet: the test's own" };

static void probes(struct mb_map_probe *p)
{
	static const char *const names[] = { "hash", "xskmap", "prog_array", "new_one", "rhash" };

	memset(p, 0, 5 * sizeof(*p));
	for (int i = 0; i < 5; i++) {
		snprintf(p[i].name, sizeof(p[i].name), "%s", names[i]);
		p[i].value = i + 1;
		p[i].recipe = mb_map_recipe_find(names[i]);
	}
	p[1].recipe = &uncovered;
	/* prog_array refused here; new_one has no recipe; rhash is not on the kernel. */
	p[2].err = -EINVAL;
	snprintf(p[2].why, sizeof(p[2].why), "EINVAL: refused");
	p[3].err = -ENOENT;
	p[4].value = -1;
	p[4].err = -EINVAL;
	snprintf(p[4].why, sizeof(p[4].why), "not on this kernel");
}

static void test_rows(void **state)
{
	struct mb_coverage_row *r;
	struct mb_map_probe p[5];

	(void)state;
	probes(p);
	assert_int_equal(mb_coverage_rows(p, 5, benches, &r), 0);
	/* hash: the op bench covers it, the footprint bench is its memory row. */
	assert_int_equal(r[0].nr_benches, 1);
	assert_string_equal(r[0].benches[0]->name, "ops");
	assert_int_equal(r[0].nr_memory, 1);
	assert_null(r[0].why_not_covered);
	/* xskmap: a memory row, no bench: the recipe's reason. */
	assert_int_equal(r[1].nr_benches, 0);
	assert_int_equal(r[1].nr_memory, 1);
	assert_string_equal(r[1].why_not_covered, uncovered.no_bench);
	/* prog_array, not created here: no memory row though the footprint bench lists it. */
	assert_int_equal(r[2].nr_memory, 0);
	/* A type without a recipe has no reason: the bug the e2e test catches. */
	assert_null(r[3].why_not_covered);
	mb_coverage_free(r, 5);
}

static void test_json(void **state)
{
	struct mb_coverage_row *r;
	struct mb_map_probe p[5];
	struct mb_json *doc, *types, *t;

	(void)state;
	probes(p);
	assert_int_equal(mb_coverage_rows(p, 5, benches, &r), 0);
	doc = mb_coverage_json(r, 5, NULL);
	types = mb_json_get(doc, "map_types");
	assert_int_equal(mb_json_len(types), 5);
	t = mb_json_at(types, 0);
	assert_string_equal(mb_json_str(mb_json_get(t, "name"), ""), "hash");
	assert_true(mb_json_truthy(mb_json_get(t, "covered")));
	assert_int_equal(mb_json_len(mb_json_get(t, "memory")), 1);
	t = mb_json_at(types, 4);
	assert_true(mb_json_is(mb_json_get(t, "value"), MB_JSON_NULL));
	assert_false(mb_json_truthy(mb_json_get(t, "on_kernel")));
	assert_non_null(strstr(mb_json_str(mb_json_get(t, "why_not_created"), ""), "not on"));
	assert_int_equal(mb_json_num(mb_json_get(mb_json_get(doc, "counts"), "covered"), -1), 1);
	assert_int_equal(mb_json_num(mb_json_get(mb_json_get(doc, "counts"), "created"), -1), 2);
	mb_json_free(doc);
	mb_coverage_free(r, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
