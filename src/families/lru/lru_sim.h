/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A perfect LRU cache of 64-bit keys, O(1) per operation: a hash index from key to node and a
 * doubly linked recency list of nodes (indices into one array, no per-key allocation). It is
 * the reference the BPF LRU maps are measured against (lru-dist, lru-loss). Also the hash
 * index on its own, used as a key set (unique keys) and a key-to-id map (dense key remapping).
 */
#ifndef MB_LRU_SIM_H
#define MB_LRU_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MB_U64_INDEX_NONE UINT32_MAX	/* "no value": never stored */

/* Open addressing with linear probing; deletion by backward shift (no tombstones). */
struct mb_u64_index {
	uint64_t *keys;
	uint32_t *vals;		/* MB_U64_INDEX_NONE marks an empty slot */
	size_t mask;		/* slots - 1 (a power of two) */
	size_t count;
	bool grow;		/* double when half full; otherwise fixed (sized at init) */
};

/* Room for @expected keys at a load factor of at most 1/2. */
int mb_u64_index_init(struct mb_u64_index *ix, size_t expected, bool grow);
void mb_u64_index_free(struct mb_u64_index *ix);
/* The value of @key, or MB_U64_INDEX_NONE. */
uint32_t mb_u64_index_get(const struct mb_u64_index *ix, uint64_t key);
/*
 * Set @key to @val (< MB_U64_INDEX_NONE). Returns 1 if the key was added, 0 if it was there
 * (its value is replaced), -ENOSPC when a fixed index is half full, -ENOMEM.
 */
int mb_u64_index_put(struct mb_u64_index *ix, uint64_t key, uint32_t val);
/* Remove @key; returns whether it was there. */
bool mb_u64_index_del(struct mb_u64_index *ix, uint64_t key);

struct mb_lru_node {
	uint64_t key;
	uint32_t prev, next;	/* towards the head (most recent) / the tail */
};

struct mb_lru_sim {
	uint32_t capacity;
	uint32_t size;
	uint32_t head, tail;	/* most / least recently used node, or MB_U64_INDEX_NONE */
	struct mb_lru_node *nodes;	/* [capacity] */
	struct mb_u64_index index;	/* key -> node */
};

int mb_lru_sim_init(struct mb_lru_sim *s, uint32_t capacity);
void mb_lru_sim_free(struct mb_lru_sim *s);
/* Forget every key (keeps the memory). */
void mb_lru_sim_reset(struct mb_lru_sim *s);

/* Whether @key is cached; does not change the recency order. */
bool mb_lru_sim_contains(const struct mb_lru_sim *s, uint64_t key);
/* Look @key up: a hit makes it the most recently used; a miss changes nothing. */
bool mb_lru_sim_lookup(struct mb_lru_sim *s, uint64_t key);
/*
 * Make @key the most recently used, inserting it if absent. Inserting into a full cache evicts
 * the least recently used key: returns true and stores it in @evicted (may be NULL).
 */
bool mb_lru_sim_insert(struct mb_lru_sim *s, uint64_t key, uint64_t *evicted);
/* A cache access: lookup, and insert on a miss. Returns true on a hit. */
bool mb_lru_sim_access(struct mb_lru_sim *s, uint64_t key);

#endif
