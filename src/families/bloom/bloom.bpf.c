// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Bloom filter benches: one in-kernel op loop per operation (bloom lookup, bloom update, lookup
 * of absent values, hash map lookup without and with the filter in front). User space fills
 * the filter and the hash map with drivers/map_fill.h.
 *
 * Every op reads its value from the producer's region of mb_bl_query, an mmapable array that
 * user space fills before the run: region base in mb_slots[].arg, position in the slot's
 * cursor, carried across calls and wrapped without a divide. The array lookup is inlined by the
 * verifier (about a nanosecond); it is part of every op here, as the array walk was in the
 * kernel's bench.
 */
#include "drivers/kloop.bpf.h"
#include "bloom_counters.h"

#define MB_ENOENT 2

/* Values per producer region (set before load). */
const volatile __u32 mb_bl_region_len = 1;

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

/* An array of values that user space writes through mmap (sizes set before load). */
#define BL_VALUE_ARRAY(_name)				\
struct {						\
	__uint(type, BPF_MAP_TYPE_ARRAY);		\
	__uint(map_flags, BPF_F_MMAPABLE);		\
	__uint(key_size, 4);				\
	__uint(value_size, 8);				\
	__uint(max_entries, 1);				\
} _name SEC(".maps")

/* The values each producer looks up: one region of mb_bl_region_len per slot. */
BL_VALUE_ARRAY(mb_bl_query);

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

/*
 * One loop program per bench: take the next query value, then @_op(lc, v) counts its answer
 * (a missing value is an error).
 */
#define BL_QUERY_PROG(_prog, _op)						\
static __always_inline int _prog##_cb(__u32 index, void *ctx)			\
{										\
	struct mb_loop_ctx *lc = ctx;						\
	void *v = bl_next(lc);							\
										\
	if (!v)									\
		return bl_fail(lc);						\
	_op(lc, v);								\
	return 0;								\
}										\
MB_LOOP_PROG(_prog, _prog##_cb)

/* An op that must succeed: a failure is an error. */
static __always_inline void bl_must(struct mb_loop_ctx *lc, long err)
{
	if (err)
		lc->errors++;
	else
		lc->hits++;
}

/* bloom-lookup: a value that was inserted; "absent" would be a false negative. */
static __always_inline void bl_lookup(struct mb_loop_ctx *lc, void *v)
{
	bl_must(lc, bpf_map_peek_elem(&mb_bloom, v));
}

BL_QUERY_PROG(mb_bloom_lookup, bl_lookup)

/* bloom-update: push a value that is already in (the bits are set again). */
static __always_inline void bl_update(struct mb_loop_ctx *lc, void *v)
{
	bl_must(lc, bpf_map_push_elem(&mb_bloom, v, 0));
}

BL_QUERY_PROG(mb_bloom_update, bl_update)

/* bloom-false-positive: a value never inserted; "maybe" is a false positive. */
static __always_inline void bl_fp(struct mb_loop_ctx *lc, void *v)
{
	long err = bpf_map_peek_elem(&mb_bloom, v);

	if (!err)
		lc->counter[BL_FALSE_HITS]++;
	else if (err == -MB_ENOENT)
		lc->misses++;
	else
		lc->errors++;
}

BL_QUERY_PROG(mb_bloom_fp, bl_fp)

/* hashmap-without-bloom: one hash map lookup. */
static __always_inline void bl_hash(struct mb_loop_ctx *lc, void *v)
{
	if (bpf_map_lookup_elem(&mb_bl_hash, v))
		lc->hits++;
	else
		lc->misses++;
}

BL_QUERY_PROG(mb_hash_nobloom, bl_hash)

/*
 * hashmap-with-bloom: ask the filter first; only a "maybe" pays the hash lookup. A "maybe"
 * that the hash map then misses is a false hit (and a miss).
 */
static __always_inline void bl_hash_bloom(struct mb_loop_ctx *lc, void *v)
{
	long err = bpf_map_peek_elem(&mb_bloom, v);

	if (err == -MB_ENOENT) {
		lc->misses++;
	} else if (err) {
		lc->errors++;
	} else if (bpf_map_lookup_elem(&mb_bl_hash, v)) {
		lc->hits++;
	} else {
		lc->misses++;
		lc->counter[BL_FALSE_HITS]++;
	}
}

BL_QUERY_PROG(mb_hash_bloom, bl_hash_bloom)
