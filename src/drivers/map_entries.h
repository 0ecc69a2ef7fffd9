/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What a map holds, entry by entry: the key and the value of entry number i, as a fill, an
 * empty or a check (drivers/map_fill.h) makes them, and the user-space buffers of one batch.
 * Pure: the unit tests check every layout.
 */
#ifndef MB_DRIVERS_MAP_ENTRIES_H
#define MB_DRIVERS_MAP_ENTRIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "maps/maps.h"

#define MB_ENTRY_KEY_MAX	512		/* bytes of a key (= MAX_BPF_STACK) */
#define MB_ENTRY_CHUNK_MAX	1024		/* entries per batch call, by default ... */
#define MB_ENTRY_CHUNK_BYTES	(4u << 20)	/* ... and user buffers below this */

enum mb_key_kind {
	/*
	 * Index keys: the entry number in the first 4 bytes (little-endian, cut to the key size),
	 * the words after them 2654435761 * w, as the kernel's bpf-hashmap-lookup. Arrays' keys.
	 */
	MB_KEY_INDEX,
	/* LPM trie keys: the full prefix length, the entry number in the data's last 4 bytes. */
	MB_KEY_LPM,
	MB_KEY_GIVEN,	/* key i at keys + i * key_size */
	MB_KEY_NONE,	/* the bloom filter: values only */
};

enum mb_value_kind {
	MB_VALUE_ZERO,
	MB_VALUE_INDEX,	/* the entry number, little-endian, cut to the value size */
	MB_VALUE_GIVEN,	/* value i at values + i * value_size */
	MB_VALUE_FD,	/* map-in-map: every entry holds @value_fd */
};

struct mb_entries {
	const struct mb_map_type_info *type;
	uint32_t key_size;		/* as the kernel sees it; 0 with MB_KEY_NONE */
	uint32_t value_size;		/* one value (per-CPU maps: one CPU's) */
	enum mb_key_kind key;
	enum mb_value_kind value;
	const void *keys;		/* MB_KEY_GIVEN */
	const void *values;		/* MB_VALUE_GIVEN */
	int value_fd;			/* MB_VALUE_FD */
	/*
	 * Buffers of one batch, made by mb_entries_buffers() before a measurement (so that a
	 * fill then allocates nothing), or NULL: each fill makes its own.
	 */
	uint32_t chunk;
	void *key_buf, *value_buf;
};

/* Bytes of one value in user buffers: per-CPU maps take one 8-byte aligned copy per CPU. */
size_t mb_entries_stride(const struct mb_entries *e);
/* Entries per batch call: at most MB_ENTRY_CHUNK_MAX, buffers under MB_ENTRY_CHUNK_BYTES. */
uint32_t mb_entries_chunk(uint32_t key_size, size_t stride);

/* Write entry @i's key (key_size bytes) and value (mb_entries_stride() bytes). */
void mb_entry_key(const struct mb_entries *e, uint32_t i, void *key);
void mb_entry_value(const struct mb_entries *e, uint32_t i, void *value);
/* An index key: the pattern of the words after the first 4 bytes, or the whole key. */
void mb_index_key_pattern(void *key, uint32_t key_size);
void mb_index_key(void *key, uint32_t key_size, uint32_t i);

/* Whether the keys of @e hold @n distinct entries (small keys run out). */
bool mb_entries_fit(const struct mb_entries *e, uint64_t n);

/*
 * Allocate and touch the buffers of @chunk entries (0: mb_entries_chunk()), so that the page
 * faults happen now, not inside a measured fill. 0 or -ENOMEM.
 */
int mb_entries_buffers(struct mb_entries *e, uint32_t chunk);
void mb_entries_buffers_free(struct mb_entries *e);

/* Share @i of @n of @count positions, contiguous: its first position and length. */
void mb_entries_share(uint32_t count, uint32_t n, uint32_t i, uint32_t *first, uint32_t *len);

#endif
