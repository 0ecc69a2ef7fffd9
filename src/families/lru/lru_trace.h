/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Key traces for the LRU quality benches: generated (seq, uniform or zipf over a key range,
 * seeded) or read from a file, with their unique keys counted, and mapped so that several tasks
 * replay the same access pattern on disjoint keys.
 */
#ifndef MB_LRU_TRACE_H
#define MB_LRU_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "maps/keys.h"

struct mb_trace {
	uint64_t *keys;		/* the accesses, in order */
	size_t n;
	size_t unique;		/* distinct keys */
	uint64_t max_key;
	bool dense;		/* keys were renumbered 0..unique-1 (first appearance order) */
	uint64_t stride;	/* task t's key = key + t * stride (set by mb_trace_for_tasks) */
};

/*
 * @n accesses drawn from @dist over the keys [0, @key_range): with zipf, key k is the rank
 * (0 the most frequent, probability proportional to 1/(k+1)^theta); seq cycles 0, 1, ...
 * The same seed gives the same trace (xoshiro256** and the C library's exp/log).
 */
int mb_trace_generate(struct mb_trace *t, const struct mb_key_dist *dist, size_t n,
		      uint64_t key_range, uint64_t seed);
/* Take over @keys (malloc()ed, @n > 0) as a trace and count its unique keys. */
int mb_trace_adopt(struct mb_trace *t, uint64_t *keys, size_t n);
void mb_trace_free(struct mb_trace *t);

/*
 * Choose how @nr_tasks tasks replay the trace on disjoint keys below @key_limit: key + t *
 * (max_key + 1) when that fits, else renumber the keys densely first (the access pattern, and
 * so every LRU figure, is unchanged by a renumbering). Returns -ERANGE if even that does not fit.
 */
int mb_trace_for_tasks(struct mb_trace *t, uint32_t nr_tasks, uint64_t key_limit);

#endif
