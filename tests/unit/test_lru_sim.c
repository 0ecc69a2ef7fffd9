// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The perfect LRU and its hash index, against brute-force references on random traces. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "maps/keys.h"
#include "families/lru/lru_sim.h"

/* ---- brute-force LRU: an array ordered from most to least recently used ---- */

struct bf_lru {
	uint64_t *keys;
	uint32_t size, cap;
};

static int bf_find(const struct bf_lru *b, uint64_t key)
{
	for (uint32_t i = 0; i < b->size; i++)
		if (b->keys[i] == key)
			return (int)i;
	return -1;
}

static void bf_to_front(struct bf_lru *b, int i)
{
	uint64_t key = b->keys[i];

	memmove(&b->keys[1], &b->keys[0], (size_t)i * sizeof(*b->keys));
	b->keys[0] = key;
}

static bool bf_lookup(struct bf_lru *b, uint64_t key)
{
	int i = bf_find(b, key);

	if (i < 0)
		return false;
	bf_to_front(b, i);
	return true;
}

static bool bf_insert(struct bf_lru *b, uint64_t key, uint64_t *evicted)
{
	bool evict = false;

	if (bf_lookup(b, key))
		return false;
	if (b->size == b->cap) {
		*evicted = b->keys[--b->size];
		evict = true;
	}
	memmove(&b->keys[1], &b->keys[0], (size_t)b->size * sizeof(*b->keys));
	b->keys[0] = key;
	b->size++;
	return evict;
}

/* Walk the simulator's list from the head: it must equal the reference's order. */
static void check_order(const struct mb_lru_sim *s, const struct bf_lru *b)
{
	uint32_t n = s->head, prev = MB_U64_INDEX_NONE;

	assert_int_equal(s->size, b->size);
	for (uint32_t i = 0; i < b->size; i++) {
		assert_true(n != MB_U64_INDEX_NONE);
		assert_true(s->nodes[n].key == b->keys[i]);
		assert_true(s->nodes[n].prev == prev);
		prev = n;
		n = s->nodes[n].next;
	}
	assert_true(n == MB_U64_INDEX_NONE);
	assert_true(s->tail == prev);
}

static void random_trace(uint32_t cap, uint64_t key_range, int ops, uint64_t seed)
{
	struct bf_lru b = { .keys = calloc(cap, sizeof(uint64_t)), .cap = cap };
	uint64_t hits = 0, misses = 0;
	struct mb_lru_sim s;
	struct mb_rng r;

	assert_non_null(b.keys);
	assert_int_equal(mb_lru_sim_init(&s, cap), 0);
	mb_rng_seed(&r, seed);
	for (int i = 0; i < ops; i++) {
		/* Spread keys over 64 bits too: the index must not rely on small keys. */
		uint64_t key = mb_rng_below(&r, key_range) * 0x9e3779b97f4a7c15ULL;
		uint64_t ev_s = 0, ev_b = 0;
		bool a, e;

		switch (mb_rng_below(&r, 4)) {
		case 0:
			assert_true(mb_lru_sim_lookup(&s, key) == bf_lookup(&b, key));
			break;
		case 1:
			a = mb_lru_sim_insert(&s, key, &ev_s);
			e = bf_insert(&b, key, &ev_b);
			assert_true(a == e);
			if (a)
				assert_true(ev_s == ev_b);
			break;
		case 2:
			assert_true(mb_lru_sim_contains(&s, key) == (bf_find(&b, key) >= 0));
			break;
		default:
			e = bf_lookup(&b, key);
			if (!e)
				bf_insert(&b, key, &ev_b);
			a = mb_lru_sim_access(&s, key);
			assert_true(a == e);
			hits += a;
			misses += !a;
			break;
		}
		if (i % 97 == 0)
			check_order(&s, &b);
	}
	check_order(&s, &b);
	assert_int_equal(s.index.count, s.size);
	/* With a key range larger than the cache, both outcomes must have happened. */
	if (key_range > 2 * cap && ops >= 1000)
		assert_true(hits > 0 && misses > 0);
	mb_lru_sim_free(&s);
	free(b.keys);
}

static void test_lru_vs_bruteforce(void **state)
{
	static const uint32_t caps[] = { 1, 2, 3, 7, 64, 500 };
	static const uint64_t ranges[] = { 1, 4, 10, 100, 2000 };

	(void)state;
	for (size_t c = 0; c < sizeof(caps) / sizeof(*caps); c++)
		for (size_t k = 0; k < sizeof(ranges) / sizeof(*ranges); k++)
			random_trace(caps[c], ranges[k], 20000, c * 100 + k + 1);
}

