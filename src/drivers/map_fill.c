// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The one fill routine (drivers/map_fill.h): the request's dispatch, and its user-space
 * methods, a batch call or a syscall per key for each chunk of entries.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>

#include "core/run.h"
#include "map_fill.h"
#include "map_fill_kern.h"
#include "maps/maps.h"


const char *mb_fill_method_name(enum mb_fill_method m)
{
	static const char *const names[] = { "bpf-loop", "batch", "single" };

	return names[m];
}

/* The buffers of one chunk: the entries' own, or made for this call. */
struct chunk {
	uint32_t size;		/* entries */
	size_t stride;
	uint8_t *keys, *values;
	bool own;
};

static int chunk_get(const struct mb_fill *f, struct chunk *c)
{
	const struct mb_entries *e = f->e;
	size_t kbytes = e->key_size ? e->key_size : 1;

	c->stride = mb_entries_stride(e);
	c->own = !e->key_buf;
	if (!c->own) {
		c->size = f->chunk && f->chunk < e->chunk ? f->chunk : e->chunk;
		c->keys = e->key_buf;
		c->values = e->value_buf;
		return 0;
	}
	c->size = f->chunk ? f->chunk : mb_entries_chunk(e->key_size, c->stride);
	if (c->size > f->count)
		c->size = f->count;
	/* Given keys are passed as they are. */
	c->keys = malloc(e->key == MB_KEY_GIVEN ? 1 : kbytes * c->size);
	c->values = malloc(c->stride ? c->stride * c->size : 1);
	if (!c->keys || !c->values) {
		free(c->keys);
		free(c->values);
		return -ENOMEM;
	}
	return 0;
}

static void chunk_put(struct chunk *c)
{
	if (!c->own)
		return;
	free(c->keys);
	free(c->values);
}

/*
 * Entries @start.. (@n of them) of the range: given keys and values as they are where they
 * can be passed so (per-CPU values are copied to each CPU), the others made in @c.
 */
static void chunk_make(const struct mb_fill *f, struct chunk *c, uint32_t start, uint32_t n,
		       bool values, const uint8_t **keys, const uint8_t **vals)
{
	const struct mb_entries *e = f->e;
	uint32_t i0 = f->first + start;

	*keys = c->keys;
	if (e->key == MB_KEY_GIVEN)
		*keys = (const uint8_t *)e->keys + (size_t)i0 * e->key_size;
	else if (e->key != MB_KEY_NONE)
		for (uint32_t j = 0; j < n; j++)
			mb_entry_key(e, i0 + j, c->keys + (size_t)j * e->key_size);
	if (!values)
		return;
	*vals = c->values;
	if (e->value == MB_VALUE_GIVEN && c->stride == e->value_size)
		*vals = (const uint8_t *)e->values + (size_t)i0 * e->value_size;
	else
		for (uint32_t j = 0; j < n; j++)
			mb_entry_value(e, i0 + j, c->values + (size_t)j * c->stride);
}

static bool stopped(const struct mb_fill *f)
{
	return f->stop && f->stop(f->stop_ctx);
}

/*
 * An insert refused with ENOMEM may be a moment's shortage: a map that allocates on insert
 * (no_prealloc) takes its elements from per-CPU caches that an irq_work refills behind it,
 * and memory that maps freed a moment ago comes back after RCU grace periods (seen once in
 * CI: a no_prealloc per-CPU hash of 4000 entries, right after other tests' maps). A fill
 * waits and tries again, 1 us, then twice as long each time, MEM_RETRIES times in a row
 * without progress (about 0.13 s in all); a real shortage (a memory cgroup's limit) stays
 * ENOMEM.
 */
#define MEM_RETRIES	17

static bool retry_nomem(int err, int *tries)
{
	struct timespec ts;
	long us;

	if (err != -ENOMEM || *tries >= MEM_RETRIES)
		return false;
	us = 1L << (*tries)++;
	ts.tv_sec = us / 1000000;
	ts.tv_nsec = us % 1000000 * 1000;
	nanosleep(&ts, NULL);
	return true;
}

