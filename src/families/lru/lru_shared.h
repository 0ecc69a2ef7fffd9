/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * LRU quality benches: the encoding of one map operation of a replayed trace, shared by
 * src/families/lru/lru.bpf.c and src/families/lru*.c. The operation is in the top two bits, the key below.
 */
#ifndef MB_LRU_H
#define MB_LRU_H

#define MB_LRU_OP_SHIFT		62
#define MB_LRU_KEY_MASK		((1ULL << MB_LRU_OP_SHIFT) - 1)

enum mb_lru_op {
	MB_LRU_OP_ACCESS = 0,	/* lookup; on a miss insert (BPF_NOEXIST): a cache access */
	MB_LRU_OP_LOOKUP = 1,	/* lookup only */
	MB_LRU_OP_INSERT = 2,	/* insert (BPF_NOEXIST) */
};

#define MB_LRU_ENCODE(op, key)	(((unsigned long long)(op) << MB_LRU_OP_SHIFT) | (key))

#endif
