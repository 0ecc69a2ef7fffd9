// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Hash family: one in-kernel op loop per operation (lookup, lookup of absent keys, update,
 * insert, delete, mixed), each on the measured map directly or, for map-in-map, on this CPU's
 * inner map; and the kernel benches bpf-hashmap-lookup and bpf-hashmap-full-update. User
 * space creates the maps (sizes, type and flags from the command line), fills them with
 * drivers/map_fill.h and hands them over with bpf_map__reuse_fd; it loads only the programs a
 * run needs.
 */
#include "drivers/kloop.bpf.h"
#include "hash_shared.h"

#define MB_E2BIG 7	/* vmlinux.h has no errno values */

/* The measured map; its type and sizes are the ones user space created it with. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} mb_hash_map SEC(".maps");

struct mb_hash_inner {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
};

/* Map-in-map: one inner map per online CPU, indexed by CPU number. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct mb_hash_inner);
} mb_hash_outer SEC(".maps");

/* Precomputed key indices (zipf draws, shuffled ranges), one region per producer. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} mb_hash_idx SEC(".maps");

const volatile __u32 mb_hash_src = MB_HASH_SRC_SEQ;
const volatile __u32 mb_hml_nr_entries = 1;	/* bpf-hashmap-lookup: keys per inner loop */
const volatile __u32 mb_fu_key = 0;		/* bpf-hashmap-full-update: first absent key */

struct mb_hash_key mb_hash_keys[MB_MAX_SLOTS];
__u8 mb_hash_value[MB_HASH_VALUE_MAX];

static __always_inline struct mb_hash_key *key_of(__u32 slot)
{
	/* A mask, not a branch: the verifier needs the bound, the CPU gets no extra jump. */
	return &mb_hash_keys[slot & (MB_MAX_SLOTS - 1)];
}

static __always_inline __u32 index_at(__u32 pos)
{
	__u64 *v = bpf_map_lookup_elem(&mb_hash_idx, &pos);

	return v ? (__u32)*v : MB_HASH_BAD_INDEX;
}

/* Next key index of a stream that wraps around its range. */
static __always_inline __u32 next_wrap(struct mb_loop_ctx *lc)
{
	__u32 base = (__u32)lc->arg, range = lc->arg >> 32, cur;

	if (mb_hash_src == MB_HASH_SRC_RAND)
		return base + mb_rand_below(lc, range);
	cur = lc->cursor;
	lc->cursor = cur + 1 >= range ? 0 : cur + 1;
	if (mb_hash_src == MB_HASH_SRC_ARRAY)
		return index_at(base + cur);
	return base + cur;
}

/* Next key index of a stream used once per round; *last: it was the range's last key. */
static __always_inline __u32 next_once(struct mb_loop_ctx *lc, bool *last)
{
	__u32 base = (__u32)lc->arg, range = lc->arg >> 32, cur = lc->cursor;

	lc->cursor = cur + 1;
	*last = cur + 1 >= range;
	if (mb_hash_src == MB_HASH_SRC_ARRAY)
		return index_at(base + cur);
	return base + cur;
}

static __always_inline void *this_cpu_inner(void)
{
	__u32 cpu = bpf_get_smp_processor_id();

	return bpf_map_lookup_elem(&mb_hash_outer, &cpu);
}

/* ---- the operations, on a map the caller passes as a constant or an inner map ---- */

static __always_inline int op_lookup(struct mb_loop_ctx *lc, void *map)
{
	struct mb_hash_key *k = key_of(lc->slot);

	k->w0 = next_wrap(lc);
	/* Every key of the stream is in the map: a miss is an error, never a hit. */
	if (bpf_map_lookup_elem(map, k))
		lc->hits++;
	else
		lc->errors++;
	return 0;
}

static __always_inline int op_miss(struct mb_loop_ctx *lc, void *map)
{
	struct mb_hash_key *k = key_of(lc->slot);

	k->w0 = next_wrap(lc);
	if (bpf_map_lookup_elem(map, k))
		lc->errors++;
	else
		lc->misses++;
	return 0;
}

static __always_inline int op_update(struct mb_loop_ctx *lc, void *map)
{
	struct mb_hash_key *k = key_of(lc->slot);

	k->w0 = next_wrap(lc);
	if (bpf_map_update_elem(map, k, mb_hash_value, BPF_EXIST))
		lc->errors++;
	else
		lc->hits++;
	return 0;
}

