// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The drivers' pure parts: keys and values of an entry, strides, chunks and shares of a fill,
 * the bucket order (and its jhash, against the kernel's where there is BPF).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "drivers/bucket_order.h"
#include "drivers/map_entries.h"

static const struct mb_map_type_info *type(const char *name)
{
	const struct mb_map_type_info *t = mb_map_type_by_name(name);

	assert_non_null(t);
	return t;
}

/* One value per possible CPU, each 8-byte aligned: the one helper everything uses. */
static void test_strides(void **state)
{
	size_t cpus = (size_t)libbpf_num_possible_cpus();
	struct mb_entries e = { .type = type("percpu_hash"), .value_size = 12 };

	(void)state;
	assert_int_equal(mb_entries_stride(&e), 16 * cpus);
	e.type = type("hash");
	assert_int_equal(mb_entries_stride(&e), 12);
	assert_int_equal(mb_map_value_bytes(NULL, 12), 12);
	assert_int_equal(mb_map_value_bytes(type("lru_percpu_hash"), 8), 8 * cpus);
	assert_int_equal(mb_map_value_bytes(type("percpu_array"), 1), 8 * cpus);
}

/* Batches: at most 1024 entries, buffers under 4 MiB, one entry at least. */
static void test_chunks(void **state)
{
	(void)state;
	assert_int_equal(mb_entries_chunk(4, 8), MB_ENTRY_CHUNK_MAX);
	assert_int_equal(mb_entries_chunk(0, 8), MB_ENTRY_CHUNK_MAX);
	assert_int_equal(mb_entries_chunk(4, 65536), MB_ENTRY_CHUNK_BYTES / (4 + 65536));
	assert_int_equal(mb_entries_chunk(512, 8u << 20), 1);
}

/* Shares of a parallel fill: contiguous, covering the range once, the rest in the last. */
static void test_shares(void **state)
{
	uint32_t first, len, next = 0;

	(void)state;
	for (uint32_t i = 0; i < 3; i++) {
		mb_entries_share(1000001, 3, i, &first, &len);
		assert_int_equal(first, next);
		assert_int_equal(len, i < 2 ? 333333 : 333335);
		next = first + len;
	}
	assert_int_equal(next, 1000001);
	mb_entries_share(7, 1, 0, &first, &len);
	assert_int_equal(first, 0);
	assert_int_equal(len, 7);
}

static void test_index_keys(void **state)
{
	struct mb_entries e = { .type = type("hash"), .key_size = 11, .key = MB_KEY_INDEX };
	uint8_t key[16], want[16] = { 0x04, 0x03, 0x02, 0x01 };
	uint32_t w;

	(void)state;
	memset(key, 0xaa, sizeof(key));
	mb_entry_key(&e, 0x01020304, key);
	w = 2654435761u;
	memcpy(want + 4, &w, 4);
	w = 2654435761u * 2;
	memcpy(want + 8, &w, 4);
	assert_memory_equal(key, want, 11);
	assert_int_equal(key[11], 0xaa);
	/* Small keys: the index cut to the key. */
	e.key_size = 2;
	mb_entry_key(&e, 0x01020304, key);
	assert_int_equal(key[0], 0x04);
	assert_int_equal(key[1], 0x03);
	assert_int_equal(key[2], 0x02);
	/* The pattern alone leaves the first word. */
	memset(key, 0xaa, sizeof(key));
	mb_index_key_pattern(key, 8);
	assert_int_equal(key[0], 0xaa);
	assert_memory_equal(key + 4, want + 4, 4);
}

/* LPM keys: the full prefix length, the entry number big-endian at the end of the data. */
static void test_lpm_keys(void **state)
{
	struct mb_entries e = { .type = type("lpm_trie"), .key_size = 8, .key = MB_KEY_LPM };
	uint8_t key[12], want4[8] = { 32, 0, 0, 0, 0x01, 0x02, 0x03, 0x04 };
	uint8_t want2[6] = { 16, 0, 0, 0, 0x03, 0x04 };

	(void)state;
	memset(key, 0xaa, sizeof(key));
	mb_entry_key(&e, 0x01020304, key);
	assert_memory_equal(key, want4, 8);
	e.key_size = 6;
	mb_entry_key(&e, 0x01020304, key);
	assert_memory_equal(key, want2, 6);
}

static void test_given_keys(void **state)
{
	uint16_t keys[3] = { 7, 8, 9 }, key = 0;
	struct mb_entries e = { .type = type("hash"), .key_size = 2, .key = MB_KEY_GIVEN,
				.keys = keys };

	(void)state;
	mb_entry_key(&e, 2, &key);
	assert_int_equal(key, 9);
}

static void test_values(void **state)
{
	size_t cpus = (size_t)libbpf_num_possible_cpus();
	struct mb_entries e = { .type = type("hash"), .value_size = 2, .value = MB_VALUE_INDEX };
	uint8_t *v = malloc(16 * cpus), given[6] = { 1, 2, 3, 4, 5, 6 };
	uint32_t fd;

	(void)state;
	assert_non_null(v);
	memset(v, 0xaa, 16 * cpus);
	mb_entry_value(&e, 0x01020304, v);
	assert_int_equal(v[0], 0x04);
	assert_int_equal(v[1], 0x03);
	assert_int_equal(v[2], 0xaa);
	/* Per-CPU: every CPU's copy, at 8-byte steps, zeros between them. */
	e.type = type("percpu_hash");
	e.value_size = 3;
	e.value = MB_VALUE_GIVEN;
	e.values = given;
	mb_entry_value(&e, 1, v);
	for (size_t c = 0; c < cpus; c++) {
		assert_memory_equal(v + 8 * c, given + 3, 3);
		assert_int_equal(v[8 * c + 3], 0);
	}
	e = (struct mb_entries){ .type = type("array_of_maps"), .value_size = 4,
				 .value = MB_VALUE_FD, .value_fd = 42 };
	mb_entry_value(&e, 5, v);
	memcpy(&fd, v, 4);
	assert_int_equal(fd, 42);
	e = (struct mb_entries){ .type = type("hash"), .value_size = 8, .value = MB_VALUE_ZERO };
	memset(v, 0xaa, 8);
	mb_entry_value(&e, 5, v);
	assert_int_equal(v[0] | v[7], 0);
	free(v);
}

/* Small keys hold few distinct entries; LPM keys count their data bytes. */
static void test_fit(void **state)
{
	struct mb_entries e = { .type = type("hash"), .key_size = 2, .key = MB_KEY_INDEX };

	(void)state;
	assert_true(mb_entries_fit(&e, 65536));
	assert_false(mb_entries_fit(&e, 65537));
	e.key_size = 4;
	assert_true(mb_entries_fit(&e, 1ULL << 40));
	e = (struct mb_entries){ .type = type("lpm_trie"), .key_size = 5, .key = MB_KEY_LPM };
	assert_true(mb_entries_fit(&e, 256));
	assert_false(mb_entries_fit(&e, 257));
	e = (struct mb_entries){ .type = type("bloom_filter"), .key = MB_KEY_NONE };
	assert_true(mb_entries_fit(&e, 1ULL << 40));
}

/* Buffers of one chunk: one entry at least, under the byte bound. */
static void test_buffers(void **state)
{
	struct mb_entries e = { .type = type("percpu_hash"), .key_size = 4, .value_size = 65536 };

	(void)state;
	assert_int_equal(mb_entries_buffers(&e, 0), 0);
	assert_true(e.chunk >= 1);
	assert_true(e.chunk == 1 || e.chunk * mb_entries_stride(&e) <= MB_ENTRY_CHUNK_BYTES);
	mb_entries_buffers_free(&e);
	assert_null(e.key_buf);
	e.value_size = 8;
	assert_int_equal(mb_entries_buffers(&e, 10), 0);
	assert_int_equal(e.chunk, 10);
	mb_entries_buffers_free(&e);
}

static void test_bucket_order(void **state)
{
	uint32_t out[5000], seen[5000] = { 0 }, last = 0;
	uint8_t key[MB_ENTRY_KEY_MAX] = {};

	(void)state;
	assert_int_equal(mb_bucket_order(1, 5000, 8, 12345, 8192, out), 0);
	mb_index_key_pattern(key, 8);
	for (int i = 0; i < 5000; i++) {
		uint32_t group;

		assert_true(out[i] >= 1 && out[i] <= 5000);
		seen[out[i] - 1]++;
		memcpy(key, &out[i], 4);
		group = (mb_jhash(key, 8, 12345) & 8191) >> 6;
		assert_true(group >= last);
		last = group;
	}
	for (int i = 0; i < 5000; i++)
		assert_int_equal(seen[i], 1);
	assert_int_equal(mb_bucket_order(0, 10, 8, 0, 1000, out), -EINVAL);
}

/*
 * mb_jhash must put keys in the buckets the kernel does. A zero-seed map walks its keys in
 * bucket order (get_next_key goes bucket by bucket): the buckets must come out sorted.
 */
static void check_kernel_order(uint32_t key_size)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_ZERO_SEED);
	const uint32_t n = 2000, nbuckets = 2048;
	uint8_t key[64] = {}, next[64];
	uint64_t val = 0;
	uint32_t last = 0, seen = 0;
	int fd = bpf_map_create(BPF_MAP_TYPE_HASH, "mb_test_jhash", key_size, 8, n, &opts);

	if (fd < 0) {
		print_message("no BPF here (%s): jhash not checked against the kernel\n",
			      strerror(errno));
		return;
	}
	mb_index_key_pattern(key, key_size);
	for (uint32_t i = 0; i < n; i++) {
		memcpy(key, &i, 4);
		assert_int_equal(bpf_map_update_elem(fd, key, &val, BPF_NOEXIST), 0);
	}
	for (void *prev = NULL; !bpf_map_get_next_key(fd, prev, next); prev = key) {
		uint32_t b = mb_jhash(next, key_size, 0) & (nbuckets - 1);

		if (b < last)
			fail_msg("key size %u: bucket %u after %u: mb_jhash differs from the kernel's",
				 key_size, b, last);
		last = b;
		memcpy(key, next, key_size);
		seen++;
	}
	assert_int_equal(seen, n);
	close(fd);
}

static void test_jhash_kernel(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();
	check_kernel_order(4);
	check_kernel_order(8);
	check_kernel_order(5);
	check_kernel_order(13);
	check_kernel_order(64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strides),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_index_keys),
		cmocka_unit_test(test_lpm_keys),
		cmocka_unit_test(test_given_keys),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_buffers),
		cmocka_unit_test(test_bucket_order),
		cmocka_unit_test(test_jhash_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
