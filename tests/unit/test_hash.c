// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The hash family's planning: key ranges, streams, map sizes, the default fill order,
 * map-perf tests.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "families/hash/hash.h"
#include "families/hash/map_perf.h"
#include "families/registry.h"

/* Inserts, deletes and mixed: disjoint ranges that cover their key space exactly. */
static void check_partition(enum hash_op op, uint32_t nr, int np)
{
	struct hash_stream s[16];
	uint32_t first = op == HASH_MIXED ? nr : 0, next = first;

	hash_streams(op, nr, 0, 7, np, s);
	for (int p = 0; p < np; p++) {
		assert_int_equal(s[p].base, next);
		assert_true(s[p].range >= 1);
		assert_int_equal(s[p].start, 0);
		next += s[p].range;
		for (int q = 0; q < p; q++)
			assert_true(s[p].seed != s[q].seed);
	}
	assert_int_equal(next, first + nr);
}

static void test_ranges(void **state)
{
	struct hash_stream s[4];

	(void)state;
	for (int np = 1; np <= 16; np++) {
		check_partition(HASH_INSERT, 1000, np);
		check_partition(HASH_DELETE, 16, np);
		check_partition(HASH_MIXED, 999, np);
	}
	/* Lookups share the keys; each producer starts elsewhere. */
	hash_streams(HASH_LOOKUP, 1000, 0, 1, 4, s);
	for (int p = 0; p < 4; p++) {
		assert_int_equal(s[p].base, 0);
		assert_int_equal(s[p].range, 1000);
		assert_int_equal(s[p].start, 250 * p);
	}
	/* Misses start where the map's keys end. */
	hash_streams(HASH_MISS, 1000, 4096, 1, 2, s);
	assert_int_equal(s[1].base, 4096);
	assert_int_equal(s[1].range, 1000);
	/* Same seed, same streams: results are reproducible. */
	{
		struct hash_stream t[4];

		hash_streams(HASH_LOOKUP, 1000, 0, 1, 4, t);
		hash_streams(HASH_LOOKUP, 1000, 0, 1, 4, s);
		assert_memory_equal(s, t, sizeof(t));
	}
}

static void test_sizes(void **state)
{
	const struct mb_map_type_info *hash = mb_map_type_by_name("hash");
	const struct mb_map_type_info *lru = mb_map_type_by_name("lru_hash");

	(void)state;
	assert_int_equal(hash_need(HASH_LOOKUP, 1000, 4), 1000);
	assert_int_equal(hash_need(HASH_MIXED, 1000, 4), 1004);
	assert_int_equal(hash_need(HASH_INSERT, 1000, 4), 1000);
	assert_int_equal(hash_default_max_entries(hash, 0, 1000, 2), 1000);
	assert_int_equal(hash_default_max_entries(hash, BPF_F_NO_PREALLOC, 1000, 2), 1000);
	assert_int_equal(hash_default_max_entries(lru, 0, 1000, 2),
			 1000 + 2 * HASH_LRU_SLACK_PER_CPU);
	/* No common LRU: every possible CPU gets max / ncpus, and one must hold every key. */
	assert_int_equal(hash_default_max_entries(lru, BPF_F_NO_COMMON_LRU, 1000, 4),
			 (1000 + HASH_LRU_PERCPU_SLACK) * 4);
	assert_true(hash_lru_cpu_capacity((1000 + HASH_LRU_PERCPU_SLACK) * 4, 4) >=
		    1000 + HASH_LRU_PERCPU_SLACK);
	assert_int_equal(hash_lru_cpu_capacity(1000, 3), 333);
	/* Too large for a u32 map size. */
	assert_int_equal(hash_default_max_entries(lru, BPF_F_NO_COMMON_LRU, 1u << 30, 8), 0);
	assert_true(hash_op_wraps(HASH_LOOKUP) && hash_op_wraps(HASH_MIXED));
	assert_false(hash_op_wraps(HASH_INSERT) || hash_op_wraps(HASH_DELETE));
	assert_false(hash_op_fills(HASH_INSERT));
	assert_true(hash_op_fills(HASH_DELETE));
}

