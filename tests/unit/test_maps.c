// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "maps/maps.h"

static void test_types(void **state)
{
	char names[512];

	(void)state;
	assert_int_equal(mb_map_type_by_name("lru_percpu_hash")->type, BPF_MAP_TYPE_LRU_PERCPU_HASH);
	assert_true(mb_map_type_by_name("percpu_array")->percpu);
	assert_true(mb_map_type_by_name("array")->array);
	assert_true(mb_map_type_by_name("hash_of_maps")->map_in_map);
	assert_null(mb_map_type_by_name("tree"));
	assert_string_equal(mb_map_type_by_type(BPF_MAP_TYPE_LPM_TRIE)->name, "lpm_trie");
	/* Streaming maps: ring buffers size their ring in bytes, the perf event array is slots. */
	assert_true(mb_map_type_by_name("ringbuf")->ring);
	assert_true(mb_map_type_by_name("user_ringbuf")->stream);
	assert_int_equal(mb_map_type_by_name("user_ringbuf")->type, BPF_MAP_TYPE_USER_RINGBUF);
	assert_true(mb_map_type_by_name("perf_event_array")->stream);
	assert_false(mb_map_type_by_name("perf_event_array")->ring);
	assert_false(mb_map_type_by_name("hash")->stream);
	mb_map_type_names(names, sizeof(names));
	assert_non_null(strstr(names, "hash, percpu_hash, lru_hash"));
}

/* The local storage types: by name and number, apart from the table the benches walk. */
static void test_storage_types(void **state)
{
	static const char *const names[] = { "task_storage", "sk_storage", "cgrp_storage",
					      "inode_storage" };
	const struct mb_map_type_info *t;
	char all[512];

	(void)state;
	mb_map_type_names(all, sizeof(all));
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		t = mb_storage_type_by_name(names[i]);
		assert_non_null(t);
		assert_true(t->local_storage);
		assert_int_equal(t->flags_needed, BPF_F_NO_PREALLOC);
		assert_ptr_equal(mb_map_type_by_type(t->type), t);
		assert_null(mb_map_type_by_name(names[i]));
		assert_null(strstr(all, names[i]));
	}
	assert_int_equal(mb_storage_type_by_name("cgrp_storage")->type, 32);
	assert_int_equal(mb_storage_type_by_name("task_storage")->type, BPF_MAP_TYPE_TASK_STORAGE);
	assert_int_equal(mb_storage_type_by_name("sk_storage")->type, BPF_MAP_TYPE_SK_STORAGE);
	assert_int_equal(mb_storage_type_by_name("inode_storage")->type,
			 BPF_MAP_TYPE_INODE_STORAGE);
	assert_null(mb_storage_type_by_name("hash"));
	for (int i = 0; mb_map_types[i].name; i++)
		assert_false(mb_map_types[i].local_storage);
}

/* What the kernel asks of a local storage map, said before it refuses. */
static void test_storage_attrs(void **state)
{
	const struct mb_map_type_info *task = mb_storage_type_by_name("task_storage");
	const struct mb_map_type_info *sk = mb_storage_type_by_name("sk_storage");
	const uint32_t np = BPF_F_NO_PREALLOC;

	(void)state;
	assert_null(mb_storage_attrs_refused(task, 4, 64, 0, np));
	assert_null(mb_storage_attrs_refused(sk, 4, 1, 0, np | BPF_F_CLONE));
	assert_non_null(strstr(mb_storage_attrs_refused(task, 8, 64, 0, np), "key_size"));
	assert_non_null(strstr(mb_storage_attrs_refused(task, 4, 0, 0, np), "value_size"));
	assert_non_null(strstr(mb_storage_attrs_refused(task, 4, 8, 10, np), "max_entries"));
	assert_non_null(strstr(mb_storage_attrs_refused(task, 4, 8, 0, 0), "no_prealloc"));
	assert_non_null(strstr(mb_storage_attrs_refused(task, 4, 8, 0, np | BPF_F_CLONE),
			       "only no_prealloc"));
	/* Other types: nothing to say here. */
	assert_null(mb_storage_attrs_refused(mb_map_type_by_name("hash"), 8, 8, 0, 0));
	assert_null(mb_storage_attrs_refused(NULL, 8, 8, 0, 0));
}

static void expect_flags(const char *s, uint32_t want, const char *fmt)
{
	const char *why;
	uint32_t v = 0;
	char buf[128];

	assert_int_equal(mb_map_flags_parse(s, &v, &why), 0);
	assert_int_equal(v, want);
	mb_map_flags_format(v, buf, sizeof(buf));
	assert_string_equal(buf, fmt);
}

