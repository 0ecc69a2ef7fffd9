// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/env.h"
#include "util/json.h"
#include "core/opts.h"
#include "families/registry.h"
#include "maps/map_opts.h"
#include "families/lpm/lpm_trie.h"

struct args {
	uint32_t n;
	uint64_t big;
	double theta;
	int kind;
	bool flag;
	const char *path;
};

static const char *const kinds[] = { "hash", "array", NULL };

static const struct mb_opt table[] = {
	MB_OPT_U32_DEF("nr_entries", struct args, n, "1000", 1, 4000000000u, "N", "entries"),
	MB_OPT_U64_DEF("big", struct args, big, "0x10", 0, UINT64_MAX, "N", "big"),
	MB_OPT_DOUBLE_DEF("theta", struct args, theta, "0.99", 0.01, 5, "T", "theta"),
	MB_OPT_ENUM_DEF("map_type", struct args, kind, "hash", kinds, "kind"),
	MB_OPT_FLAG_DEF("random", struct args, flag, "random"),
	MB_OPT_STRING_DEF("keys_file", struct args, path, NULL, "PATH", "file"),
	MB_OPT_END,
};

static void expect_error(const char *name, const char *value, const char *msg)
{
	struct args a;
	char buf[256];
	int i = mb_opt_find(table, name);

	assert_true(i >= 0);
	assert_int_equal(mb_opt_apply(&table[i], &a, value, buf, sizeof(buf)), -EINVAL);
	assert_string_equal(buf, msg);
}

static void test_defaults_and_apply(void **state)
{
	struct args a;
	char msg[256], buf[64];

	(void)state;
	memset(&a, 0xff, sizeof(a));
	assert_int_equal(mb_opts_set_defaults(table, &a, msg, sizeof(msg)), 0);
	assert_int_equal(a.n, 1000);
	assert_true(a.big == 16);
	assert_float_equal(a.theta, 0.99, 1e-12);
	assert_int_equal(a.kind, 0);
	assert_false(a.flag);
	assert_null(a.path);
	assert_int_equal(mb_opt_apply(&table[0], &a, "10k", msg, sizeof(msg)), 0);
	assert_int_equal(a.n, 10000);
	assert_int_equal(mb_opt_apply(&table[3], &a, "array", msg, sizeof(msg)), 0);
	assert_int_equal(a.kind, 1);
	assert_int_equal(mb_opt_apply(&table[4], &a, NULL, msg, sizeof(msg)), 0);
	assert_true(a.flag);
	mb_opt_format(&table[3], &a, buf, sizeof(buf));
	assert_string_equal(buf, "array");
	mb_opt_format(&table[0], &a, buf, sizeof(buf));
	assert_string_equal(buf, "10000");
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("nr_entries", "0", "--nr_entries 0: must be 1..4000000000");
	expect_error("nr_entries", "5000000000", "--nr_entries 5000000000: must be 1..4000000000");
	expect_error("nr_entries", "99999999999999999999",
		     "--nr_entries 99999999999999999999: must be 1..4000000000");
	expect_error("nr_entries", "12x", "--nr_entries 12x: must be 1..4000000000 (not a number)");
	expect_error("nr_entries", "-1", "--nr_entries -1: must be 1..4000000000 (not a number)");
	expect_error("theta", "0", "--theta 0: must be 0.01..5");
	expect_error("theta", "abc", "--theta abc: must be 0.01..5 (not a number)");
	expect_error("map_type", "tree", "--map_type tree: must be one of hash, array");
	expect_error("keys_file", "", "--keys_file: must be a non-empty string");
}

static void test_names(void **state)
{
	(void)state;
	assert_true(mb_opt_name_eq("nr-entries", "nr_entries"));
	assert_true(mb_opt_name_eq("use_case", "use-case"));
	assert_false(mb_opt_name_eq("nr_entrie", "nr_entries"));
	assert_false(mb_opt_name_eq("nr_entriesx", "nr_entries"));
	assert_int_equal(mb_opt_find(table, "map-type"), 3);
	assert_int_equal(mb_opt_find(table, "nope"), -1);
	assert_int_equal(mb_opt_find(NULL, "nope"), -1);
	assert_int_equal(mb_opt_count(table), 6);
}

static void test_json(void **state)
{
	struct args a;
	char msg[64];
	struct mb_json *j;

	(void)state;
	mb_opts_set_defaults(table, &a, msg, sizeof(msg));
	j = mb_opts_to_json(table, &a);
	assert_float_equal(mb_json_num(mb_json_get(j, "nr_entries"), 0), 1000, 0);
	assert_string_equal(mb_json_str(mb_json_get(j, "map_type"), ""), "hash");
	assert_false(mb_json_truthy(mb_json_get(j, "random")));
	assert_true(mb_json_is(mb_json_get(j, "keys_file"), MB_JSON_NULL));
	mb_json_free(j);
}

static bool kebab(const char *s)
{
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-')
			return false;
	return true;
}

