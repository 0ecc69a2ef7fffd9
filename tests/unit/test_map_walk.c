// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The walks against the kernel (root only): the syscalls each counts, and the drains: key by
 * key (get_next_key, then a delete of the key seen) and by lookup-and-delete batches, which
 * see every key once and leave the map empty (a separate walk finds nothing), on a hash map,
 * a sparse one, an LPM trie and every hash type, preallocated and not.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "drivers/map_create.h"
#include "drivers/map_fill.h"
#include "drivers/map_walk.h"

#define SEEN_MAX 4096

struct seen {
	uint32_t off;		/* where the entry number sits in the key */
	uint8_t times[SEEN_MAX];
};

static int mark(const void *key, const void *value, void *ctx)
{
	struct seen *s = ctx;
	uint32_t k;

	(void)value;
	memcpy(&k, (const uint8_t *)key + s->off, 4);
	if (s->off)
		k = __builtin_bswap32(k);	/* LPM keys: the data in network order */
	if (k >= SEEN_MAX)
		return -ERANGE;
	s->times[k]++;
	return 0;
}

/* @n entries of @t (with @flags) from @cap slots, filled with entries 0..n-1, walked into @w. */
static int filled_flags(const char *t, uint32_t flags, enum mb_key_kind kind, uint32_t ks,
			uint32_t cap, uint32_t n, struct mb_walk *w)
{
	struct mb_map_desc d = { .type = mb_map_type_by_name(t), .name = "mb_t_walk",
				 .key_size = ks, .value_size = 8, .max_entries = cap,
				 .flags = flags | (kind == MB_KEY_LPM ? BPF_F_NO_PREALLOC : 0) };
	struct mb_entries e = { .type = d.type, .key_size = ks, .value_size = 8, .key = kind,
				.value = MB_VALUE_INDEX };
	struct mb_fill f = { .e = &e, .count = n, .method = MB_FILL_BATCH };
	struct bpf_map_info info = {};
	uint32_t len = sizeof(info);
	struct mb_fill_result r;

	assert_non_null(d.type);
	f.fd = mb_map_create(&d);
	assert_true(f.fd >= 0);
	if (n)
		assert_int_equal(mb_map_fill(&f, &r), 0);
	assert_int_equal(bpf_obj_get_info_by_fd(f.fd, &info, &len), 0);
	mb_walk_init(w, f.fd, &info);
	return f.fd;
}

static int filled(const char *t, enum mb_key_kind kind, uint32_t ks, uint32_t cap, uint32_t n,
		  struct mb_walk *w)
{
	return filled_flags(t, 0, kind, ks, cap, n, w);
}

static void assert_once(const struct seen *s, uint32_t n)
{
	for (uint32_t k = 0; k < SEEN_MAX; k++)
		assert_int_equal(s->times[k], k < n ? 1 : 0);
}

static uint64_t left(const struct mb_walk *w)
{
	uint64_t n = ~0ULL;

	assert_int_equal(mb_map_walk_keys(w, &n), 0);
	return n;
}

static void root_only(void)
{
	if (geteuid() != 0)
		skip();
}

/*
 * A key walk makes a start lookup, a get_next_key per entry and one more (ENOENT), and a
 * lookup per entry where asked; a batch walk of 100 entries in batches of 30 makes 4 calls.
 */
static void test_calls(void **state)
{
	uint64_t calls = 0, n;
	struct mb_walk w;
	int fd;

	(void)state;
	root_only();
	fd = filled("hash", MB_KEY_INDEX, 4, 128, 100, &w);
	w.calls = &calls;
	assert_int_equal(mb_map_walk_keys(&w, &n), 0);
	assert_int_equal(n, 100);
	assert_int_equal(calls, 1 + 101);
	calls = 0;
	w.lookup = true;
	assert_int_equal(mb_map_walk_keys(&w, &n), 0);
	assert_int_equal(calls, 1 + 101 + 100);
	calls = 0;
	w.batch = 30;
	assert_int_equal(mb_map_walk_batch(&w, &n), 0);
	assert_int_equal(n, 100);
	assert_int_equal(calls, 4);
	close(fd);
}

