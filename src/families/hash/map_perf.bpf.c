// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * map-perf: the eleven tests of samples/bpf/map_perf_test, one in-kernel op loop each. One loop
 * iteration is one of map_perf_test's events (the work its kprobe did per syscall), with the
 * same map operations; map_perf_test's flaws are gone: every producer has its own key, the
 * lookups look up keys that are in their map (a miss is an error), the LPM trie is the map
 * that gets filled, and no other process's syscalls reach the programs.
 */
#include "drivers/kloop.bpf.h"

#define MP_HASH(_name, _type, _flags, _entries)					\
struct {									\
	__uint(type, _type);							\
	__uint(map_flags, _flags);						\
	__uint(max_entries, _entries);						\
	__type(key, __u32);							\
	__type(value, __u64);							\
} _name SEC(".maps")

MP_HASH(mb_mp_hash, BPF_MAP_TYPE_HASH, 0, 1000);
MP_HASH(mb_mp_pc_hash, BPF_MAP_TYPE_PERCPU_HASH, 0, 1000);
MP_HASH(mb_mp_hash_km, BPF_MAP_TYPE_HASH, BPF_F_NO_PREALLOC, 1000);
MP_HASH(mb_mp_pc_hash_km, BPF_MAP_TYPE_PERCPU_HASH, BPF_F_NO_PREALLOC, 1000);
MP_HASH(mb_mp_lru, BPF_MAP_TYPE_LRU_HASH, 0, 10000);
MP_HASH(mb_mp_nc_lru, BPF_MAP_TYPE_LRU_HASH, BPF_F_NO_COMMON_LRU, 10000);
MP_HASH(mb_mp_hash_lk, BPF_MAP_TYPE_HASH, 0, 1000);
MP_HASH(mb_mp_array, BPF_MAP_TYPE_ARRAY, 0, 1000);
MP_HASH(mb_mp_lru_lk, BPF_MAP_TYPE_LRU_HASH, 0, 1000);

struct mb_mp_lpm_key {
	__u32 prefixlen;
	__u32 addr;		/* network byte order */
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 10000);
	__type(key, struct mb_mp_lpm_key);
	__type(value, __u64);
} mb_mp_lpm SEC(".maps");

struct mb_mp_inner {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1000);
	__type(key, __u32);
	__type(value, __u64);
};

/* One inner LRU hash per CPU (user space creates them on the CPU's NUMA node). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct mb_mp_inner);
} mb_mp_outer SEC(".maps");

const volatile __u32 mb_mp_key_base = 0x10000;	/* hash tests: producer n's key, base + n */
const volatile __u32 mb_mp_lookup_entries = 1000;	/* lru_hash_lookup wraps here */

static __always_inline void count(struct mb_loop_ctx *lc, bool ok)
{
	if (ok)
		lc->hits++;
	else
		lc->errors++;
}

/* Tests 0-3: ten times update, lookup and delete of the producer's own key. */
static __always_inline int hash_event(struct mb_loop_ctx *lc, void *map)
{
	__u32 key = mb_mp_key_base + lc->slot;
	__u64 val = 1;

#pragma clang loop unroll(full)
	for (int i = 0; i < 10; i++) {
		count(lc, !bpf_map_update_elem(map, &key, &val, BPF_ANY));
		count(lc, bpf_map_lookup_elem(map, &key));
		count(lc, !bpf_map_delete_elem(map, &key));
	}
	return 0;
}

static __always_inline int hash_prealloc_cb(__u32 i, void *ctx)
{
	return hash_event(ctx, &mb_mp_hash);
}

static __always_inline int percpu_hash_prealloc_cb(__u32 i, void *ctx)
{
	return hash_event(ctx, &mb_mp_pc_hash);
}

static __always_inline int hash_kmalloc_cb(__u32 i, void *ctx)
{
	return hash_event(ctx, &mb_mp_hash_km);
}

