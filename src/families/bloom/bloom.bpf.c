// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Bloom filter benches: one in-kernel op loop per operation (bloom lookup, bloom update, lookup
 * of absent values, hash map lookup without and with the filter in front) and a fill program.
 *
 * Every op reads its value from the producer's region of mb_bl_query, an mmapable array that
 * user space fills before the run: region base in mb_slots[].arg, position in the slot's
 * cursor, carried across calls and wrapped without a divide. The array lookup is inlined by the
 * verifier (about a nanosecond); it is part of every op here, as the array walk was in the
 * kernel's bench.
 */
#include "core/mb_loop.bpf.h"

#define MB_ENOENT 2

/* Values per producer region (set before load). */
const volatile __u32 mb_bl_region_len = 1;
/* Which maps the fill program writes (set before load). */
const volatile bool mb_bl_fill_bloom = false;
const volatile bool mb_bl_fill_hash = false;

/* Sizes, entries and the hash count (map_extra) are set before load. */
struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__uint(value_size, 8);
	__uint(max_entries, 1);
	__uint(map_extra, 3);
} mb_bloom SEC(".maps");

/* The value doubles as the key, as in the kernel's bench. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, 8);
	__uint(value_size, 8);
	__uint(max_entries, 1);
} mb_bl_hash SEC(".maps");

/* The inserted values, in order: read only by the fill program. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(key_size, 4);
	__uint(value_size, 8);
	__uint(max_entries, 1);
} mb_bl_vals SEC(".maps");

/* The values each producer looks up: one region of mb_bl_region_len per slot. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(key_size, 4);
	__uint(value_size, 8);
	__uint(max_entries, 1);
} mb_bl_query SEC(".maps");

static __always_inline void *bl_next(struct mb_loop_ctx *lc)
{
	__u32 idx = (__u32)(lc->arg + lc->cursor);

	if (++lc->cursor >= mb_bl_region_len)
		lc->cursor = 0;
	return bpf_map_lookup_elem(&mb_bl_query, &idx);
}

static __always_inline int bl_fail(struct mb_loop_ctx *lc)
{
	lc->errors++;
	lc->ret = MB_RET_ERROR;
	return 1;
}

/* bloom-lookup: a value that was inserted; "absent" would be a false negative. */
static __always_inline int bl_lookup_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	void *v = bl_next(lc);

	if (!v)
		return bl_fail(lc);
	if (bpf_map_peek_elem(&mb_bloom, v))
		lc->errors++;
	else
		lc->hits++;
	return 0;
}

MB_LOOP_PROG(mb_bloom_lookup, bl_lookup_cb)

/* bloom-update: push a value that is already in (the bits are set again). */
static __always_inline int bl_update_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	void *v = bl_next(lc);

	if (!v)
		return bl_fail(lc);
	if (bpf_map_push_elem(&mb_bloom, v, 0))
		lc->errors++;
	else
		lc->hits++;
	return 0;
}

MB_LOOP_PROG(mb_bloom_update, bl_update_cb)

/* bloom-false-positive: a value never inserted; "maybe" is a false positive. */
static __always_inline int bl_fp_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	void *v = bl_next(lc);
	long err;

	if (!v)
		return bl_fail(lc);
	err = bpf_map_peek_elem(&mb_bloom, v);
	if (!err)
		lc->false_hits++;
	else if (err == -MB_ENOENT)
		lc->misses++;
	else
		lc->errors++;
	return 0;
}

MB_LOOP_PROG(mb_bloom_fp, bl_fp_cb)

/* hashmap-without-bloom: one hash map lookup. */
static __always_inline int bl_hash_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	void *v = bl_next(lc);

	if (!v)
		return bl_fail(lc);
	if (bpf_map_lookup_elem(&mb_bl_hash, v))
		lc->hits++;
	else
		lc->misses++;
	return 0;
}

MB_LOOP_PROG(mb_hash_nobloom, bl_hash_cb)

/*
 * hashmap-with-bloom: ask the filter first; only a "maybe" pays the hash lookup. A "maybe"
 * that the hash map then misses is a false hit (and a miss).
 */
static __always_inline int bl_hash_bloom_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	void *v = bl_next(lc);
	long err;

	if (!v)
		return bl_fail(lc);
	err = bpf_map_peek_elem(&mb_bloom, v);
	if (err == -MB_ENOENT) {
		lc->misses++;
		return 0;
	}
	if (err) {
		lc->errors++;
		return 0;
	}
	if (bpf_map_lookup_elem(&mb_bl_hash, v)) {
		lc->hits++;
	} else {
		lc->misses++;
		lc->false_hits++;
	}
	return 0;
}

MB_LOOP_PROG(mb_hash_bloom, bl_hash_bloom_cb)

/* Insert value number cursor into the filter and/or the hash map (set-up, not measured). */
static __always_inline int bl_fill_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	__u32 idx = (__u32)lc->cursor;
	__u64 one = 1;
	void *v;

	v = bpf_map_lookup_elem(&mb_bl_vals, &idx);
	if (!v)
		return bl_fail(lc);
	if (mb_bl_fill_bloom && bpf_map_push_elem(&mb_bloom, v, 0))
		return bl_fail(lc);
	if (mb_bl_fill_hash && bpf_map_update_elem(&mb_bl_hash, v, &one, BPF_NOEXIST))
		return bl_fail(lc);
	lc->cursor++;
	lc->hits++;
	return 0;
}

MB_LOOP_PROG(mb_bloom_fill, bl_fill_cb)
