// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Fill, empty and check a range of a map's entries in the kernel (drivers/map_fill.h): one
 * program per operation, key source and map kind, each a bpf_loop over the range that counts
 * the entries that failed (an insert refused, a key absent). User space creates the map and
 * hands it over with bpf_map__reuse_fd: its type and sizes are its own. It loads only the
 * programs a fill needs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "map_fill_shared.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* The map filled directly. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} mb_fill_map SEC(".maps");

struct mb_fill_inner {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
};

/* A map-in-map whose inner map (by its key, mb_fill_args.inner_key) is filled. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct mb_fill_inner);
} mb_fill_outer SEC(".maps");

/* A bloom filter, filled with pushes. */
struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__uint(value_size, 8);
	__uint(max_entries, 1);
} mb_fill_bloom SEC(".maps");

/*
 * What user space wrote through mmap, one element per position of the range: the entry
 * numbers in fill order (4 bytes), or the keys, or the bloom filter's values (sizes set before
 * load).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__uint(key_size, 4);
	__uint(value_size, 4);	/* sizes, not types: no BTF to contradict the size set */
} mb_fill_data SEC(".maps");

const volatile __u64 mb_fill_flags = BPF_ANY;	/* of the updates: BPF_ANY or BPF_NOEXIST */

struct mb_fill_key mb_fill_keys[MB_FILL_SLOTS];
__u8 mb_fill_value[MB_FILL_VALUE_MAX];

struct fill_ctx {
	__u32 pos;
	__u32 first;
	__u32 slot;
	__u32 inner_key;
	__u32 failed;
};

/* ---- where the key of position pos + i comes from ---- */

static __always_inline struct mb_fill_key *slot_key(struct fill_ctx *fc)
{
	/* A mask, not a branch: the verifier needs the bound. */
	return &mb_fill_keys[fc->slot & (MB_FILL_SLOTS - 1)];
}

/* Entry first + pos + i: key order. */
static __always_inline void *key_index(struct fill_ctx *fc, __u32 i)
{
	struct mb_fill_key *k = slot_key(fc);

	k->w0 = fc->first + fc->pos + i;
	return k;
}

/* The entry number at the position: an order user space chose (bucket order). */
static __always_inline void *key_order(struct fill_ctx *fc, __u32 i)
{
	struct mb_fill_key *k = slot_key(fc);
	__u32 pos = fc->pos + i;
	__u32 *entry = bpf_map_lookup_elem(&mb_fill_data, &pos);

	if (!entry)
		return NULL;
	k->w0 = *entry;
	return k;
}

/* The key user space gave for the position. */
static __always_inline void *key_given(struct fill_ctx *fc, __u32 i)
{
	__u32 pos = fc->pos + i;

	return bpf_map_lookup_elem(&mb_fill_data, &pos);
}

/* ---- the operations: 0, or the entry failed ---- */

static __always_inline long op_fill(void *map, void *key)
{
	return bpf_map_update_elem(map, key, mb_fill_value, mb_fill_flags);
}

static __always_inline long op_empty(void *map, void *key)
{
	return bpf_map_delete_elem(map, key);
}

static __always_inline long op_check(void *map, void *key)
{
	return bpf_map_lookup_elem(map, key) ? 0 : -1;
}

static __always_inline void *inner_map(struct fill_ctx *fc)
{
	__u32 key = fc->inner_key;

	return bpf_map_lookup_elem(&mb_fill_outer, &key);
}

/*
 * Programs mb_fl_<op>_<src> (the map) and mb_fl_<op>_<src>_mim (an inner map), each
 * returning how many entries failed. One callback per program: bpf_loop inlines it.
 */
#define FILL_PROGS(_op, _src)							\
static int _op##_##_src##_cb(__u32 i, void *ctx)				\
{										\
	struct fill_ctx *fc = ctx;						\
	void *key = key_##_src(fc, i);						\
										\
	if (!key || op_##_op(&mb_fill_map, key))				\
		fc->failed++;							\
	return 0;								\
}										\
static int _op##_##_src##_mim_cb(__u32 i, void *ctx)				\
{										\
	struct fill_ctx *fc = ctx;						\
	void *map = inner_map(fc), *key = key_##_src(fc, i);			\
										\
	if (!map || !key || op_##_op(map, key))					\
		fc->failed++;							\
	return 0;								\
}										\
SEC("raw_tp")									\
int mb_fl_##_op##_##_src(struct mb_fill_args *a)				\
{										\
	struct fill_ctx fc = { .pos = a->pos, .first = a->first, .slot = a->slot };	\
										\
	bpf_loop(a->count, _op##_##_src##_cb, &fc, 0);				\
	return fc.failed;							\
}										\
SEC("raw_tp")									\
int mb_fl_##_op##_##_src##_mim(struct mb_fill_args *a)				\
{										\
	struct fill_ctx fc = { .pos = a->pos, .first = a->first, .slot = a->slot,	\
			       .inner_key = a->inner_key };			\
										\
	bpf_loop(a->count, _op##_##_src##_mim_cb, &fc, 0);			\
	return fc.failed;							\
}

#define FILL_OPS(_src)								\
	FILL_PROGS(fill, _src)							\
	FILL_PROGS(empty, _src)							\
	FILL_PROGS(check, _src)

FILL_OPS(index)
FILL_OPS(order)
FILL_OPS(given)

/* The bloom filter: push the value at each position. */
static int push_cb(__u32 i, void *ctx)
{
	struct fill_ctx *fc = ctx;
	__u32 pos = fc->pos + i;
	void *v = bpf_map_lookup_elem(&mb_fill_data, &pos);

	if (!v || bpf_map_push_elem(&mb_fill_bloom, v, 0))
		fc->failed++;
	return 0;
}

SEC("raw_tp")
int mb_fl_push(struct mb_fill_args *a)
{
	struct fill_ctx fc = { .pos = a->pos };

	bpf_loop(a->count, push_cb, &fc, 0);
	return fc.failed;
}

/*
 * The hash map's seed and bucket count, for a fill in bucket order: user space computes each
 * key's bucket with the same jhash the kernel uses.
 */
__u32 mb_fill_rnd;
__u32 mb_fill_nbuckets;

SEC("raw_tp")
int mb_fl_seed(void *ctx)
{
	struct bpf_htab *h = (struct bpf_htab *)&mb_fill_map;

	mb_fill_rnd = h->hashrnd;
	mb_fill_nbuckets = h->n_buckets;
	return 0;
}

/* The same for inner map a->inner_key (inner maps share the outer map's inner meta ops). */
SEC("raw_tp")
int mb_fl_seed_mim(struct mb_fill_args *a)
{
	__u32 key = a->inner_key;
	struct bpf_htab *h = bpf_map_lookup_elem(&mb_fill_outer, &key);

	if (!h)
		return 1;
	mb_fill_rnd = h->hashrnd;
	mb_fill_nbuckets = h->n_buckets;
	return 0;
}
