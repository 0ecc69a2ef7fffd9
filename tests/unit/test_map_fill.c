// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The drivers against the kernel (root only): a map made from a description, filled, checked
 * and emptied by each method, walked three ways and counted.
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

#include "drivers/map_create.h"
#include "drivers/map_fill.h"
#include "drivers/map_walk.h"
#include "util/cpuset.h"

static const struct mb_map_type_info *type(const char *name)
{
	const struct mb_map_type_info *t = mb_map_type_by_name(name);

	assert_non_null(t);
	return t;
}

static int make(const char *t, uint32_t ks, uint32_t vs, uint32_t n, uint32_t flags)
{
	struct mb_map_desc d = { .type = type(t), .name = "mb_t_fill", .key_size = ks,
				 .value_size = vs, .max_entries = n, .flags = flags };
	int fd = mb_map_create(&d);

	assert_true(fd >= 0);
	return fd;
}

static uint64_t count_of(int fd)
{
	struct bpf_map_info info = {};
	uint32_t len = sizeof(info);
	uint64_t n = ~0ULL;

	assert_int_equal(bpf_obj_get_info_by_fd(fd, &info, &len), 0);
	assert_int_equal(mb_map_count_entries(fd, &info, &n), 0);
	return n;
}

static void root_only(void)
{
	if (geteuid() != 0)
		skip();
}

/* Creation: the kernel's refusal as -errno, the map as described. */
static void test_create(void **state)
{
	struct mb_map_desc d = { .type = type("hash"), .name = "mb_t_fill", .key_size = 0,
				 .value_size = 8, .max_entries = 10 };
	struct bpf_map_info info = {};
	uint32_t len = sizeof(info);
	int fd;

	(void)state;
	root_only();
	assert_int_equal(mb_map_create(&d), -EINVAL);
	d = (struct mb_map_desc){ .type = type("bloom_filter"), .name = "mb_t_fill",
				  .value_size = 8, .max_entries = 100, .map_extra = 5 };
	fd = mb_map_create(&d);
	assert_true(fd >= 0);
	assert_int_equal(bpf_obj_get_info_by_fd(fd, &info, &len), 0);
	assert_int_equal(info.map_extra, 5);
	close(fd);
}

/* Fill, refuse present keys, check, empty, find them absent: by each method. */
static void fill_cycle(enum mb_fill_method m)
{
	struct mb_entries e = { .type = type("hash"), .key_size = 8, .value_size = 8,
				.key = MB_KEY_INDEX, .value = MB_VALUE_ZERO };
	int fd = make("hash", 8, 8, 6000, 0);
	struct mb_fill f = { .fd = fd, .e = &e, .first = 10, .count = 5000, .method = m };
	struct mb_fill_result r;

	assert_int_equal(mb_map_fill(&f, &r), 0);
	assert_int_equal(r.failed, 0);
	assert_int_equal(r.method, m);
	assert_int_equal(count_of(fd), 5000);
	if (m != MB_FILL_BATCH) {
		/* A batch is BPF_ANY: only the others refuse what is there. */
		f.noexist = true;
		assert_int_equal(mb_map_fill(&f, &r), 0);
		assert_int_equal(r.failed, 5000);
	}
	f.method = m == MB_FILL_BATCH ? MB_FILL_SINGLE : m;
	assert_int_equal(mb_map_check(&f, &r), 0);
	assert_int_equal(r.failed, 0);
	f.first = 0;
	f.method = m;
	/* Entries 0..9 were never there. */
	assert_int_equal(mb_map_empty(&f, &r), 0);
	assert_int_equal(r.failed, 10);
	assert_int_equal(count_of(fd), 10);
	close(fd);
}

static void test_methods(void **state)
{
	(void)state;
	root_only();
	fill_cycle(MB_FILL_KERNEL);
	fill_cycle(MB_FILL_BATCH);
	fill_cycle(MB_FILL_SINGLE);
}

