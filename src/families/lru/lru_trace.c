// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lru_sim.h"
#include "lru_trace.h"

int mb_trace_generate(struct mb_trace *t, const struct mb_key_dist *dist, size_t n,
		      uint64_t key_range, uint64_t seed)
{
	struct mb_keygen gen;
	uint64_t *keys;
	int err;

	memset(t, 0, sizeof(*t));
	if (!n)
		return -EINVAL;
	err = mb_keygen_init(&gen, dist, key_range, seed);
	if (err)
		return err;
	keys = malloc(n * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		keys[i] = mb_keygen_next(&gen);
	return mb_trace_adopt(t, keys, n);
}

/* Count unique keys; with @renumber, renumber them in order of first appearance. */
static int scan(struct mb_trace *t, bool renumber)
{
	struct mb_u64_index ix;
	int err = mb_u64_index_init(&ix, 1024, true);

	if (err)
		return err;
	t->unique = 0;
	t->max_key = 0;
	for (size_t i = 0; i < t->n; i++) {
		uint32_t id = mb_u64_index_get(&ix, t->keys[i]);

		if (id == MB_U64_INDEX_NONE) {
			id = (uint32_t)t->unique++;
			err = mb_u64_index_put(&ix, t->keys[i], id);
			if (err < 0)
				break;
			err = 0;
		}
		if (renumber)
			t->keys[i] = id;
		if (t->keys[i] > t->max_key)
			t->max_key = t->keys[i];
	}
	mb_u64_index_free(&ix);
	return err;
}

int mb_trace_adopt(struct mb_trace *t, uint64_t *keys, size_t n)
{
	int err;

	memset(t, 0, sizeof(*t));
	if (!n || n >= MB_U64_INDEX_NONE) {
		free(keys);
		return n ? -E2BIG : -EINVAL;
	}
	t->keys = keys;
	t->n = n;
	err = scan(t, false);
	if (err)
		mb_trace_free(t);
	return err;
}

void mb_trace_free(struct mb_trace *t)
{
	free(t->keys);
	memset(t, 0, sizeof(*t));
}

/* Whether keys 0..max_key of @nr tasks, @stride apart, all stay <= @limit. */
static bool fits(uint64_t max_key, uint64_t stride, uint32_t nr, uint64_t limit)
{
	if (max_key > limit)
		return false;
	return nr <= 1 || stride <= (limit - max_key) / (nr - 1);
}

int mb_trace_for_tasks(struct mb_trace *t, uint32_t nr_tasks, uint64_t key_limit)
{
	int err;

	if (t->max_key < UINT64_MAX && fits(t->max_key, t->max_key + 1, nr_tasks, key_limit)) {
		t->stride = t->max_key + 1;
		return 0;
	}
	if (!t->dense) {
		err = scan(t, true);
		if (err)
			return err;
		t->dense = true;
	}
	t->stride = t->unique;
	return fits(t->max_key, t->stride, nr_tasks, key_limit) ? 0 : -ERANGE;
}