static void test_kernel_src(void **state)
{
	struct mb_key_dist seq = { MB_DIST_SEQ }, uni = { MB_DIST_UNIFORM },
			   zipf = { MB_DIST_ZIPF, 0.99 };

	(void)state;
	assert_int_equal(hash_kernel_src(HASH_LOOKUP, &seq), MB_HASH_SRC_SEQ);
	assert_int_equal(hash_kernel_src(HASH_LOOKUP, &uni), MB_HASH_SRC_RAND);
	assert_int_equal(hash_kernel_src(HASH_INSERT, &uni), MB_HASH_SRC_ARRAY);
	assert_int_equal(hash_kernel_src(HASH_UPDATE, &zipf), MB_HASH_SRC_ARRAY);
}

/* Once-through streams use every key of the range exactly once. */
static void test_once_streams(void **state)
{
	struct mb_key_dist seq = { MB_DIST_SEQ }, uni = { MB_DIST_UNIFORM },
			   zipf = { MB_DIST_ZIPF, 1.0 };
	struct hash_stream s[3];
	uint32_t out[400], seen[400];

	(void)state;
	hash_streams(HASH_DELETE, 1000, 0, 3, 3, s);
	assert_int_equal(hash_stream_len(HASH_DELETE, &s[1]), s[1].range);
	assert_int_equal(hash_stream_indices(HASH_DELETE, &s[1], &seq, out, s[1].range), 0);
	for (uint32_t i = 0; i < s[1].range; i++)
		assert_int_equal(out[i], s[1].base + i);
	assert_int_equal(hash_stream_indices(HASH_DELETE, &s[1], &uni, out, s[1].range), 0);
	memset(seen, 0, sizeof(seen));
	for (uint32_t i = 0; i < s[1].range; i++) {
		assert_true(out[i] >= s[1].base && out[i] < s[1].base + s[1].range);
		seen[out[i] - s[1].base]++;
	}
	for (uint32_t i = 0; i < s[1].range; i++)
		assert_int_equal(seen[i], 1);
	/* A shuffle, not the identity. */
	assert_true(out[0] != s[1].base || out[1] != s[1].base + 1 || out[2] != s[1].base + 2);
	assert_int_equal(hash_stream_indices(HASH_DELETE, &s[1], &zipf, out, s[1].range), -EINVAL);
	assert_int_equal(hash_stream_indices(HASH_DELETE, &s[1], &seq, out, 5), -EINVAL);
}

/* Wrapping streams: sequential from the start, uniform over the range, zipf's shape. */
static void test_wrap_streams(void **state)
{
	struct mb_key_dist seq = { MB_DIST_SEQ }, uni = { MB_DIST_UNIFORM },
			   zipf = { MB_DIST_ZIPF, 0.99 };
	const uint32_t len = HASH_STREAM_LEN, n = 100;
	uint32_t *out = malloc(sizeof(uint32_t) * len), *other = malloc(sizeof(uint32_t) * len);
	struct hash_stream s[2];
	uint32_t count[100];
	double h = 0;

	(void)state;
	assert_non_null(out);
	assert_non_null(other);
	hash_streams(HASH_MISS, n, 5000, 11, 2, s);
	assert_int_equal(hash_stream_indices(HASH_MISS, &s[1], &seq, out, len), 0);
	for (uint32_t i = 0; i < 1000; i++)
		assert_int_equal(out[i], 5000 + (s[1].start + i) % n);

	assert_int_equal(hash_stream_indices(HASH_LOOKUP, &s[0], &uni, out, len), 0);
	memset(count, 0, sizeof(count));
	for (uint32_t i = 0; i < len; i++) {
		assert_true(out[i] >= 5000 && out[i] < 5000 + n);
		count[out[i] - 5000]++;
	}
	/* len / n = 2621 per key, sigma ~51: 6 sigma. */
	for (uint32_t k = 0; k < n; k++)
		assert_true(fabs((double)count[k] - (double)len / n) < 310);

	assert_int_equal(hash_stream_indices(HASH_LOOKUP, &s[0], &zipf, out, len), 0);
	assert_int_equal(hash_stream_indices(HASH_LOOKUP, &s[1], &zipf, other, len), 0);
	/* Producers draw their own streams. */
	assert_true(memcmp(out, other, sizeof(uint32_t) * 64));
	memset(count, 0, sizeof(count));
	for (uint32_t i = 0; i < len; i++)
		count[out[i] - 5000]++;
	for (uint32_t k = 1; k <= n; k++)
		h += pow(k, -0.99);
	/* Rank r is key base + r; the first ranks' frequencies within 5 sigma. */
	for (uint32_t r = 0; r < 10; r++) {
		double p = pow(r + 1, -0.99) / h, sigma = sqrt(len * p * (1 - p));

		if (fabs(count[r] - len * p) > 5 * sigma)
			fail_msg("zipf rank %u: %u draws, %.0f expected", r, count[r], len * p);
	}
	free(out);
	free(other);
}

