// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The LRU benches' pure parts on arbitrary input: the perfect LRU against an array LRU, and
 * the per-task key mapping of a trace (unique keys, disjoint tasks, pattern kept).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "families/lru/lru_sim.h"
#include "families/lru/lru_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_CAP 16

/* Byte 0: capacity; then one byte per operation: 2 bits op, 6 bits key. */
static void check_sim(const uint8_t *data, size_t size)
{
	uint32_t cap = data[0] % MAX_CAP + 1, n = 0;
	uint64_t ref[MAX_CAP], ev = 0;
	struct mb_lru_sim s;

	if (mb_lru_sim_init(&s, cap))
		abort();
	for (size_t i = 1; i < size; i++) {
		uint64_t key = (uint64_t)(data[i] & 63) << 50;	/* high bits: any key works */
		int op = data[i] >> 6, at = -1;
		bool full = n == cap;

		for (uint32_t k = 0; k < n; k++)
			if (ref[k] == key)
				at = (int)k;
		switch (op) {
		case 0:
			if (mb_lru_sim_contains(&s, key) != (at >= 0))
				abort();
			continue;
		case 1:
			if (mb_lru_sim_lookup(&s, key) != (at >= 0))
				abort();
			break;
		case 2:
			if (mb_lru_sim_access(&s, key) != (at >= 0))
				abort();
			break;
		default:
			/* A new key evicts the least recently used one iff the cache is full. */
			if (mb_lru_sim_insert(&s, key, &ev) != (at < 0 && full))
				abort();
			if (at < 0 && full && ev != ref[n - 1])
				abort();
			break;
		}
		if (at >= 0) {
			memmove(&ref[1], &ref[0], (size_t)at * sizeof(*ref));
			ref[0] = key;
		} else if (op != 1) {
			n -= full;
			memmove(&ref[1], &ref[0], (size_t)n * sizeof(*ref));
			ref[0] = key;
			n++;
		}
		if (s.size != n)
			abort();
		if (n && (s.nodes[s.head].key != ref[0] || s.nodes[s.tail].key != ref[n - 1]))
			abort();
	}
	mb_lru_sim_free(&s);
}

/* Byte 0: tasks; then 8 bytes per key. */
static void check_trace(const uint8_t *data, size_t size)
{
	uint32_t tasks = data[0] % 8 + 1;
	size_t n = (size - 1) / 8;
	uint64_t *keys, *orig;
	struct mb_trace t;

	if (!n)
		return;
	keys = malloc(n * sizeof(*keys));
	orig = malloc(n * sizeof(*orig));
	if (!keys || !orig)
		abort();
	memcpy(keys, data + 1, n * sizeof(*keys));
	memcpy(orig, keys, n * sizeof(*keys));
	if (mb_trace_adopt(&t, keys, n))
		abort();
	/* A limit as small as 2^20 makes the dense renumbering and the refusal reachable. */
	if (!mb_trace_for_tasks(&t, tasks, (data[0] & 8) ? (1ULL << 20) : (1ULL << 62) - 1)) {
		for (size_t i = 0; i < n; i++) {
			if (t.keys[i] >= t.stride)
				abort();
			for (size_t j = 0; j < n; j++)
				if ((orig[i] == orig[j]) != (t.keys[i] == t.keys[j]))
					abort();
		}
		if (t.dense && t.max_key + 1 != t.unique)
			abort();
	}
	mb_trace_free(&t);
	free(orig);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size || size > 4096)
		return 0;
	check_sim(data, size);
	check_trace(data, size);
	return 0;
}
