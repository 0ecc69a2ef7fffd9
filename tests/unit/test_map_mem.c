// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* map-mem and htab-mem options, and map-mem's per-type layouts (no BPF needed). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include <linux/bpf.h>

#include "families/memory/map_mem.h"
#include "maps/maps.h"
#include "core/opts.h"
#include "families/registry.h"

static const struct mb_opt *opt_of(const char *bench, const char *name)
{
	const struct mb_bench *b = mb_bench_find(bench);
	int i;

	assert_non_null(b);
	i = mb_opt_find(b->opts, name);
	assert_true(i >= 0);
	return &b->opts[i];
}

/* Apply @arg to a scratch args buffer; the formatted value or the error message in @out. */
static int apply(const char *bench, const char *name, const char *arg, char *out, size_t len)
{
	const struct mb_opt *opt = opt_of(bench, name);
	char args[512] = { 0 };
	int err;

	assert_true(mb_bench_find(bench)->args_size <= sizeof(args));
	err = mb_opt_apply(opt, args, arg, out, len);
	if (!err)
		mb_opt_format(opt, args, out, len);
	return err;
}

static void expect_ok(const char *bench, const char *name, const char *arg, const char *fmt)
{
	char out[512];

	assert_int_equal(apply(bench, name, arg, out, sizeof(out)), 0);
	assert_string_equal(out, fmt);
}

static void expect_bad(const char *bench, const char *name, const char *arg, const char *part)
{
	char out[512];

	assert_int_equal(apply(bench, name, arg, out, sizeof(out)), -EINVAL);
	if (!strstr(out, part))
		fail_msg("message '%s' lacks '%s'", out, part);
}

static void test_map_types(void **state)
{
	(void)state;
	expect_ok("map-mem", "map_type", "all", "all");
	expect_ok("map-mem", "map_type", "hash", "hash");
	/* Printed in the table's order, whatever order was given. */
	expect_ok("map-mem", "map_type", "lpm_trie,hash,bloom_filter", "hash,lpm_trie,bloom_filter");
	/* The thirteen of maps.h's table are not all: the recipes' other types are in it. */
	expect_ok("map-mem", "map_type",
		  "hash,percpu_hash,lru_hash,lru_percpu_hash,array,percpu_array,array_of_maps,hash_of_maps,lpm_trie,bloom_filter,ringbuf,user_ringbuf,perf_event_array",
		  "hash,percpu_hash,lru_hash,lru_percpu_hash,array,percpu_array,array_of_maps,hash_of_maps,lpm_trie,bloom_filter,ringbuf,user_ringbuf,perf_event_array");
	/* Types known by their recipe: after the table's, in the recipes' (enum) order. */
	expect_ok("map-mem", "map_type", "stack,queue,hash,prog_array", "hash,prog_array,queue,stack");
	expect_ok("map-mem", "map_type", "arena,insn_array,storage", "arena,insn_array,storage");
	/* The ten non-streaming types are not all of them. */
	expect_ok("map-mem", "map_type",
		  "hash,percpu_hash,lru_hash,lru_percpu_hash,array,percpu_array,array_of_maps,hash_of_maps,lpm_trie,bloom_filter",
		  "hash,percpu_hash,lru_hash,lru_percpu_hash,array,percpu_array,array_of_maps,hash_of_maps,lpm_trie,bloom_filter");
	expect_ok("map-mem", "map_type", "user_ringbuf,ringbuf", "ringbuf,user_ringbuf");
	/* Local storage types: named, or "storage" for the four; "all" leaves them out. */
	expect_ok("map-mem", "map_type", "storage", "storage");
	expect_ok("map-mem", "map_type", "inode_storage,task_storage,sk_storage,cgrp_storage",
		  "storage");
	expect_ok("map-mem", "map_type", "sk_storage,hash,task_storage", "hash,task_storage,sk_storage");
	expect_ok("map-mem", "map_type", "storage,all", "all,storage");
	expect_ok("map-mem", "map_type", "all,cgrp_storage", "all,cgrp_storage");
	expect_bad("map-mem", "map_type", "storages", "unknown map type 'storages'");
	expect_bad("map-mem", "map_type", "tree", "--map_type tree: must be all, or names joined by ',': hash, percpu_hash");
	expect_bad("map-mem", "map_type", "hash,", "ends with ','");
	expect_bad("map-mem", "map_type", ",hash", "(an empty or overlong name)");
	expect_bad("map-mem", "map_type", "", "(empty)");
}

static void test_sizes(void **state)
{
	(void)state;
	expect_ok("map-mem", "max_entries", "10000", "10000");
	expect_ok("map-mem", "max_entries", "10k,1M", "10000,1000000");
	expect_ok("map-mem", "max_entries", "1,0x10", "1,16");
	expect_bad("map-mem", "max_entries", "0", "--max_entries 0: must be 1..67108864");
	expect_bad("map-mem", "max_entries", "100M", "(a size that is not 1..67108864)");
	expect_bad("map-mem", "max_entries", "10k,", "ends with ','");
	expect_bad("map-mem", "max_entries", "10k,,1M", "(an empty size)");
	expect_bad("map-mem", "max_entries", "ten", "--max_entries ten: must be 1..67108864");
	expect_bad("map-mem", "max_entries", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
		   "at most 16 sizes");
}