/* A large fill on every online CPU, in bucket order: every key there once. */
static void test_parallel_bucket(void **state)
{
	struct mb_entries e = { .type = type("hash"), .key_size = 4, .value_size = 8,
				.key = MB_KEY_INDEX, .value = MB_VALUE_ZERO };
	struct mb_cpuset online;
	struct mb_fill f = { .e = &e, .count = 300000, .method = MB_FILL_KERNEL,
			     .order = MB_ORDER_BUCKET, .noexist = true, .cpus = &online };
	struct mb_fill_result r;

	(void)state;
	root_only();
	assert_int_equal(mb_cpuset_online(&online), 0);
	f.fd = make("hash", 4, 8, 300000, 0);
	assert_int_equal(mb_map_fill(&f, &r), 0);
	assert_int_equal(r.order, MB_ORDER_BUCKET);
	assert_int_equal(r.failed, 0);
	assert_int_equal(count_of(f.fd), 300000);
	f.order = MB_ORDER_KEY;
	assert_int_equal(mb_map_check(&f, &r), 0);
	assert_int_equal(r.failed, 0);
	close(f.fd);
}

/* Inner maps filled through their map-in-map, with one filler for all. */
static void test_inner_maps(void **state)
{
	struct mb_entries e = { .type = type("lru_hash"), .key_size = 4, .value_size = 8,
				.key = MB_KEY_INDEX, .value = MB_VALUE_ZERO };
	int in[2], outer;
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	struct mb_fill f = { .e = &e, .outer = true, .count = 1000, .method = MB_FILL_KERNEL };
	struct mb_fill_result r;

	(void)state;
	root_only();
	for (uint32_t i = 0; i < 2; i++)
		in[i] = make("lru_hash", 4, 8, 4000, 0);
	opts.inner_map_fd = (__u32)in[0];
	outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "mb_t_outer", 4, 4, 2, &opts);
	assert_true(outer >= 0);
	for (uint32_t i = 0; i < 2; i++)
		assert_int_equal(bpf_map_update_elem(outer, &i, &in[i], BPF_ANY), 0);
	f.fd = outer;
	f.filler = mb_filler_open(&f, MB_FILL_OPS(MB_FILL_OP_FILL) |
				      MB_FILL_OPS(MB_FILL_OP_CHECK));
	assert_non_null(f.filler);
	f.inner_key = 1;
	assert_int_equal(mb_map_fill(&f, &r), 0);
	assert_int_equal(count_of(in[0]), 0);
	assert_int_equal(count_of(in[1]), 1000);
	assert_int_equal(mb_map_check(&f, &r), 0);
	assert_int_equal(r.failed, 0);
	/* An operation the filler was not loaded for. */
	assert_int_equal(mb_map_empty(&f, &r), -EINVAL);
	mb_filler_close(f.filler);
	close(outer);
	close(in[0]);
	close(in[1]);
}

/* The bloom filter: given values pushed in the kernel, each one then "maybe" there. */
static void test_bloom(void **state)
{
	uint64_t vals[500];
	struct mb_entries e = { .type = type("bloom_filter"), .value_size = 8, .key = MB_KEY_NONE,
				.value = MB_VALUE_GIVEN, .values = vals };
	struct mb_fill f = { .e = &e, .count = 500, .method = MB_FILL_KERNEL };
	struct mb_fill_result r;

	(void)state;
	root_only();
	for (uint64_t i = 0; i < 500; i++)
		vals[i] = i * 0x9e3779b97f4a7c15ULL;
	f.fd = make("bloom_filter", 0, 8, 500, 0);
	assert_int_equal(mb_map_fill(&f, &r), 0);
	assert_int_equal(r.failed, 0);
	for (int i = 0; i < 500; i++)
		assert_int_equal(bpf_map_lookup_elem(f.fd, NULL, &vals[i]), 0);
	/* Key by key from user space, the same. */
	f.method = MB_FILL_BATCH;
	assert_int_equal(mb_map_fill(&f, &r), 0);
	assert_int_equal(r.method, MB_FILL_SINGLE);
	assert_int_equal(mb_map_empty(&f, &r), -EOPNOTSUPP);
	close(f.fd);
}

