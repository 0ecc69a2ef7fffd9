// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "maps/maps.h"
#include "map_walk.h"


void mb_walk_init(struct mb_walk *w, int fd, const struct bpf_map_info *info)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->type = (int)info->type;
	w->key_size = info->key_size;
	w->value_bytes = mb_map_value_bytes(mb_map_type_by_type((int)info->type),
					    info->value_size);
}

/* One BPF syscall made, counted where the caller asks. */
static void count_call(const struct mb_walk *w)
{
	if (w->calls)
		(*w->calls)++;
}

static bool stopped(const struct mb_walk *w)
{
	return w->stop && w->stop(w->stop_ctx);
}

/*
 * A key the map does not hold, to start from (a NULL key would do, but valgrind cannot tell
 * that the kernel ignores it): all 0xff, or 0xfe, ... An LPM key of prefix length
 * 0xffffffff is above any trie's, and the kernel walks from the leftmost node.
 */
static int absent_key(const struct mb_walk *w, uint8_t *key, void *val)
{
	for (int b = 0xff; b > 0xfb; b--) {
		memset(key, b, w->key_size);
		if (w->type == BPF_MAP_TYPE_LPM_TRIE)
			return 0;
		count_call(w);
		if (bpf_map_lookup_elem(w->fd, key, val))
			return 0;
	}
	return -EEXIST;
}

/* One key of a key walk: looked up if asked (gone meanwhile: passed over), counted, visited. */
static int visit(const struct mb_walk *w, const void *key, void *val, uint64_t *n)
{
	if (w->lookup)
		count_call(w);
	if (w->lookup && bpf_map_lookup_elem(w->fd, key, val))
		return errno == ENOENT ? 0 : -errno;
	(*n)++;
	return w->fn ? w->fn(key, w->lookup ? val : NULL, w->ctx) : 0;
}

int mb_map_walk_keys(const struct mb_walk *w, uint64_t *n)
{
	uint8_t *buf = calloc(2, w->key_size ? w->key_size : 1), *cur = buf, *next, *t;
	void *val = malloc(w->value_bytes ? w->value_bytes : 8);
	int err;

	*n = 0;
	if (!buf || !val) {
		err = -ENOMEM;
		goto out;
	}
	if (!w->key_size) {
		err = -EOPNOTSUPP;	/* no keys: the bloom filter, rings */
		goto out;
	}
	next = cur + w->key_size;
	err = absent_key(w, cur, val);
	while (!err) {
		count_call(w);
		if (bpf_map_get_next_key(w->fd, cur, next)) {
			err = errno == ENOENT ? 0 : -errno;	/* ENOENT: the last key */
			break;
		}
		if (!(*n & 0xffff) && stopped(w))
			err = -EINTR;
		else
			err = visit(w, next, val, n);
		t = cur;
		cur = next;
		next = t;
	}
out:
	free(buf);
	free(val);
	return err;
}

static int batch_call(const struct mb_walk *w, bool drain, void *in, void *out, void *keys,
		      void *vals, __u32 *count)
{
	int ret;

	count_call(w);
	ret = drain ? bpf_map_lookup_and_delete_batch(w->fd, in, out, keys, vals, count, NULL) :
		      bpf_map_lookup_batch(w->fd, in, out, keys, vals, count, NULL);

	return ret ? -errno : 0;
}

/* The entries of one batch, to @fn. */
static int visit_batch(const struct mb_walk *w, const uint8_t *keys, const uint8_t *vals,
		       __u32 count, uint64_t *n)
{
	size_t ks = w->key_size, vb = w->value_bytes ? w->value_bytes : 1;
	int err = 0;

	*n += count;
	for (__u32 j = 0; w->fn && !err && j < count; j++)
		err = w->fn(keys + j * ks, vals + j * vb, w->ctx);
	return err;
}