/* Textbook cases with known answers. */
static void test_lru_known(void **state)
{
	struct mb_lru_sim s;
	uint64_t ev = 0;
	int misses = 0;

	(void)state;
	assert_int_equal(mb_lru_sim_init(&s, 3), 0);
	/* A cyclic scan one key larger than the cache misses every time. */
	for (int round = 0; round < 5; round++)
		for (uint64_t k = 0; k < 4; k++)
			misses += !mb_lru_sim_access(&s, k);
	assert_int_equal(misses, 20);
	mb_lru_sim_reset(&s);
	assert_int_equal(s.size, 0);
	assert_false(mb_lru_sim_contains(&s, 3));
	/* A scan that fits misses only the first time. */
	misses = 0;
	for (int round = 0; round < 5; round++)
		for (uint64_t k = 0; k < 3; k++)
			misses += !mb_lru_sim_access(&s, k);
	assert_int_equal(misses, 3);
	/* 0 1 2 cached, 2 most recent; touching 0 makes 1 the victim. */
	assert_true(mb_lru_sim_lookup(&s, 0));
	assert_true(mb_lru_sim_insert(&s, 9, &ev));
	assert_true(ev == 1);
	assert_false(mb_lru_sim_contains(&s, 1));
	/* Lookups of absent keys change nothing; re-inserting a present key evicts nothing. */
	assert_false(mb_lru_sim_lookup(&s, 1));
	assert_false(mb_lru_sim_insert(&s, 2, &ev));
	assert_int_equal(s.size, 3);
	mb_lru_sim_free(&s);
	assert_int_equal(mb_lru_sim_init(&s, 0), -EINVAL);
}

/* The index on its own: random puts and deletes against a plain array of present keys. */
static void test_index_vs_bruteforce(void **state)
{
	const uint64_t range = 3000;
	uint32_t *ref = malloc(range * sizeof(*ref));
	struct mb_u64_index ix;
	size_t present = 0;
	struct mb_rng r;

	(void)state;
	assert_non_null(ref);
	for (uint64_t k = 0; k < range; k++)
		ref[k] = MB_U64_INDEX_NONE;
	/* A growing index starting tiny, so that it rehashes several times. */
	assert_int_equal(mb_u64_index_init(&ix, 1, true), 0);
	mb_rng_seed(&r, 5);
	for (int i = 0; i < 200000; i++) {
		uint64_t k = mb_rng_below(&r, range);
		/* Keys that collide in the low bits and differ in the high ones. */
		uint64_t key = (k << 40) | (k & 7);

		if (mb_rng_below(&r, 3)) {
			uint32_t v = (uint32_t)mb_rng_below(&r, 1000);

			assert_int_equal(mb_u64_index_put(&ix, key, v),
					 ref[k] == MB_U64_INDEX_NONE ? 1 : 0);
			present += ref[k] == MB_U64_INDEX_NONE;
			ref[k] = v;
		} else {
			assert_true(mb_u64_index_del(&ix, key) == (ref[k] != MB_U64_INDEX_NONE));
			present -= ref[k] != MB_U64_INDEX_NONE;
			ref[k] = MB_U64_INDEX_NONE;
		}
		assert_int_equal(ix.count, present);
		for (uint64_t q = 0; i % 1000 == 0 && q < range; q++)
			assert_int_equal(mb_u64_index_get(&ix, (q << 40) | (q & 7)), ref[q]);
	}
	assert_int_equal(mb_u64_index_put(&ix, 1, MB_U64_INDEX_NONE), -EINVAL);
	mb_u64_index_free(&ix);
	/* A fixed index refuses to go above half full. */
	assert_int_equal(mb_u64_index_init(&ix, 4, false), 0);
	for (uint64_t k = 0; k < 8; k++)
		assert_int_equal(mb_u64_index_put(&ix, k, 0), 1);
	assert_int_equal(mb_u64_index_put(&ix, 100, 0), -ENOSPC);
	mb_u64_index_free(&ix);
	free(ref);
}

/* O(1): a million accesses over a large cache finish quickly even under sanitizers. */
static void test_lru_large(void **state)
{
	struct mb_lru_sim s;
	struct mb_zipf z;
	struct mb_rng r;
	uint64_t misses = 0;

	(void)state;
	assert_int_equal(mb_lru_sim_init(&s, 40000), 0);
	assert_int_equal(mb_zipf_init(&z, 100000, 0.99), 0);
	mb_rng_seed(&r, 3);
	for (int i = 0; i < 1000000; i++)
		misses += !mb_lru_sim_access(&s, mb_zipf_next(&z, &r));
	assert_int_equal(s.size, 40000);
	assert_true(misses > 40000 && misses < 1000000);
	mb_lru_sim_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lru_vs_bruteforce),
		cmocka_unit_test(test_lru_known),
		cmocka_unit_test(test_index_vs_bruteforce),
		cmocka_unit_test(test_lru_large),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