static void test_flags_and_ranges(void **state)
{
	char out[512];

	(void)state;
	expect_ok("map-mem", "map_flags", "no_prealloc", "no_prealloc");
	expect_ok("map-mem", "map_flags", "0x1", "no_prealloc");
	expect_bad("map-mem", "map_flags", "prealloc", "unknown flag name");
	assert_int_equal(apply("map-mem", "key_size", "0", out, sizeof(out)), -EINVAL);
	assert_string_equal(out, "--key_size 0: must be 1..512");
	assert_int_equal(apply("map-mem", "value_size", "65537", out, sizeof(out)), -EINVAL);
	/* htab-mem: the kernel's options and limits. */
	expect_ok("htab-mem", "use-case", "add_del_on_diff_cpu", "add_del_on_diff_cpu");
	expect_bad("htab-mem", "use-case", "delete",
		   "must be one of overwrite, batch_add_batch_del, add_del_on_diff_cpu");
	expect_ok("htab-mem", "value-size", "4096", "4096");
	assert_int_equal(apply("htab-mem", "value-size", "4097", out, sizeof(out)), -EINVAL);
	assert_string_equal(out, "--value-size 4097: must be 1..4096");
	assert_int_equal(apply("htab-mem", "value-size", "0", out, sizeof(out)), -EINVAL);
}

static void test_layouts(void **state)
{
	struct mm_layout l;

	(void)state;
	/* Arrays: 4-byte index keys whatever --key_size says. */
	assert_int_equal(mm_layout_init(&l, mb_map_type_by_name("array"), 16, 8, 0, -1), 0);
	assert_int_equal(l.e.key_size, 4);
	assert_int_equal(l.e.key, MB_KEY_INDEX);
	assert_int_equal(mb_entries_stride(&l.e), 8);
	assert_true(mb_entries_fit(&l.e, 100000000));
	mm_layout_free(&l);
	/* LPM: prefix length plus data, always BPF_F_NO_PREALLOC. */
	assert_int_equal(mm_layout_init(&l, mb_map_type_by_name("lpm_trie"), 4, 8, 0, -1), 0);
	assert_int_equal(l.e.key_size, 8);
	assert_int_equal(l.e.key, MB_KEY_LPM);
	assert_int_equal(l.flags, BPF_F_NO_PREALLOC);
	mm_layout_free(&l);
	assert_int_equal(mm_layout_init(&l, mb_map_type_by_name("lpm_trie"), 300, 8, 0, -1), 0);
	assert_int_equal(l.e.key_size, 4 + MM_LPM_MAX_DATA);
	mm_layout_free(&l);
	mm_layout_sizes(&l, mb_map_type_by_name("lpm_trie"), 1, 8, 0, -1);
	assert_true(mb_entries_fit(&l.e, 256));
	assert_false(mb_entries_fit(&l.e, 257));
	/* Per-CPU values: one 8-byte aligned slot per possible CPU in user buffers. */
	assert_int_equal(mm_layout_init(&l, mb_map_type_by_name("percpu_hash"), 4, 12, 0, -1), 0);
	assert_int_equal(l.e.value_size, 12);
	assert_true(mb_entries_stride(&l.e) >= 16 && mb_entries_stride(&l.e) % 16 == 0);
	mm_layout_free(&l);
	/* Map-in-map: 4-byte fd values; flags the type does not take are dropped. */
	assert_int_equal(mm_layout_init(&l, mb_map_type_by_name("hash_of_maps"), 4, 64,
					BPF_F_NO_PREALLOC | BPF_F_ZERO_SEED, 7), 0);
	assert_int_equal(l.e.value_size, 4);
	assert_int_equal(l.e.value, MB_VALUE_FD);
	assert_int_equal(l.e.value_fd, 7);
	assert_int_equal(l.flags, BPF_F_NO_PREALLOC);
	assert_int_equal(l.inner_fd, 7);
	mm_layout_free(&l);
	/* Bloom filter: no key, distinct values. */
	assert_int_equal(mm_layout_init(&l, mb_map_type_by_name("bloom_filter"), 4, 8, 0, -1), 0);
	assert_int_equal(l.e.key_size, 0);
	assert_int_equal(l.e.key, MB_KEY_NONE);
	assert_int_equal(l.e.value, MB_VALUE_INDEX);
	assert_true(mb_entries_fit(&l.e, 1ULL << 40));
	mm_layout_free(&l);
	/* Hash keys of 2 bytes hold 65536 distinct keys. */
	mm_layout_sizes(&l, mb_map_type_by_name("hash"), 2, 8, 0, -1);
	assert_true(mb_entries_fit(&l.e, 65536));
	assert_false(mb_entries_fit(&l.e, 65537));
	/* Big values: buffers stay small, one entry per batch at least. */
	assert_int_equal(mm_layout_init(&l, mb_map_type_by_name("hash"), 4, 65536, 0, -1), 0);
	assert_true(l.e.chunk >= 1 && (size_t)l.e.chunk * mb_entries_stride(&l.e) <= (8u << 20));
	mm_layout_free(&l);
}