/* Invariants of the whole registry: every table is well-formed and its defaults parse. */
static void test_registry(void **state)
{
	char msg[512];

	(void)state;
	assert_non_null(mb_benches[0]);
	for (int b = 0; mb_benches[b]; b++) {
		const struct mb_bench *bench = mb_benches[b];
		void *args = calloc(1, bench->args_size + 1);

		assert_non_null(bench->name);
		assert_true(kebab(bench->name));
		assert_non_null(bench->family);
		assert_non_null(bench->desc);
		assert_true(bench->run_once || bench->producer);
		assert_true(mb_bench_find(bench->name) == bench);
		if (mb_opts_set_defaults(bench->opts, args, msg, sizeof(msg)))
			fail_msg("%s: bad default: %s", bench->name, msg);
		assert_true(mb_opt_count(bench->opts) <= 64);
		for (int i = 0; bench->opts && bench->opts[i].name; i++) {
			const struct mb_opt *opt = &bench->opts[i];

			assert_non_null(opt->help);
			assert_true(opt->offset < bench->args_size);
			if (mb_opt_find(mb_global_opts, opt->name) >= 0)
				fail_msg("%s: --%s shadows a global option", bench->name, opt->name);
			if (mb_opt_find(bench->opts, opt->name) != i)
				fail_msg("%s: --%s declared twice", bench->name, opt->name);
			/* A shared name must agree on taking a value, or pass 1 misparses. */
			for (int o = 0; mb_benches[o]; o++) {
				int k = mb_opt_find(mb_benches[o]->opts, opt->name);

				if (k >= 0 && mb_opt_takes_value(&mb_benches[o]->opts[k]) !=
						      mb_opt_takes_value(opt))
					fail_msg("--%s: a flag in one bench, a value in another",
						 opt->name);
			}
		}
		free(args);
	}
	for (int i = 0; mb_default_suite[i].bench; i++)
		assert_non_null(mb_bench_find(mb_default_suite[i].bench));
}

static void test_global_defaults(void **state)
{
	struct mb_env env;
	char msg[256];

	(void)state;
	assert_int_equal(mb_opts_set_defaults(mb_global_opts, &env, msg, sizeof(msg)), 0);
	assert_int_equal(env.duration, 5);
	assert_int_equal(env.warmup, 1);
	assert_int_equal(env.producers, 1);
	assert_int_equal(env.consumers, 0);
	assert_int_equal(env.interval_ms, 1000);
	assert_int_equal(env.format, MB_FORMAT_TEXT);
}

static void test_suggest(void **state)
{
	const char *s[4];
	int n;

	(void)state;
	n = mb_bench_suggest("bpf-nop", s, 4);
	assert_true(n >= 1);
	assert_string_equal(s[0], "bpf-noop");
	n = mb_bench_suggest("count", s, 4);
	assert_true(n >= 2);
	assert_int_equal(mb_bench_suggest("zzzzzzzzzzzzzzzzzzz", s, 4), 0);
}

/* The one shape of a refused value, with and without a value and a reason. */
static void test_error_shape(void **state)
{
	char buf[128];

	(void)state;
	assert_int_equal(mb_opt_error(buf, sizeof(buf), "nr_entries", "0", "1..10", NULL), -EINVAL);
	assert_string_equal(buf, "--nr_entries 0: must be 1..10");
	mb_opt_error(buf, sizeof(buf), "nr_entries", "3", ">= 4", "one key per producer");
	assert_string_equal(buf, "--nr_entries 3: must be >= 4 (one key per producer)");
	mb_opt_error(buf, sizeof(buf), "keys_file", NULL, "a non-empty string", NULL);
	assert_string_equal(buf, "--keys_file: must be a non-empty string");
	/* Truncated, never overrun. */
	mb_opt_error(buf, 8, "nr_entries", "0", "1..10", NULL);
	assert_string_equal(buf, "--nr_en");
}

static const struct mb_opt *bench_opt(const char *bench, const char *name)
{
	const struct mb_bench *b = mb_bench_find(bench);
	int i;

	assert_non_null(b);
	i = mb_opt_find(b->opts, name);
	assert_true(i >= 0);
	return &b->opts[i];
}

/* --nr_entries: one name, type and help stem everywhere; each family's range as declared. */
static void test_shared_nr_entries(void **state)
{
	const char *benches[] = { "map-lookup", "bpf-hashmap-lookup", "bloom-lookup",
				  "hashmap-with-bloom", "lpm-trie-lookup", "map-mem" };
	char msg[128];
	void *args = calloc(1, 4096);

	(void)state;
	assert_non_null(args);
	assert_true(mb_bench_find("bloom-lookup")->args_size <= 4096);
	assert_true(mb_bench_find("lpm-trie-lookup")->args_size <= 4096);
	for (size_t i = 0; i < sizeof(benches) / sizeof(*benches); i++) {
		const struct mb_opt *o = bench_opt(benches[i], "nr_entries");

		assert_int_equal(o->type, MB_OPT_U32);
		assert_string_equal(o->metavar, "N");
		assert_true(!strncmp(o->help, "Entries in the map: ", 20));
	}
	assert_true(bench_opt("bloom-lookup", "nr_entries")->max == MB_MAP_ENTRIES_MAX);
	assert_true(bench_opt("lpm-trie-lookup", "nr_entries")->max == LPM_MAX_ENTRIES);
	assert_true(bench_opt("map-lookup", "nr_entries")->max == 1u << 30);
	assert_true(bench_opt("map-mem", "nr_entries")->min == 0);
	assert_int_equal(mb_opt_apply(bench_opt("lpm-trie-lookup", "nr_entries"), args,
				      "100000001", msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--nr_entries 100000001: must be 1..100000000");
	assert_int_equal(mb_opt_apply(bench_opt("bloom-lookup", "nr_entries"), args, "4294967295",
				      msg, sizeof(msg)), 0);
	free(args);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_apply),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_error_shape),
		cmocka_unit_test(test_shared_nr_entries),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_global_defaults),
		cmocka_unit_test(test_suggest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