/* A batch walk: a few hundred calls for a million entries instead of one per key. */
static int walk_batch(const struct mb_walk *w, bool drain, uint64_t *n)
{
	uint32_t batch = w->batch ? w->batch : MB_WALK_BATCH;
	size_t ks = w->key_size ? w->key_size : 1, token_size = ks > 8 ? ks : 8;
	uint8_t *keys = calloc(batch, ks), *token = calloc(2, token_size);
	uint8_t *vals = calloc(batch, w->value_bytes ? w->value_bytes : 1);
	bool first = true, last;
	int err = keys && vals && token ? 0 : -ENOMEM;

	*n = 0;
	while (!err) {
		__u32 count = batch;

		if (stopped(w)) {
			err = -EINTR;
			break;
		}
		err = batch_call(w, drain, first ? NULL : token, token + token_size, keys, vals,
				 &count);
		/* No batch lookup for this type. */
		if (err && err != -ENOENT && first && mb_batch_unsupported(err))
			err = -EOPNOTSUPP;
		if (err && err != -ENOENT)
			break;
		/* ENOENT: the last batch, maybe empty. */
		last = err == -ENOENT;
		err = visit_batch(w, keys, vals, count, n);
		if (err || last)
			break;
		memcpy(token, token + token_size, token_size);
		first = false;
	}
	free(keys);
	free(vals);
	free(token);
	return err;
}

int mb_map_walk_batch(const struct mb_walk *w, uint64_t *n)
{
	return walk_batch(w, false, n);
}

int mb_map_drain_batch(const struct mb_walk *w, uint64_t *n)
{
	return walk_batch(w, true, n);
}

/* Delete @key, seen by a key drain: counted and visited; gone meanwhile: passed over. */
static int drain_one(const struct mb_walk *w, const void *key, uint64_t *n)
{
	count_call(w);
	if (bpf_map_delete_elem(w->fd, key))
		return errno == ENOENT ? 0 : -errno;
	(*n)++;
	return w->fn ? w->fn(key, NULL, w->ctx) : 0;
}

int mb_map_drain_keys(const struct mb_walk *w, uint64_t *n)
{
	uint8_t *buf = calloc(2, w->key_size ? w->key_size : 1), *cur = buf, *next, *t;
	void *val = malloc(w->value_bytes ? w->value_bytes : 8);
	bool more;
	int err;

	*n = 0;
	err = buf && val ? 0 : -ENOMEM;
	if (!err && !w->key_size)
		err = -EOPNOTSUPP;
	if (err)
		goto out;
	next = cur + w->key_size;
	err = absent_key(w, next, val);
	count_call(w);
	if (err || bpf_map_get_next_key(w->fd, next, cur)) {
		err = err ? err : errno == ENOENT ? 0 : -errno;	/* ENOENT: empty */
		goto out;
	}
	do {
		count_call(w);
		more = !bpf_map_get_next_key(w->fd, cur, next);
		if (!more && errno != ENOENT) {
			err = -errno;
			break;
		}
		err = drain_one(w, cur, n);
		if (!err && !(*n & 0xffff) && stopped(w))
			err = -EINTR;
		t = cur;
		cur = next;
		next = t;
	} while (!err && more);
out:
	free(buf);
	free(val);
	return err;
}

int mb_map_count_entries(int fd, const struct bpf_map_info *info, uint64_t *n)
{
	struct mb_walk w;
	int err;

	mb_walk_init(&w, fd, info);
	switch (info->type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		/* Every slot holds a value. */
		*n = info->max_entries;
		return 0;
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
		/* The slots that hold an inner map: those a lookup finds. */
		w.lookup = true;
		return mb_map_walk_keys(&w, n);
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
	case BPF_MAP_TYPE_LPM_TRIE:
		err = mb_map_walk_batch(&w, n);
		return err == -EOPNOTSUPP ? mb_map_walk_keys(&w, n) : err;
	default:
		return -EOPNOTSUPP;
	}
}