static __always_inline int op_insert(struct mb_loop_ctx *lc, void *map)
{
	struct mb_hash_key *k = key_of(lc->slot);
	bool last;

	k->w0 = next_once(lc, &last);
	if (bpf_map_update_elem(map, k, mb_hash_value, BPF_NOEXIST))
		lc->errors++;
	else
		lc->hits++;
	/* Stop after the op, so that every iteration bpf_loop counts did one. */
	if (last) {
		lc->ret = MB_HASH_RET_REFILL;
		return 1;
	}
	return 0;
}

static __always_inline int op_delete(struct mb_loop_ctx *lc, void *map)
{
	struct mb_hash_key *k = key_of(lc->slot);
	bool last;

	k->w0 = next_once(lc, &last);
	if (bpf_map_delete_elem(map, k))
		lc->errors++;
	else
		lc->hits++;
	if (last) {
		lc->ret = MB_HASH_RET_REFILL;
		return 1;
	}
	return 0;
}

/* map_perf_test's pattern: update, lookup and delete of one key that is not in the map. */
static __always_inline int op_mixed(struct mb_loop_ctx *lc, void *map)
{
	struct mb_hash_key *k = key_of(lc->slot);

	k->w0 = next_wrap(lc);
	if (bpf_map_update_elem(map, k, mb_hash_value, BPF_ANY))
		lc->errors++;
	else
		lc->hits++;
	if (bpf_map_lookup_elem(map, k))
		lc->hits++;
	else
		lc->errors++;
	if (bpf_map_delete_elem(map, k))
		lc->errors++;
	else
		lc->hits++;
	return 0;
}

/*
 * One callback per operation and map kind: each MB_LOOP_PROG call site then has a single
 * constant callback, which the verifier inlines.
 */
#define HASH_OP_PROGS(_op)							\
static __always_inline int _op##_cb(__u32 i, void *ctx)						\
{										\
	return op_##_op(ctx, &mb_hash_map);					\
}										\
MB_LOOP_PROG(mb_hash_##_op, _op##_cb)						\
static __always_inline int _op##_mim_cb(__u32 i, void *ctx)					\
{										\
	struct mb_loop_ctx *lc = ctx;						\
	void *inner = this_cpu_inner();						\
										\
	if (!inner) {								\
		lc->errors++;							\
		return 0;							\
	}									\
	return op_##_op(lc, inner);						\
}										\
MB_LOOP_PROG(mb_hash_##_op##_mim, _op##_mim_cb)

HASH_OP_PROGS(lookup)
HASH_OP_PROGS(miss)
HASH_OP_PROGS(update)
HASH_OP_PROGS(insert)
HASH_OP_PROGS(delete)
HASH_OP_PROGS(mixed)

/* ---- bpf-hashmap-lookup: the kernel bench's nested loops, per-producer key buffer ---- */

/* The inner loop's counters: bpf_loop wants its context on the stack. */
struct hml_inner {
	__u32 slot;
	__u32 errors;
	__u64 hits;
};

static int hml_inner_cb(__u32 i, void *ctx)
{
	struct hml_inner *in = ctx;
	struct mb_hash_key *k = key_of(in->slot);

	/* The kernel bench's keys: 1..nr_entries. */
	k->w0 = i + 1;
	if (bpf_map_lookup_elem(&mb_hash_map, k))
		in->hits++;
	else
		in->errors++;
	return 0;
}

static __always_inline int hml_outer_cb(__u32 i, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	struct hml_inner in = { .slot = lc->slot };

	bpf_loop(mb_hml_nr_entries, hml_inner_cb, &in, 0);
	lc->hits += in.hits;
	lc->errors += in.errors;
	return 0;
}

MB_LOOP_PROG(mb_hml_lookup, hml_outer_cb)

/* ---- bpf-hashmap-full-update: updates of an absent key into a full preallocated hash ---- */

static __always_inline int fu_cb(__u32 i, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	struct mb_hash_key *k = key_of(lc->slot);
	long err;

	k->w0 = mb_fu_key + lc->slot;
	err = bpf_map_update_elem(&mb_hash_map, k, mb_hash_value, BPF_ANY);
	/* The map is full: E2BIG is the expected outcome, anything else is an error. */
	if (err == -MB_E2BIG)
		lc->misses++;
	else
		lc->errors++;
	return 0;
}

MB_LOOP_PROG(mb_fu_update, fu_cb)