/* Every key once, the map empty after, in a full hash map and a sparse one. */
static void test_drain_keys_hash(void **state)
{
	static const uint32_t caps[] = { 1000, 65536 };
	struct seen *s = calloc(1, sizeof(*s));
	uint64_t n, calls;
	struct mb_walk w;
	int fd;

	(void)state;
	root_only();
	assert_non_null(s);
	for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
		memset(s, 0, sizeof(*s));
		calls = 0;
		fd = filled("hash", MB_KEY_INDEX, 4, caps[c], 1000, &w);
		w.fn = mark;
		w.ctx = s;
		w.calls = &calls;
		assert_int_equal(mb_map_drain_keys(&w, &n), 0);
		assert_int_equal(n, 1000);
		assert_once(s, 1000);
		/* A start lookup, then a get_next_key and a delete per key. */
		assert_int_equal(calls, 1 + 1 + 2 * 1000);
		w.fn = NULL;
		w.calls = NULL;
		assert_int_equal(left(&w), 0);
		/* Empty: one lookup, one get_next_key. */
		assert_int_equal(mb_map_drain_keys(&w, &n), 0);
		assert_int_equal(n, 0);
		close(fd);
	}
	free(s);
}

/* An LPM trie drains the same way; its keys' entry numbers are in the data's last bytes. */
static void test_drain_keys_lpm(void **state)
{
	struct seen *s = calloc(1, sizeof(*s));
	struct mb_walk w;
	uint64_t n;
	int fd;

	(void)state;
	root_only();
	assert_non_null(s);
	s->off = 4;
	fd = filled("lpm_trie", MB_KEY_LPM, 8, 512, 300, &w);
	w.fn = mark;
	w.ctx = s;
	assert_int_equal(mb_map_walk_keys(&w, &n), 0);
	assert_int_equal(n, 300);
	assert_once(s, 300);
	memset(s->times, 0, sizeof(s->times));
	assert_int_equal(mb_map_drain_keys(&w, &n), 0);
	assert_int_equal(n, 300);
	assert_once(s, 300);
	w.fn = NULL;
	assert_int_equal(left(&w), 0);
	close(fd);
	free(s);
}

/*
 * Lookup-and-delete batches drain every hash type, preallocated or not, LRU with a common list
 * or without (a fill from one CPU within its share): every key once, a separate walk finds
 * none left, and a drain of the empty map finds nothing.
 */
static void test_drain_batch(void **state)
{
	static const struct { const char *t; uint32_t flags; } maps[] = {
		{ "hash", 0 }, { "hash", BPF_F_NO_PREALLOC }, { "percpu_hash", 0 },
		{ "percpu_hash", BPF_F_NO_PREALLOC }, { "lru_hash", 0 },
		{ "lru_hash", BPF_F_NO_COMMON_LRU }, { "lru_percpu_hash", 0 },
		{ "lru_percpu_hash", BPF_F_NO_COMMON_LRU },
	};
	struct seen *s = calloc(1, sizeof(*s));
	struct mb_walk w;
	uint64_t n;
	int fd;

	(void)state;
	root_only();
	assert_non_null(s);
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		memset(s, 0, sizeof(*s));
		/* 4096 slots: an LRU list of each of up to 8 CPUs holds the 300. */
		fd = filled_flags(maps[i].t, maps[i].flags, MB_KEY_INDEX, 4, 4096, 300, &w);
		w.fn = mark;
		w.ctx = s;
		w.batch = 64;
		assert_int_equal(mb_map_drain_batch(&w, &n), 0);
		assert_int_equal(n, 300);
		assert_once(s, 300);
		w.fn = NULL;
		assert_int_equal(left(&w), 0);
		assert_int_equal(mb_map_drain_batch(&w, &n), 0);
		assert_int_equal(n, 0);
		close(fd);
	}
	free(s);
}

/* Arrays delete nothing: the drain fails with the kernel's error, after the first key. */
static void test_drain_keys_array(void **state)
{
	struct mb_walk w;
	uint64_t n;
	int fd;

	(void)state;
	root_only();
	fd = filled("array", MB_KEY_INDEX, 4, 10, 0, &w);
	assert_int_equal(mb_map_drain_keys(&w, &n), -EINVAL);
	assert_int_equal(n, 0);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calls),
		cmocka_unit_test(test_drain_keys_hash),
		cmocka_unit_test(test_drain_keys_lpm),
		cmocka_unit_test(test_drain_keys_array),
		cmocka_unit_test(test_drain_batch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
