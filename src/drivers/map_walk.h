/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Walk a map from user space, entry by entry: with get_next_key (a lookup per key where the
 * entries' values are wanted), with lookup batches, or drain it: with lookup-and-delete
 * batches, or key by key with get_next_key and a delete. Each calls @fn per entry and counts
 * the entries (and, where asked, the syscalls it made); how many a map holds
 * (mb_map_count_entries) is one of these walks.
 */
#ifndef MB_DRIVERS_MAP_WALK_H
#define MB_DRIVERS_MAP_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bpf_map_info;

#define MB_WALK_BATCH	4096	/* entries per batch call, by default */

/* An entry: @value is NULL in a key walk without lookups. Non-zero stops the walk with it. */
typedef int (*mb_walk_fn)(const void *key, const void *value, void *ctx);

struct mb_walk {
	int fd;
	int type;		/* enum bpf_map_type */
	uint32_t key_size;
	size_t value_bytes;	/* of one value from user space (per-CPU maps: every CPU's) */
	bool lookup;		/* a key walk: look each key up, @fn gets its value */
	uint32_t batch;		/* batch walks: entries per call (0: MB_WALK_BATCH) */
	mb_walk_fn fn;		/* may be NULL: count only */
	void *ctx;
	/* Asked every 65536 entries and between batches: true ends with -EINTR. */
	bool (*stop)(void *ctx);
	void *stop_ctx;
	uint64_t *calls;	/* may be NULL: the walk adds the BPF syscalls it makes here */
};

/* A walk of @fd's map as the kernel describes it (type and sizes from @info). */
void mb_walk_init(struct mb_walk *w, int fd, const struct bpf_map_info *info);

/*
 * Walk with get_next_key from a key the map does not hold. Keys whose lookup finds them gone
 * (deleted meanwhile) are passed over. *@n: entries seen. 0 or -errno.
 */
int mb_map_walk_keys(const struct mb_walk *w, uint64_t *n);
/* Walk with BPF_MAP_LOOKUP_BATCH; -EOPNOTSUPP when the map type has none. */
int mb_map_walk_batch(const struct mb_walk *w, uint64_t *n);
/* Drain with BPF_MAP_LOOKUP_AND_DELETE_BATCH: every entry seen is gone. -EOPNOTSUPP likewise. */
int mb_map_drain_batch(const struct mb_walk *w, uint64_t *n);

/*
 * Drain key by key, the way without batches: get_next_key from the key just seen, then a
 * delete of that key (deleting it first would send the next get_next_key back to the map's
 * first key). Hash maps, LPM tries; @fn gets no value. *@n: entries deleted.
 */
int mb_map_drain_keys(const struct mb_walk *w, uint64_t *n);

/* Entries present in a map: 0, -EOPNOTSUPP (the type cannot say) or -errno. */
int mb_map_count_entries(int fd, const struct bpf_map_info *info, uint64_t *n);

#endif