/* Entries @from..@n-1 of a chunk, key by key: a present key refused under noexist fails. */
static int update_keys(const struct mb_fill *f, const uint8_t *keys, const uint8_t *vals,
		       size_t stride, uint32_t from, uint32_t n, uint64_t *failed)
{
	uint32_t ks = f->e->key_size;
	__u64 flags = f->noexist ? BPF_NOEXIST : BPF_ANY;
	int tries = 0;

	for (uint32_t j = from; j < n; j++) {
		if (!bpf_map_update_elem(f->fd, ks ? keys + (size_t)j * ks : NULL,
					 vals + (size_t)j * stride, flags)) {
			tries = 0;
			continue;
		}
		if (retry_nomem(-errno, &tries)) {
			j--;
			continue;
		}
		if (errno != EEXIST || !f->noexist)
			return -errno;
		(*failed)++;
	}
	return 0;
}

/* A chunk's @n entries in batches, from where a batch refused with a moment's ENOMEM stopped. */
static int update_batches(const struct mb_fill *f, const struct chunk *c, const uint8_t *keys,
			  const uint8_t *vals, uint32_t n, uint32_t *done)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	size_t ks = f->e->key_size;
	int tries = 0, err;

	for (*done = 0;;) {
		__u32 count = n - *done;

		if (!bpf_map_update_batch(f->fd, keys + *done * ks, vals + *done * c->stride,
					  &count, &opts))
			return 0;
		err = -errno;
		if (count && count <= n - *done) {
			*done += count;
			tries = 0;
		}
		if (!retry_nomem(err, &tries))
			return err;
	}
}

/* What a fill, an empty or a check does with one chunk; r->method says batch or key by key. */
typedef int (*chunk_fn)(const struct mb_fill *f, const struct chunk *c, const uint8_t *keys,
			const uint8_t *vals, uint32_t start, uint32_t n, struct mb_fill_result *r);

static int each_chunk(const struct mb_fill *f, struct chunk *c, bool values, chunk_fn fn,
		      struct mb_fill_result *r)
{
	const uint8_t *keys, *vals = NULL;
	uint32_t n;
	int err = 0;

	for (uint32_t start = 0; !err && start < f->count; start += n) {
		n = f->count - start < c->size ? f->count - start : c->size;
		if (stopped(f))
			return -EINTR;
		chunk_make(f, c, start, n, values, &keys, &vals);
		err = fn(f, c, keys, vals, start, n, r);
	}
	return err;
}

static int fill_chunk(const struct mb_fill *f, const struct chunk *c, const uint8_t *keys,
		      const uint8_t *vals, uint32_t start, uint32_t n, struct mb_fill_result *r)
{
	uint32_t from = 0, done;
	int err;

	if (r->method == MB_FILL_BATCH) {
		err = update_batches(f, c, keys, vals, n, &done);
		if (!err)
			return 0;
		if (start || !mb_batch_unsupported(err))
			return err;
		/* A type without the batch op leaves count as it was. */
		from = done < n ? done : 0;
		r->method = MB_FILL_SINGLE;
	}
	return update_keys(f, keys, vals, c->stride, from, n, &r->failed);
}

static int fill_user(const struct mb_fill *f, struct chunk *c, struct mb_fill_result *r)
{
	/* The bloom filter has no keys, so no batches. */
	r->method = f->method == MB_FILL_BATCH && f->e->key != MB_KEY_NONE ? MB_FILL_BATCH :
									      MB_FILL_SINGLE;
	return each_chunk(f, c, true, fill_chunk, r);
}

/* Entries @from..@n-1 of a chunk, key by key: an absent key fails. */
static int delete_keys(const struct mb_fill *f, const uint8_t *keys, uint32_t from, uint32_t n,
		       uint64_t *failed)
{
	for (uint32_t j = from; j < n; j++) {
		if (!bpf_map_delete_elem(f->fd, keys + (size_t)j * f->e->key_size))
			continue;
		if (errno != ENOENT)
			return -errno;
		(*failed)++;
	}
	return 0;
}