static void test_flags(void **state)
{
	const char *why;
	uint32_t v;

	(void)state;
	expect_flags("0", 0, "0");
	expect_flags("0x40", BPF_F_ZERO_SEED, "zero_seed");
	expect_flags("1", BPF_F_NO_PREALLOC, "no_prealloc");
	expect_flags("no_prealloc|zero_seed", BPF_F_NO_PREALLOC | BPF_F_ZERO_SEED,
		     "no_prealloc|zero_seed");
	expect_flags("no_common_lru,zero_seed", BPF_F_NO_COMMON_LRU | BPF_F_ZERO_SEED,
		     "no_common_lru|zero_seed");
	expect_flags("0x80000000", 0x80000000u, "0x80000000");
	assert_int_equal(mb_map_flags_parse("prealloc", &v, &why), -EINVAL);
	assert_int_equal(mb_map_flags_parse("no_prealloc|", &v, &why), -EINVAL);
	assert_int_equal(mb_map_flags_parse("|no_prealloc", &v, &why), -EINVAL);
	assert_int_equal(mb_map_flags_parse("0x100000000", &v, &why), -EINVAL);
	assert_int_equal(mb_map_flags_parse("", &v, &why), -EINVAL);
}

static void test_memlock_bad_fd(void **state)
{
	uint64_t v;

	(void)state;
	assert_true(mb_map_memlock(-1, &v) < 0);
	/* stdin is not a map: no memlock line. */
	assert_int_equal(mb_map_memlock(0, &v), -ENOENT);
}

/* The kernel's own limits, found by the probe (root only: it creates maps). */
static void test_probe(void **state)
{
	struct mb_map_refusal r;

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(mb_map_probe_create(BPF_MAP_TYPE_HASH, 4, 8, 0, &r), 0);
	assert_int_equal(mb_map_probe_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 0, &r), 0);
	/* Kernels differ (MAX_BPF_STACK once, KMALLOC_MAX_SIZE now): a sane range. */
	assert_true(mb_map_probe_create(BPF_MAP_TYPE_HASH, 1u << 26, 8, 0, &r) < 0);
	assert_string_equal(r.what, "key_size");
	assert_int_equal(r.min, 1);
	assert_true(r.max >= 512 && r.max < 1u << 26);
	assert_int_equal(mb_map_probe_create(BPF_MAP_TYPE_HASH, r.max, 8, 0, &r), 0);
	assert_true(mb_map_probe_create(BPF_MAP_TYPE_ARRAY, 8, 8, 0, &r) < 0);
	assert_string_equal(r.what, "key_size");
	assert_int_equal(r.min, 4);
	assert_int_equal(r.max, 4);
	assert_true(mb_map_probe_create(BPF_MAP_TYPE_PERCPU_HASH, 4, 40000, 0, &r) < 0);
	assert_string_equal(r.what, "value_size");
	assert_int_equal(r.max, 32768);
	assert_true(mb_map_probe_create(BPF_MAP_TYPE_HASH, 4, 8, BPF_F_NO_COMMON_LRU, &r) < 0);
	assert_string_equal(r.what, "map_flags");
}

static void test_value_bytes(void **state)
{
	(void)state;
	assert_int_equal(mb_map_value_bytes(mb_map_type_by_name("hash"), 12), 12);
	assert_int_equal(mb_map_value_bytes(mb_map_type_by_name("percpu_hash"), 12) %
				 16, 0);
}

/* A map's info as bpf_obj_get_info_by_fd fills it, for what memlock counts. */
static const char *counts(uint32_t type, uint32_t flags)
{
	struct bpf_map_info info = { .type = type, .map_flags = flags };

	return mb_memlock_counts(&info);
}

static void test_memlock_counts(void **state)
{
	(void)state;
	assert_string_equal(counts(BPF_MAP_TYPE_HASH, 0), "capacity");
	assert_string_equal(counts(BPF_MAP_TYPE_HASH, BPF_F_NO_PREALLOC), "present");
	assert_string_equal(counts(BPF_MAP_TYPE_PERCPU_HASH, BPF_F_NO_PREALLOC), "present");
	assert_string_equal(counts(BPF_MAP_TYPE_LPM_TRIE, BPF_F_NO_PREALLOC), "present");
	assert_string_equal(counts(BPF_MAP_TYPE_LRU_HASH, 0), "capacity");
	assert_string_equal(counts(BPF_MAP_TYPE_PERCPU_ARRAY, 0), "capacity");
	assert_null(counts(BPF_MAP_TYPE_RINGBUF, 0));
}

/* The estimate against the memlock the kernel (6.18) gave for two sizes of a 4 + 4 byte hash. */
static void test_htab_prealloc_bytes(void **state)
{
	const uint64_t memlock_1000 = 81488, memlock_4m = 335545424, own_struct = 1104;

	(void)state;
	assert_int_equal(mb_htab_prealloc_bytes(1000, 4, 4) + own_struct, memlock_1000);
	assert_int_equal(mb_htab_prealloc_bytes(4194304, 4, 4) + own_struct, memlock_4m);
	/* Key and value round up to 8 bytes each; buckets to a power of two. */
	assert_int_equal(mb_htab_prealloc_bytes(3, 9, 1), 3 * (48 + 16 + 8) + 4 * 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_storage_types),
		cmocka_unit_test(test_storage_attrs),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_memlock_bad_fd),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_value_bytes),
		cmocka_unit_test(test_memlock_counts),
		cmocka_unit_test(test_htab_prealloc_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
