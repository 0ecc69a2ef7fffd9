// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* map-mem: create, fill, empty and count a map of any type from user space. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "map_mem.h"

#ifndef ENOTSUPP
#define ENOTSUPP 524	/* the kernel's, for batch operations a map type lacks */
#endif

#define MM_CHUNK_MAX	1024		/* entries per batch call */
#define MM_CHUNK_BYTES	(4u << 20)	/* user buffers stay below this */
#define MM_RING_MAX	(1u << 26)	/* as map-mem's largest --max_entries */

static bool is_lpm(const struct mm_layout *l)
{
	return l->t->type == BPF_MAP_TYPE_LPM_TRIE;
}

static bool is_bloom(const struct mm_layout *l)
{
	return l->t->type == BPF_MAP_TYPE_BLOOM_FILTER;
}

bool mm_percpu_charged(const struct mm_layout *l)
{
	/*
	 * Values allocated with the map (preallocated) are made before map_create() records the
	 * map's cgroup, and bpf_map_alloc_percpu() charges the map's cgroup (the root one while
	 * unset); values allocated on insert come after, into the map's cgroup. Measured on 6.18
	 * (docs/benchmarks.md#map-mem).
	 */
	return l->t->percpu && (l->flags & BPF_F_NO_PREALLOC);
}

double mm_percpu_values_bytes(const struct mm_layout *l, uint32_t max_entries, uint64_t entries)
{
	if (!l->t->percpu)
		return NAN;
	return (double)l->stride * (double)(mm_percpu_charged(l) ? entries : max_entries);
}

const char *mm_fill_reason(const struct mb_map_type_info *t)
{
	if (!t->stream)
		return NULL;
	if (t->type == BPF_MAP_TYPE_USER_RINGBUF)
		return "not applicable: a user-space producer writes records into the mmap'd ring and BPF drains them; map updates cannot";
	if (t->ring)
		return "not applicable: BPF programs write a ring buffer's records (bpf_ringbuf_reserve, bpf_ringbuf_output); map updates cannot";
	return "not applicable: the slots take perf event fds (perf_event_open); the per-CPU perf rings behind them are perf's memory, not the map's";
}

static uint32_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (uint32_t)p : 4096;
}

bool mm_ring_size_ok(uint32_t bytes)
{
	return bytes >= page_size() && bytes <= MM_RING_MAX && !(bytes & (bytes - 1));
}

uint32_t mm_ring_size(uint32_t bytes)
{
	uint32_t v = page_size();

	while (v < bytes && v < MM_RING_MAX)
		v <<= 1;
	return v;
}