/* Given keys, in the kernel and in batches; a part of the range the filler holds. */
static void test_given(void **state)
{
	uint64_t keys[300];
	struct mb_entries e = { .type = type("hash"), .key_size = 8, .value_size = 4,
				.key = MB_KEY_GIVEN, .value = MB_VALUE_ZERO, .keys = keys };
	struct mb_fill f = { .e = &e, .count = 300, .method = MB_FILL_KERNEL };
	struct mb_fill_result r;

	(void)state;
	root_only();
	for (uint64_t i = 0; i < 300; i++)
		keys[i] = i << 40;
	f.fd = make("hash", 8, 4, 300, 0);
	f.filler = mb_filler_open(&f, MB_FILL_OPS(MB_FILL_OP_FILL) | MB_FILL_OPS(MB_FILL_OP_EMPTY));
	assert_non_null(f.filler);
	assert_int_equal(mb_map_fill(&f, &r), 0);
	assert_int_equal(count_of(f.fd), 300);
	f.first = 100;
	f.count = 50;
	assert_int_equal(mb_map_empty(&f, &r), 0);
	assert_int_equal(r.failed, 0);
	assert_int_equal(count_of(f.fd), 250);
	f.count = 250;	/* beyond what the filler holds */
	assert_int_equal(mb_map_empty(&f, &r), -ERANGE);
	mb_filler_close(f.filler);
	f.filler = NULL;
	f.method = MB_FILL_BATCH;
	f.count = 200;
	assert_int_equal(mb_map_empty(&f, &r), 0);
	assert_int_equal(r.failed, 50);
	assert_int_equal(count_of(f.fd), 100);
	close(f.fd);
}

/* Per-CPU values from user space: every CPU's copy; LPM keys; an absent key in a batch. */
static void test_percpu_lpm(void **state)
{
	size_t cpus = (size_t)libbpf_num_possible_cpus();
	struct mb_entries e = { .type = type("percpu_hash"), .key_size = 4, .value_size = 4,
				.key = MB_KEY_INDEX, .value = MB_VALUE_INDEX };
	struct mb_fill f = { .e = &e, .count = 100, .method = MB_FILL_BATCH, .chunk = 7 };
	struct mb_fill_result r;
	uint8_t key[8];
	uint64_t *v = calloc(cpus, 8);

	(void)state;
	root_only();
	f.fd = make("percpu_hash", 4, 4, 100, 0);
	assert_int_equal(mb_map_fill(&f, &r), 0);
	key[0] = 42;
	memset(key + 1, 0, 3);
	assert_int_equal(bpf_map_lookup_elem(f.fd, key, v), 0);
	for (size_t c = 0; c < cpus; c++)
		assert_int_equal(v[c], 42);
	close(f.fd);
	free(v);
	e = (struct mb_entries){ .type = type("lpm_trie"), .key_size = 8, .value_size = 4,
				 .key = MB_KEY_LPM, .value = MB_VALUE_INDEX };
	f.fd = make("lpm_trie", 8, 4, 100, BPF_F_NO_PREALLOC);
	assert_int_equal(mb_map_fill(&f, &r), 0);
	assert_int_equal(count_of(f.fd), 100);
	mb_entry_key(&e, 50, key);
	assert_int_equal(bpf_map_delete_elem(f.fd, key), 0);
	assert_int_equal(mb_map_empty(&f, &r), 0);
	assert_int_equal(r.failed, 1);
	assert_int_equal(count_of(f.fd), 0);
	close(f.fd);
}

static bool always(void *ctx)
{
	(void)ctx;
	return true;
}

static void test_stop(void **state)
{
	struct mb_entries e = { .type = type("hash"), .key_size = 4, .value_size = 8,
				.key = MB_KEY_INDEX, .value = MB_VALUE_ZERO };
	struct mb_fill f = { .e = &e, .count = 100, .method = MB_FILL_BATCH, .stop = always };
	struct mb_fill_result r;

	(void)state;
	root_only();
	f.fd = make("hash", 4, 8, 100, 0);
	assert_int_equal(mb_map_fill(&f, &r), -EINTR);
	f.method = MB_FILL_KERNEL;
	assert_int_equal(mb_map_fill(&f, &r), -EINTR);
	assert_int_equal(count_of(f.fd), 0);
	close(f.fd);
}

struct sum {
	uint64_t keys, values;
};