static void test_map_perf_tests(void **state)
{
	const char *why;
	uint32_t mask = 0;
	char buf[512];

	(void)state;
	assert_int_equal(mp_tests_parse("all", &mask, &why), 0);
	assert_int_equal(mask, MP_ALL);
	assert_int_equal(MP_ALL, 0x7ff);
	assert_int_equal(mp_tests_parse("hash_prealloc,lru_hash_lookup", &mask, &why), 0);
	assert_int_equal(mask, 1u | (1u << 10));
	assert_int_equal(mp_tests_parse("array_lookup|lpm_kmalloc", &mask, &why), 0);
	assert_int_equal(mask, (1u << 8) | (1u << 6));
	mp_tests_format(mask, buf, sizeof(buf));
	assert_string_equal(buf, "lpm_kmalloc,array_lookup");
	mp_tests_format(MP_ALL, buf, sizeof(buf));
	assert_string_equal(buf, "all");
	assert_int_equal(mp_tests_parse("hash", &mask, &why), -EINVAL);
	assert_non_null(strstr(why, "lru_hash_lookup"));
	assert_int_equal(mp_tests_parse("hash_lookup,", &mask, &why), -EINVAL);
	assert_int_equal(mp_tests_parse("", &mask, &why), -EINVAL);
	/* Map operations per event, as map_perf_test's programs do them. */
	assert_int_equal(mp_tests[MP_HASH_PREALLOC].ops_per_event, 30);
	assert_int_equal(mp_tests[MP_LRU_HASH_PREALLOC].ops_per_event, 1);
	assert_int_equal(mp_tests[MP_LPM_KMALLOC].ops_per_event, 32);
	assert_int_equal(mp_tests[MP_ARRAY_LOOKUP].ops_per_event, 64);
	assert_int_equal(mp_tests[MP_INNER_LRU_HASH_PREALLOC].ops_per_event, 2);
}

/*
 * Every bench with --fill_order fills in key order unless told otherwise: the kernel bench's
 * layout, which bucket order changes the lookup figures of (11-25 % at 10k entries).
 */
static void test_default_fill_order(void **state)
{
	char msg[512];
	int found = 0;

	(void)state;
	for (int b = 0; mb_benches[b]; b++) {
		const struct mb_bench *bench = mb_benches[b];
		int i = mb_opt_find(bench->opts, "fill_order");
		struct hash_args *a;

		if (i < 0)
			continue;
		assert_int_equal(bench->opts[i].offset, offsetof(struct hash_args, fill_order));
		a = calloc(1, bench->args_size);
		assert_non_null(a);
		/* Not zero-filled: a missing default would leave HASH_FILL_BUCKET (0). */
		memset(a, 0x5a, bench->args_size);
		a->fill_order = HASH_FILL_BUCKET;
		if (mb_opts_set_defaults(bench->opts, a, msg, sizeof(msg)))
			fail_msg("%s: bad default: %s", bench->name, msg);
		if (a->fill_order != HASH_FILL_KEY)
			fail_msg("%s: --fill_order defaults to %d, not key order", bench->name,
				 a->fill_order);
		free(a);
		found++;
	}
	/* map-lookup, the other map-* benches and bpf-hashmap-lookup. */
	assert_true(found >= 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_kernel_src),
		cmocka_unit_test(test_once_streams),
		cmocka_unit_test(test_wrap_streams),
		cmocka_unit_test(test_default_fill_order),
		cmocka_unit_test(test_map_perf_tests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