int mm_layout_init(struct mm_layout *l, const struct mb_map_type_info *t, uint32_t key_size,
		   uint32_t value_size, uint32_t flags, int inner_fd)
{
	int cpus = libbpf_num_possible_cpus();
	size_t kbytes, per;

	memset(l, 0, sizeof(*l));
	if (cpus < 0)
		return cpus;
	l->t = t;
	l->inner_fd = inner_fd;
	if (t->ring)
		l->key_size = 0;	/* ring buffers have neither key nor value */
	else if (t->array)
		l->key_size = sizeof(uint32_t);
	else if (t->type == BPF_MAP_TYPE_LPM_TRIE)
		l->key_size = sizeof(uint32_t) + (key_size < MM_LPM_MAX_DATA ? key_size :
									 MM_LPM_MAX_DATA);
	else if (t->type == BPF_MAP_TYPE_BLOOM_FILTER)
		l->key_size = 0;
	else
		l->key_size = key_size;
	/* Map-in-map values are map fds, perf_event_array's perf event fds. */
	if (t->ring)
		l->value_size = 0;
	else if (t->map_in_map || t->stream)
		l->value_size = sizeof(uint32_t);
	else
		l->value_size = value_size;
	l->flags = flags & t->flags_ok;
	if (is_lpm(l))
		l->flags |= BPF_F_NO_PREALLOC;	/* the only way the kernel makes LPM tries */
	/* User space passes per-CPU values as one 8-byte aligned slot per possible CPU. */
	l->stride = t->percpu ? ((l->value_size + 7) & ~7u) * (uint32_t)cpus : l->value_size;
	kbytes = l->key_size ? l->key_size : 1;
	per = kbytes + l->stride;
	l->chunk = (uint32_t)(MM_CHUNK_BYTES / per);
	if (l->chunk > MM_CHUNK_MAX)
		l->chunk = MM_CHUNK_MAX;
	if (l->chunk < 1)
		l->chunk = 1;
	/* Two keys at least: counting walks with a key and the next one. */
	l->keys = malloc(kbytes * (l->chunk < 2 ? 2 : l->chunk));
	l->values = malloc(l->stride ? (size_t)l->stride * l->chunk : 1);
	if (!l->keys || !l->values) {
		mm_layout_free(l);
		return -ENOMEM;
	}
	/* Touch every page now: page faults later would be charged to the measured cgroup. */
	memset(l->keys, 0, kbytes * (l->chunk < 2 ? 2 : l->chunk));
	memset(l->values, 0, l->stride ? (size_t)l->stride * l->chunk : 1);
	return 0;
}

void mm_layout_free(struct mm_layout *l)
{
	free(l->keys);
	free(l->values);
	l->keys = l->values = NULL;
}

bool mm_keys_fit(const struct mm_layout *l, uint64_t nr)
{
	uint32_t bytes = is_lpm(l) ? l->key_size - 4 : l->key_size;

	if (is_bloom(l) || bytes >= 4)
		return true;
	return nr <= 1ULL << (8 * bytes);
}

int mm_create(const struct mm_layout *l, uint32_t max_entries)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = l->flags);
	int fd;

	if (l->t->map_in_map)
		opts.inner_map_fd = (__u32)l->inner_fd;
	fd = bpf_map_create((enum bpf_map_type)l->t->type, "mb_mem", l->key_size, l->value_size,
			    max_entries, &opts);
	return fd < 0 ? -errno : fd;
}

/* Key @i: an index for arrays; for LPM tries a full-length prefix, consecutive addresses. */
static void put_key(const struct mm_layout *l, uint8_t *k, uint32_t i)
{
	memset(k, 0, l->key_size);
	if (l->t->array) {
		memcpy(k, &i, sizeof(i));
	} else if (is_lpm(l)) {
		uint32_t data = l->key_size - 4, plen = data * 8;

		memcpy(k, &plen, sizeof(plen));
		for (uint32_t b = 0; b < 4 && b < data; b++)
			k[l->key_size - 1 - b] = (uint8_t)(i >> (8 * b));
	} else {
		for (uint32_t b = 0; b < 4 && b < l->key_size; b++)
			k[b] = (uint8_t)(i >> (8 * b));
	}
}

static void put_value(const struct mm_layout *l, uint8_t *v, uint32_t i)
{
	if (l->t->map_in_map) {
		uint32_t fd = (uint32_t)l->inner_fd;

		memcpy(v, &fd, sizeof(fd));
	} else if (is_bloom(l)) {
		/* Distinct values, as a filter would hold. */
		for (uint32_t b = 0; b < 4 && b < l->value_size; b++)
			v[b] = (uint8_t)(i >> (8 * b));
	}
}

static void make_chunk(struct mm_layout *l, uint32_t start, uint32_t n, bool values)
{
	for (uint32_t j = 0; j < n; j++) {
		if (l->key_size)
			put_key(l, (uint8_t *)l->keys + (size_t)j * l->key_size, start + j);
		if (values)
			put_value(l, (uint8_t *)l->values + (size_t)j * l->stride, start + j);
	}
}

static bool batch_unsupported(int err)
{
	return err == -EINVAL || err == -EOPNOTSUPP || err == -ENOTSUPP;
}