static __always_inline int percpu_hash_kmalloc_cb(__u32 i, void *ctx)
{
	return hash_event(ctx, &mb_mp_pc_hash_km);
}

/* Tests 4, 5: one update of a random key (map_perf_test: bpf_get_prandom_u32). */
static __always_inline int lru_event(struct mb_loop_ctx *lc, void *map)
{
	__u32 key = (__u32)mb_rand(lc);
	__u64 val = 1;

	count(lc, !bpf_map_update_elem(map, &key, &val, BPF_ANY));
	return 0;
}

static __always_inline int lru_hash_prealloc_cb(__u32 i, void *ctx)
{
	return lru_event(ctx, &mb_mp_lru);
}

static __always_inline int nocommon_lru_hash_prealloc_cb(__u32 i, void *ctx)
{
	return lru_event(ctx, &mb_mp_nc_lru);
}

/* Test 6: 32 lookups of 192.168.0.1/32. */
static __always_inline int lpm_kmalloc_cb(__u32 i, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	struct mb_mp_lpm_key key = { .prefixlen = 32, .addr = __builtin_bswap32(0xc0a80001) };

#pragma clang loop unroll(full)
	for (int j = 0; j < 32; j++)
		count(lc, bpf_map_lookup_elem(&mb_mp_lpm, &key));
	return 0;
}

/* Tests 7, 8: 64 lookups of key 1. */
static __always_inline int hash_lookup_cb(__u32 i, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	__u32 key = 1;

#pragma clang loop unroll(full)
	for (int j = 0; j < 64; j++)
		count(lc, bpf_map_lookup_elem(&mb_mp_hash_lk, &key));
	return 0;
}

static __always_inline int array_lookup_cb(__u32 i, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	__u32 key = 1;

#pragma clang loop unroll(full)
	for (int j = 0; j < 64; j++)
		count(lc, bpf_map_lookup_elem(&mb_mp_array, &key));
	return 0;
}

/* Test 9: look up this CPU's inner map (one op), update a random key in it (one op). */
static __always_inline int inner_lru_hash_prealloc_cb(__u32 i, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	__u32 cpu = bpf_get_smp_processor_id();
	void *inner = bpf_map_lookup_elem(&mb_mp_outer, &cpu);

	count(lc, inner);
	if (!inner) {
		lc->errors++;	/* the update that could not happen */
		return 0;
	}
	return lru_event(lc, inner);
}

/* Test 10: 32 lookups of consecutive keys; the start moves by 32 per event and wraps. */
static __always_inline int lru_hash_lookup_cb(__u32 i, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	__u32 n = mb_mp_lookup_entries, key = lc->cursor;

#pragma clang loop unroll(full)
	for (int j = 0; j < 32; j++) {
		count(lc, bpf_map_lookup_elem(&mb_mp_lru_lk, &key));
		key = key + 1 >= n ? 0 : key + 1;
	}
	lc->cursor = key;
	return 0;
}

MB_LOOP_PROG(mb_mp_t0, hash_prealloc_cb)
MB_LOOP_PROG(mb_mp_t1, percpu_hash_prealloc_cb)
MB_LOOP_PROG(mb_mp_t2, hash_kmalloc_cb)
MB_LOOP_PROG(mb_mp_t3, percpu_hash_kmalloc_cb)
MB_LOOP_PROG(mb_mp_t4, lru_hash_prealloc_cb)
MB_LOOP_PROG(mb_mp_t5, nocommon_lru_hash_prealloc_cb)
MB_LOOP_PROG(mb_mp_t6, lpm_kmalloc_cb)
MB_LOOP_PROG(mb_mp_t7, hash_lookup_cb)
MB_LOOP_PROG(mb_mp_t8, array_lookup_cb)
MB_LOOP_PROG(mb_mp_t9, inner_lru_hash_prealloc_cb)
MB_LOOP_PROG(mb_mp_t10, lru_hash_lookup_cb)