/* Streaming maps: fixed sizes, a reason for the missing fill, ring sizes of whole pages. */
static void test_stream(void **state)
{
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE);
	struct mm_layout l;

	(void)state;
	assert_int_equal(mm_layout_init(&l, mb_map_type_by_name("ringbuf"), 16, 64, 0, -1), 0);
	assert_int_equal(l.e.key_size, 0);
	assert_int_equal(l.e.value_size, 0);
	mm_layout_free(&l);
	assert_int_equal(mm_layout_init(&l, mb_map_type_by_name("perf_event_array"), 16, 64,
					BPF_F_NUMA_NODE | BPF_F_RDONLY_PROG, -1), 0);
	assert_int_equal(l.e.key_size, 4);
	assert_int_equal(l.e.value_size, 4);
	assert_int_equal(l.flags, BPF_F_NUMA_NODE);
	mm_layout_free(&l);
	assert_non_null(strstr(mm_fill_reason(mb_map_type_by_name("ringbuf")), "not applicable"));
	assert_non_null(strstr(mm_fill_reason(mb_map_type_by_name("user_ringbuf")), "user-space"));
	assert_non_null(strstr(mm_fill_reason(mb_map_type_by_name("perf_event_array")),
			       "perf's memory"));
	assert_null(mm_fill_reason(mb_map_type_by_name("array")));
	assert_true(mm_ring_size_ok(page));
	assert_true(mm_ring_size_ok(1u << 20));
	assert_true(mm_ring_size_ok(1u << 26));
	assert_false(mm_ring_size_ok(1u << 27));
	assert_false(mm_ring_size_ok(page / 2));
	assert_false(mm_ring_size_ok(3 * page));
	assert_false(mm_ring_size_ok(0));
	assert_int_equal(mm_ring_size(1), page);
	assert_int_equal(mm_ring_size(page), page);
	assert_int_equal(mm_ring_size(page + 1), 2 * page);
	assert_int_equal(mm_ring_size(10000), page >= 16384 ? page : 16384);
	assert_int_equal(mm_ring_size(1u << 26), 1u << 26);
}

/* Per-CPU values: in the charge only when allocated on insert; slots or entries present. */
static void test_percpu_values(void **state)
{
	struct mm_layout l;

	(void)state;
	assert_int_equal(mm_layout_init(&l, mb_map_type_by_name("percpu_hash"), 4, 12, 0, -1), 0);
	assert_false(mm_percpu_charged(&l));
	assert_true(mm_percpu_values_bytes(&l, 1000, 10) == 1000.0 * mb_entries_stride(&l.e));
	mm_layout_free(&l);
	assert_int_equal(mm_layout_init(&l, mb_map_type_by_name("percpu_hash"), 4, 12,
					BPF_F_NO_PREALLOC, -1), 0);
	assert_true(mm_percpu_charged(&l));
	assert_true(mm_percpu_values_bytes(&l, 1000, 10) == 10.0 * mb_entries_stride(&l.e));
	mm_layout_free(&l);
	/* percpu_array takes no no_prealloc: always preallocated. */
	assert_int_equal(mm_layout_init(&l, mb_map_type_by_name("percpu_array"), 4, 8,
					BPF_F_NO_PREALLOC, -1), 0);
	assert_false(mm_percpu_charged(&l));
	mm_layout_free(&l);
	assert_int_equal(mm_layout_init(&l, mb_map_type_by_name("hash"), 4, 8, BPF_F_NO_PREALLOC,
					-1), 0);
	assert_false(mm_percpu_charged(&l));
	assert_true(isnan(mm_percpu_values_bytes(&l, 1000, 10)));
	mm_layout_free(&l);
}

/* Types made from their recipe: fixed sizes one row, capped ones at the cap, rings rounded. */
static void test_layout_size(void **state)
{
	struct mb_map_type_info ti = { .name = "x" };
	struct mm_layout l = { .t = &ti };

	(void)state;
	assert_int_equal(mm_layout_size(&l, 1000), 1000);
	l.max_cap = 256;
	assert_int_equal(mm_layout_size(&l, 1000), 256);
	assert_int_equal(mm_layout_size(&l, 100), 100);
	l.fixed = true;
	l.fixed_entries = 0;
	assert_int_equal(mm_layout_size(&l, 1000), 0);
	ti.ring = true;
	assert_int_equal(mm_layout_size(&l, 1), mm_ring_size(1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_size),
		cmocka_unit_test(test_map_types),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_flags_and_ranges),
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_percpu_values),
		cmocka_unit_test(test_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
