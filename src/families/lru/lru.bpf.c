// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * LRU quality benches with --access bpf: each task's trace of map operations is replayed into
 * the LRU hash by a program, on the task's CPU. A lookup from a program sets the element's LRU
 * reference bit, as a datapath program's lookup does; a lookup through the bpf() syscall does
 * not (the kernel leaves the eviction heuristics alone for user-space walks).
 */
#include "drivers/kloop.bpf.h"
#include "lru_shared.h"

/* Type, flags and size are set before load: lru_hash or lru_percpu_hash, common or not. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1);
	__type(key, __u64);
	__type(value, __u64);
} mb_lru_map SEC(".maps");

/* The operations of every task, one region per task, written by user space through mmap. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, __u64);
} mb_lru_ops SEC(".maps");

/*
 * One operation; the slot's cursor is the index of the next one. hits and misses count
 * lookups; errors count failed inserts (the LRU found no element to reuse).
 */
static __always_inline int lru_op_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	__u32 i = (__u32)lc->cursor;
	__u64 *op, key, val = 1;

	op = bpf_map_lookup_elem(&mb_lru_ops, &i);
	if (!op) {
		lc->ret = MB_RET_BAD_ARGS;
		return 1;
	}
	lc->cursor++;
	key = *op & MB_LRU_KEY_MASK;
	switch (*op >> MB_LRU_OP_SHIFT) {
	case MB_LRU_OP_ACCESS:
		if (bpf_map_lookup_elem(&mb_lru_map, &key)) {
			lc->hits++;
			break;
		}
		lc->misses++;
		if (bpf_map_update_elem(&mb_lru_map, &key, &val, BPF_NOEXIST))
			lc->errors++;
		break;
	case MB_LRU_OP_LOOKUP:
		if (bpf_map_lookup_elem(&mb_lru_map, &key))
			lc->hits++;
		else
			lc->misses++;
		break;
	case MB_LRU_OP_INSERT:
		if (bpf_map_update_elem(&mb_lru_map, &key, &val, BPF_NOEXIST))
			lc->errors++;
		break;
	default:
		lc->ret = MB_RET_BAD_ARGS;
		return 1;
	}
	return 0;
}

MB_LOOP_PROG(mb_lru_replay, lru_op_cb)