int mm_fill(struct mm_layout *l, int fd, uint32_t nr, bool *batched, bool (*stop)(void))
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	bool batch = !is_bloom(l);	/* the bloom filter has no keys, so no batches */
	uint32_t n;

	for (uint32_t start = 0; start < nr; start += n) {
		uint32_t from = 0;

		n = nr - start < l->chunk ? nr - start : l->chunk;
		if (stop && stop())
			return -EINTR;
		make_chunk(l, start, n, true);
		if (batch) {
			__u32 count = n;
			int err;

			if (!bpf_map_update_batch(fd, l->keys, l->values, &count, &opts))
				continue;
			err = -errno;
			if (start || !batch_unsupported(err))
				return err;
			/* A type without the batch op leaves count as it was. */
			from = count < n ? count : 0;
			batch = false;
		}
		for (uint32_t j = from; j < n; j++) {
			const void *k = is_bloom(l) ? NULL : (uint8_t *)l->keys + (size_t)j * l->key_size;

			if (bpf_map_update_elem(fd, k, (uint8_t *)l->values + (size_t)j * l->stride,
						BPF_ANY))
				return -errno;
		}
	}
	*batched = batch;
	return 0;
}

/* Delete one key; a key an LRU map already evicted is not an error. */
static int delete_one(struct mm_layout *l, int fd, uint32_t j)
{
	if (!bpf_map_delete_elem(fd, (uint8_t *)l->keys + (size_t)j * l->key_size))
		return 0;
	return errno == ENOENT && l->t->lru ? 0 : -errno;
}

int mm_delete(struct mm_layout *l, int fd, uint32_t nr, bool *batched, bool (*stop)(void))
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	bool batch = true;
	uint32_t n;
	int err;

	if (is_bloom(l) || (l->t->array && !l->t->map_in_map))
		return -EOPNOTSUPP;
	for (uint32_t start = 0; start < nr; start += n) {
		uint32_t from = 0;

		n = nr - start < l->chunk ? nr - start : l->chunk;
		if (stop && stop())
			return -EINTR;
		make_chunk(l, start, n, false);
		if (batch) {
			__u32 count = n;

			if (!bpf_map_delete_batch(fd, l->keys, &count, &opts))
				continue;
			err = -errno;
			if (err == -ENOENT && l->t->lru) {
				/* An evicted key stopped the batch: the rest one by one. */
				from = count;
			} else if (!start && batch_unsupported(err) && l->t->map_in_map) {
				/*
				 * Every single delete from a map-in-map waits for an RCU grace
				 * period (~15 ms here): a million of them would take hours.
				 */
				return -EOPNOTSUPP;
			} else if (!start && batch_unsupported(err)) {
				from = count < n ? count : 0;
				batch = false;
			} else {
				return err;
			}
		}
		for (uint32_t j = from; j < n; j++) {
			err = delete_one(l, fd, j);
			if (err)
				return err;
		}
	}
	*batched = batch;
	return 0;
}

int mm_count(struct mm_layout *l, int fd, uint64_t *n, bool (*stop)(void))
{
	uint8_t *cur = l->keys, *next = (uint8_t *)l->keys + l->key_size;

	/*
	 * The walk starts from a key of all 0xff bytes rather than NULL (valgrind cannot tell
	 * that the kernel ignores a NULL key): absent, it yields the first key; present (tiny
	 * keys), it counts too.
	 */
	memset(cur, 0xff, l->key_size);
	*n = !bpf_map_lookup_elem(fd, cur, l->values);
	while (!bpf_map_get_next_key(fd, cur, next)) {
		uint8_t *t = cur;

		if (!(*n & 0xffff) && stop && stop())
			return -EINTR;
		(*n)++;
		cur = next;
		next = t;
	}
	return errno == ENOENT ? 0 : -errno;
}