static int add(const void *key, const void *value, void *ctx)
{
	struct sum *s = ctx;
	uint32_t k;
	uint64_t v;

	memcpy(&k, key, 4);
	s->keys += k;
	if (value) {
		memcpy(&v, value, 8);
		s->values += v;
	}
	return 0;
}

/* Three walks of keys 0..99 with values i: each sees every entry once; the drain empties. */
static void test_walks(void **state)
{
	struct mb_entries e = { .type = type("hash"), .key_size = 4, .value_size = 8,
				.key = MB_KEY_INDEX, .value = MB_VALUE_INDEX };
	struct mb_fill f = { .e = &e, .count = 100, .method = MB_FILL_BATCH };
	struct bpf_map_info info = {};
	uint32_t len = sizeof(info);
	struct mb_fill_result r;
	struct sum s = { 0 };
	struct mb_walk w;
	uint64_t n;

	(void)state;
	root_only();
	f.fd = make("hash", 4, 8, 100, 0);
	assert_int_equal(mb_map_fill(&f, &r), 0);
	assert_int_equal(bpf_obj_get_info_by_fd(f.fd, &info, &len), 0);
	mb_walk_init(&w, f.fd, &info);
	w.fn = add;
	w.ctx = &s;
	w.lookup = true;
	assert_int_equal(mb_map_walk_keys(&w, &n), 0);
	assert_int_equal(n, 100);
	assert_int_equal(s.keys, 4950);
	assert_int_equal(s.values, 4950);
	memset(&s, 0, sizeof(s));
	w.batch = 7;
	assert_int_equal(mb_map_walk_batch(&w, &n), 0);
	assert_int_equal(n, 100);
	assert_int_equal(s.values, 4950);
	memset(&s, 0, sizeof(s));
	assert_int_equal(mb_map_drain_batch(&w, &n), 0);
	assert_int_equal(n, 100);
	assert_int_equal(s.keys, 4950);
	assert_int_equal(count_of(f.fd), 0);
	close(f.fd);
}

/* Entries present, not the capacity: the defect was dividing memlock by max_entries. */
static void test_count_entries(void **state)
{
	LIBBPF_OPTS(bpf_map_create_opts, np, .map_flags = BPF_F_NO_PREALLOC);
	struct { uint32_t plen; uint8_t a[4]; } k = { 32, { 10, 0, 0, 1 } };
	uint64_t v = 1;
	int fd;

	(void)state;
	if (geteuid() != 0)
		skip();
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "mb_t_cnt", 4, 8, 100, &np);
	assert_true(fd >= 0);
	assert_int_equal(count_of(fd), 0);
	for (uint32_t i = 0; i < 7; i++)
		assert_int_equal(bpf_map_update_elem(fd, &i, &v, BPF_ANY), 0);
	assert_int_equal(count_of(fd), 7);
	/* The walk's start key itself present: still every key once. */
	k.plen = 0xffffffff;
	assert_int_equal(bpf_map_update_elem(fd, &k.plen, &v, BPF_ANY), 0);
	assert_int_equal(count_of(fd), 8);
	k.plen = 32;
	close(fd);
	/* A duplicate prefix replaces the entry: two inserts, one entry. */
	fd = bpf_map_create(BPF_MAP_TYPE_LPM_TRIE, "mb_t_cnt", 8, 8, 100, &np);
	assert_true(fd >= 0);
	assert_int_equal(bpf_map_update_elem(fd, &k, &v, BPF_ANY), 0);
	assert_int_equal(bpf_map_update_elem(fd, &k, &v, BPF_ANY), 0);
	assert_int_equal(count_of(fd), 1);
	close(fd);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "mb_t_cnt", 4, 8, 50, NULL);
	assert_true(fd >= 0);
	assert_int_equal(count_of(fd), 50);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create),
		cmocka_unit_test(test_methods),
		cmocka_unit_test(test_parallel_bucket),
		cmocka_unit_test(test_inner_maps),
		cmocka_unit_test(test_bloom),
		cmocka_unit_test(test_given),
		cmocka_unit_test(test_percpu_lpm),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_walks),
		cmocka_unit_test(test_count_entries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
