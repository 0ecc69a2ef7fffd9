/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* map-mem internals: how one map type is laid out, created, filled and emptied from user space. */
#ifndef MB_BENCHS_MAP_MEM_H
#define MB_BENCHS_MAP_MEM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "maps/maps.h"
#include "drivers/map_fill.h"

struct mb_json;
struct mb_text_style;

#define MM_LPM_MAX_DATA		256	/* bytes of an LPM trie key after its prefix length */

/* How keys and values of one map type look, and the buffers that carry them. */
struct mm_layout {
	const struct mb_map_type_info *t;
	uint32_t flags;
	int inner_fd;		/* map-in-map: the inner map every slot points to */
	/*
	 * Key and value sizes as the kernel sees them (lpm_trie 4 + data, bloom_filter no key;
	 * per-CPU values per CPU), what the fill inserts, the buffers of one batch.
	 */
	struct mb_entries e;
	/*
	 * Types known by their recipe only (map_mem_other.c): the description to create them
	 * from (BTF, a kernel value type), why their rows are not filled, and the size they
	 * take: fixed (storage of cgroups: 0; struct_ops: 1) or at most max_cap (0: any).
	 */
	const struct mb_map_desc *desc;
	const char *fill_why;
	bool fixed;
	uint32_t fixed_entries;
	uint32_t max_cap;
};

/* The size a map of @l's type is created with when @asked is: rounded, capped or fixed. */
uint32_t mm_layout_size(const struct mm_layout *l, uint32_t asked);

/*
 * Sizes and flags of @t from the options: arrays take 4-byte index keys, map-in-map 4-byte fd
 * values, lpm_trie @key_size data bytes after its prefix length (and BPF_F_NO_PREALLOC), the
 * bloom filter no key; @flags keeps only what the type takes.
 */
void mm_layout_sizes(struct mm_layout *l, const struct mb_map_type_info *t, uint32_t key_size,
		     uint32_t value_size, uint32_t flags, int inner_fd);
/*
 * The same, and allocates and touches the buffers, so that filling later allocates nothing
 * in user space. 0 or -errno.
 */
int mm_layout_init(struct mm_layout *l, const struct mb_map_type_info *t, uint32_t key_size,
		   uint32_t value_size, uint32_t flags, int inner_fd);
void mm_layout_free(struct mm_layout *l);

/*
 * Whether the per-CPU values of a per-CPU map are in its cgroup's charge: only those allocated
 * on insert (no_prealloc); false for other maps.
 */
bool mm_percpu_charged(const struct mm_layout *l);
/*
 * Bytes of per-CPU values the map asks the per-CPU allocator for (computed, not measured):
 * one 8-byte aligned value per possible CPU for every slot (preallocated) or entry present
 * (no_prealloc). NAN for maps without per-CPU values.
 */
double mm_percpu_values_bytes(const struct mm_layout *l, uint32_t max_entries, uint64_t entries);

/*
 * Streaming map types (ringbuf, user_ringbuf, perf_event_array): why fill and delete do not
 * apply to them ("not applicable: ..."), NULL for the other types.
 */
const char *mm_fill_reason(const struct mb_map_type_info *t);
/* A ring buffer's size: a power of two multiple of the page size, up to 2^26 bytes. */
bool mm_ring_size_ok(uint32_t bytes);
/* The smallest valid ring size of at least @bytes (at most 2^26). */
uint32_t mm_ring_size(uint32_t bytes);

/* Create the map: an fd or -errno. */
int mm_create(const struct mm_layout *l, uint32_t max_entries);
/*
 * A fill or an empty (mb_map_fill, mb_map_empty) of keys 0..nr-1, in batches where the type
 * has them. Between batches @stop() may end it with -EINTR.
 */
struct mb_fill mm_request(struct mm_layout *l, int fd, uint32_t nr, bool (*stop)(void *ctx));
/* Entries in the map (by iteration): LRU maps may have evicted some. */
int mm_count(struct mm_layout *l, int fd, uint64_t *n, bool (*stop)(void *ctx));

extern const struct mb_text_style mm_text;

/* The label of the row beside a storage row: a hash map keyed by the owners' ids. */
#define MM_HASH_ROW	"hash (by owner id)"

/*
 * The same tables live, while map-mem measures: it passes one of these to mb_run_partial()
 * for a type's header, then "skipped" or its rows one by one, then its note; the legend at
 * the end. mm_text's partial hook renders them.
 */
enum mm_news_kind { MM_NEWS_HEADER, MM_NEWS_SKIPPED, MM_NEWS_ROW, MM_NEWS_NOTE, MM_NEWS_LEGEND };

struct mm_news {
	enum mm_news_kind kind;
	const char *type;		/* header, row, note: the map type */
	const struct mb_json *tj;	/* header, note: the type's footprint object */
	const char *why;		/* skipped */
	const struct mb_json *row;	/* row */
	bool percpu;			/* row: the type is per-CPU */
};

#endif
