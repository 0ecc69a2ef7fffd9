// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lru_sim.h"

#define NIL MB_U64_INDEX_NONE

/* A full-avalanche mix (the splitmix64 finaliser): sequential keys spread over the slots. */
static inline size_t slot_of(const struct mb_u64_index *ix, uint64_t key)
{
	key ^= key >> 30;
	key *= 0xbf58476d1ce4e5b9ULL;
	key ^= key >> 27;
	key *= 0x94d049bb133111ebULL;
	key ^= key >> 31;
	return (size_t)key & ix->mask;
}

static int index_alloc(struct mb_u64_index *ix, size_t slots)
{
	ix->keys = malloc(slots * sizeof(*ix->keys));
	ix->vals = malloc(slots * sizeof(*ix->vals));
	if (!ix->keys || !ix->vals) {
		free(ix->keys);
		free(ix->vals);
		ix->keys = NULL;
		ix->vals = NULL;
		return -ENOMEM;
	}
	memset(ix->vals, 0xff, slots * sizeof(*ix->vals));
	ix->mask = slots - 1;
	ix->count = 0;
	return 0;
}

int mb_u64_index_init(struct mb_u64_index *ix, size_t expected, bool grow)
{
	size_t slots = 16;

	memset(ix, 0, sizeof(*ix));
	if (expected > SIZE_MAX / 4)
		return -ENOMEM;
	while (slots < 2 * expected)
		slots *= 2;
	ix->grow = grow;
	return index_alloc(ix, slots);
}

void mb_u64_index_free(struct mb_u64_index *ix)
{
	free(ix->keys);
	free(ix->vals);
	memset(ix, 0, sizeof(*ix));
}

uint32_t mb_u64_index_get(const struct mb_u64_index *ix, uint64_t key)
{
	for (size_t i = slot_of(ix, key);; i = (i + 1) & ix->mask) {
		if (ix->vals[i] == NIL)
			return NIL;
		if (ix->keys[i] == key)
			return ix->vals[i];
	}
}

static int index_grow(struct mb_u64_index *ix)
{
	struct mb_u64_index old = *ix;
	size_t slots = (old.mask + 1) * 2;

	if (index_alloc(ix, slots)) {
		*ix = old;
		return -ENOMEM;
	}
	for (size_t i = 0; i <= old.mask; i++)
		if (old.vals[i] != NIL)
			mb_u64_index_put(ix, old.keys[i], old.vals[i]);
	free(old.keys);
	free(old.vals);
	return 0;
}

int mb_u64_index_put(struct mb_u64_index *ix, uint64_t key, uint32_t val)
{
	size_t i;

	if (val == NIL)
		return -EINVAL;
	for (i = slot_of(ix, key); ix->vals[i] != NIL; i = (i + 1) & ix->mask) {
		if (ix->keys[i] == key) {
			ix->vals[i] = val;
			return 0;
		}
	}
	/* Keep the load at most 1/2, so that probe sequences stay short. */
	if (2 * (ix->count + 1) > ix->mask + 1) {
		if (!ix->grow)
			return -ENOSPC;
		if (index_grow(ix))
			return -ENOMEM;
		return mb_u64_index_put(ix, key, val);
	}
	ix->keys[i] = key;
	ix->vals[i] = val;
	ix->count++;
	return 1;
}

bool mb_u64_index_del(struct mb_u64_index *ix, uint64_t key)
{
	size_t i = slot_of(ix, key), j;

	while (ix->vals[i] == NIL || ix->keys[i] != key) {
		if (ix->vals[i] == NIL)
			return false;
		i = (i + 1) & ix->mask;
	}
	/*
	 * Backward shift: move later entries of the probe run into the hole unless their home
	 * slot lies cyclically in (hole, their slot], where a lookup would no longer reach them.
	 */
	for (j = i;;) {
		size_t home;

		j = (j + 1) & ix->mask;
		if (ix->vals[j] == NIL)
			break;
		home = slot_of(ix, ix->keys[j]);
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		ix->keys[i] = ix->keys[j];
		ix->vals[i] = ix->vals[j];
		i = j;
	}
	ix->vals[i] = NIL;
	ix->count--;
	return true;
}

int mb_lru_sim_init(struct mb_lru_sim *s, uint32_t capacity)
{
	memset(s, 0, sizeof(*s));
	if (!capacity || capacity == NIL)
		return -EINVAL;
	s->nodes = calloc(capacity, sizeof(*s->nodes));
	if (!s->nodes)
		return -ENOMEM;
	if (mb_u64_index_init(&s->index, capacity, false)) {
		free(s->nodes);
		s->nodes = NULL;
		return -ENOMEM;
	}
	s->capacity = capacity;
	s->head = s->tail = NIL;
	return 0;
}

void mb_lru_sim_free(struct mb_lru_sim *s)
{
	mb_u64_index_free(&s->index);
	free(s->nodes);
	memset(s, 0, sizeof(*s));
}

void mb_lru_sim_reset(struct mb_lru_sim *s)
{
	memset(s->index.vals, 0xff, (s->index.mask + 1) * sizeof(*s->index.vals));
	s->index.count = 0;
	s->size = 0;
	s->head = s->tail = NIL;
}

static void unlink_node(struct mb_lru_sim *s, uint32_t n)
{
	struct mb_lru_node *node = &s->nodes[n];

	if (node->prev != NIL)
		s->nodes[node->prev].next = node->next;
	else
		s->head = node->next;
	if (node->next != NIL)
		s->nodes[node->next].prev = node->prev;
	else
		s->tail = node->prev;
}

static void push_head(struct mb_lru_sim *s, uint32_t n)
{
	struct mb_lru_node *node = &s->nodes[n];

	node->prev = NIL;
	node->next = s->head;
	if (s->head != NIL)
		s->nodes[s->head].prev = n;
	s->head = n;
	if (s->tail == NIL)
		s->tail = n;
}

bool mb_lru_sim_contains(const struct mb_lru_sim *s, uint64_t key)
{
	return mb_u64_index_get(&s->index, key) != NIL;
}

bool mb_lru_sim_lookup(struct mb_lru_sim *s, uint64_t key)
{
	uint32_t n = mb_u64_index_get(&s->index, key);

	if (n == NIL)
		return false;
	if (s->head != n) {
		unlink_node(s, n);
		push_head(s, n);
	}
	return true;
}

bool mb_lru_sim_insert(struct mb_lru_sim *s, uint64_t key, uint64_t *evicted)
{
	bool evict = false;
	uint32_t n;

	if (mb_lru_sim_lookup(s, key))
		return false;
	if (s->size < s->capacity) {
		n = s->size++;
	} else {
		/* Reuse the least recently used node for the new key. */
		n = s->tail;
		unlink_node(s, n);
		mb_u64_index_del(&s->index, s->nodes[n].key);
		if (evicted)
			*evicted = s->nodes[n].key;
		evict = true;
	}
	s->nodes[n].key = key;
	/* Cannot fail: the index holds at most capacity keys and was sized for them. */
	mb_u64_index_put(&s->index, key, n);
	push_head(s, n);
	return evict;
}

bool mb_lru_sim_access(struct mb_lru_sim *s, uint64_t key)
{
	if (mb_lru_sim_lookup(s, key))
		return true;
	mb_lru_sim_insert(s, key, NULL);
	return false;
}
