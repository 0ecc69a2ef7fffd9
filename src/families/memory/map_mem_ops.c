// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-mem: how a map of any type is laid out from the options, and its creation, fill, empty
 * and count from user space (drivers/map_create.h, map_fill.h, map_walk.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "drivers/map_create.h"
#include "drivers/map_walk.h"
#include "map_mem.h"

#define MM_RING_MAX	(1u << 26)	/* as map-mem's largest --max_entries */

bool mm_percpu_charged(const struct mm_layout *l)
{
	/*
	 * Values allocated with the map (preallocated) are made before map_create() records the
	 * map's cgroup, and bpf_map_alloc_percpu() charges the map's cgroup (the root one while
	 * unset); values allocated on insert come after, into the map's cgroup. Measured on 6.18
	 * (src/families/memory/README.md#map-mem).
	 */
	return l->t->percpu && (l->flags & BPF_F_NO_PREALLOC);
}

double mm_percpu_values_bytes(const struct mm_layout *l, uint32_t max_entries, uint64_t entries)
{
	if (!l->t->percpu)
		return NAN;
	return (double)mb_entries_stride(&l->e) *
	       (double)(mm_percpu_charged(l) ? entries : max_entries);
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

/* The key the kernel sees: arrays' 4-byte index, LPM's prefix length and data, none. */
static void layout_keys(struct mm_layout *l, uint32_t key_size)
{
	const struct mb_map_type_info *t = l->t;

	l->e.key = MB_KEY_INDEX;
	if (t->ring) {
		l->e.key = MB_KEY_NONE;	/* ring buffers have neither key nor value */
	} else if (t->array) {
		l->e.key_size = sizeof(uint32_t);
	} else if (t->type == BPF_MAP_TYPE_LPM_TRIE) {
		l->e.key = MB_KEY_LPM;
		l->e.key_size = sizeof(uint32_t) + (key_size < MM_LPM_MAX_DATA ? key_size :
									    MM_LPM_MAX_DATA);
	} else if (t->type == BPF_MAP_TYPE_BLOOM_FILTER) {
		l->e.key = MB_KEY_NONE;
	} else {
		l->e.key_size = key_size;
	}
}

void mm_layout_sizes(struct mm_layout *l, const struct mb_map_type_info *t, uint32_t key_size,
		     uint32_t value_size, uint32_t flags, int inner_fd)
{
	memset(l, 0, sizeof(*l));
	l->t = t;
	l->inner_fd = inner_fd;
	l->e.type = t;
	layout_keys(l, key_size);
	/* Map-in-map values are map fds, perf_event_array's perf event fds. */
	l->e.value_size = t->ring ? 0 : t->map_in_map || t->stream ? sizeof(uint32_t) : value_size;
	l->e.value = t->map_in_map ? MB_VALUE_FD : MB_VALUE_ZERO;
	l->e.value_fd = inner_fd;
	/* A bloom filter holds distinct values, as a filter would. */
	if (t->type == BPF_MAP_TYPE_BLOOM_FILTER)
		l->e.value = MB_VALUE_INDEX;
	l->flags = flags & t->flags_ok;
	if (t->type == BPF_MAP_TYPE_LPM_TRIE)
		l->flags |= BPF_F_NO_PREALLOC;	/* the only way the kernel makes LPM tries */
}

int mm_layout_init(struct mm_layout *l, const struct mb_map_type_info *t, uint32_t key_size,
		   uint32_t value_size, uint32_t flags, int inner_fd)
{
	mm_layout_sizes(l, t, key_size, value_size, flags, inner_fd);
	/* Buffers touched now: page faults later would be charged to the measured cgroup. */
	return mb_entries_buffers(&l->e, 0);
}

void mm_layout_free(struct mm_layout *l)
{
	mb_entries_buffers_free(&l->e);
}

int mm_create(const struct mm_layout *l, uint32_t max_entries)
{
	struct mb_map_desc d = { .type = l->t, .name = "mb_mem", .key_size = l->e.key_size,
				 .value_size = l->e.value_size, .max_entries = max_entries,
				 .flags = l->flags, .inner_fd = l->inner_fd };

	if (l->desc) {
		d = *l->desc;
		d.name = "mb_mem";
		d.max_entries = max_entries;
	}
	return mb_map_create(&d);
}

uint32_t mm_layout_size(const struct mm_layout *l, uint32_t asked)
{
	if (l->t->ring)
		return mm_ring_size(asked);
	if (l->fixed)
		return l->fixed_entries;
	return l->max_cap && asked > l->max_cap ? l->max_cap : asked;
}

struct mb_fill mm_request(struct mm_layout *l, int fd, uint32_t nr, bool (*stop)(void *ctx))
{
	return (struct mb_fill){ .fd = fd, .e = &l->e, .count = nr, .method = MB_FILL_BATCH,
				 .stop = stop };
}

int mm_count(struct mm_layout *l, int fd, uint64_t *n, bool (*stop)(void *ctx))
{
	struct mb_walk w = { .fd = fd, .type = l->t->type, .key_size = l->e.key_size,
			     .value_bytes = mb_entries_stride(&l->e), .stop = stop };

	return mb_map_walk_keys(&w, n);
}