/* A batch delete failed with @err after @count of @n: where to go on key by key, or -errno. */
static int delete_batch_failed(const struct mb_fill *f, int err, uint32_t start, uint32_t count,
			       uint32_t n, bool *batch)
{
	/* An absent key stopped the batch: the rest key by key, the absent one counted. */
	if (err == -ENOENT)
		return (int)count;
	if (start || !mb_batch_unsupported(err))
		return err;
	/*
	 * Every single delete from a map-in-map waits for an RCU grace period (~15 ms here):
	 * a million of them would take hours.
	 */
	if (f->e->type->map_in_map)
		return -EOPNOTSUPP;
	*batch = false;
	return count < n ? (int)count : 0;
}

static int empty_chunk(const struct mb_fill *f, const struct chunk *c, const uint8_t *keys,
		       const uint8_t *vals, uint32_t start, uint32_t n, struct mb_fill_result *r)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	bool batch = r->method == MB_FILL_BATCH;
	int from = 0;

	(void)c;
	(void)vals;
	if (batch) {
		__u32 count = n;

		if (!bpf_map_delete_batch(f->fd, keys, &count, &opts))
			return 0;
		from = delete_batch_failed(f, -errno, start, count, n, &batch);
		if (from < 0)
			return from;
		r->method = batch ? MB_FILL_BATCH : MB_FILL_SINGLE;
	}
	return delete_keys(f, keys, (uint32_t)from, n, &r->failed);
}

static int empty_user(const struct mb_fill *f, struct chunk *c, struct mb_fill_result *r)
{
	const struct mb_map_type_info *t = f->e->type;

	/* The bloom filter and arrays have no delete. */
	if (f->e->key == MB_KEY_NONE || (t->array && !t->map_in_map))
		return -EOPNOTSUPP;
	r->method = f->method;
	return each_chunk(f, c, false, empty_chunk, r);
}

/* Look every key up, key by key: an absent key fails. */
static int check_chunk(const struct mb_fill *f, const struct chunk *c, const uint8_t *keys,
		       const uint8_t *vals, uint32_t start, uint32_t n, struct mb_fill_result *r)
{
	(void)vals;
	(void)start;
	for (uint32_t j = 0; j < n; j++) {
		if (!bpf_map_lookup_elem(f->fd, keys + (size_t)j * f->e->key_size, c->values))
			continue;
		if (errno != ENOENT)
			return -errno;
		r->failed++;
	}
	return 0;
}

static int check_user(const struct mb_fill *f, struct chunk *c, struct mb_fill_result *r)
{
	if (f->e->key == MB_KEY_NONE)
		return -EOPNOTSUPP;
	r->method = MB_FILL_SINGLE;
	return each_chunk(f, c, false, check_chunk, r);
}

static int run_op(enum mb_fill_op op, const struct mb_fill *f, struct mb_fill_result *r)
{
	static int (*const user[MB_FILL_OP_NR])(const struct mb_fill *, struct chunk *,
						struct mb_fill_result *) = {
		fill_user, empty_user, check_user,
	};
	uint64_t t0 = mb_now_ns();
	struct chunk c;
	int err;

	memset(r, 0, sizeof(*r));
	r->method = f->method;
	if (!f->count)
		return 0;
	if (f->method == MB_FILL_KERNEL) {
		err = mb_filler_run(op, f, r);
	} else if (f->outer || f->order != MB_ORDER_KEY) {
		err = -EOPNOTSUPP;	/* inner maps and bucket order: in the kernel only */
	} else {
		err = chunk_get(f, &c);
		if (!err) {
			err = user[op](f, &c, r);
			chunk_put(&c);
		}
	}
	r->ns = mb_now_ns() - t0;
	return err;
}

int mb_map_fill(const struct mb_fill *f, struct mb_fill_result *r)
{
	return run_op(MB_FILL_OP_FILL, f, r);
}

int mb_map_empty(const struct mb_fill *f, struct mb_fill_result *r)
{
	return run_op(MB_FILL_OP_EMPTY, f, r);
}

int mb_map_check(const struct mb_fill *f, struct mb_fill_result *r)
{
	return run_op(MB_FILL_OP_CHECK, f, r);
}
