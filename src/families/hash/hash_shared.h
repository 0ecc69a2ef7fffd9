/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Layout shared by src/families/hash/hash.bpf.c and the hash family's user space (src/families/hash/hash*.c). The
 * includer provides __u32/__u64.
 */
#ifndef MB_HASH_SHARED_H
#define MB_HASH_SHARED_H

#define MB_HASH_KEY_MAX		512	/* bytes of one key buffer (= MAX_BPF_STACK) */
#define MB_HASH_VALUE_MAX	65536	/* bytes of the value that in-kernel updates copy */

/*
 * One producer's key. Ops write the key index into w0; the other bytes keep the pattern user
 * space wrote once (key sizes above 4). 512-byte stride: producers never share a cache line.
 */
struct mb_hash_key {
	__u32 w0;
	__u8 rest[MB_HASH_KEY_MAX - 4];
};

/* Where an op takes its next key index from (rodata mb_hash_src). */
enum mb_hash_src {
	MB_HASH_SRC_SEQ,	/* base + cursor */
	MB_HASH_SRC_RAND,	/* base + uniform below range (xorshift, multiply-shift) */
	MB_HASH_SRC_ARRAY,	/* mb_hash_idx[base + cursor]: zipf draws, shuffled ranges */
};

/*
 * Per-producer stream, in mb_slot.arg: the low 32 bits are the base (first key index, or the
 * first index-array position), the high 32 bits the range (keys, or positions). Streams that
 * wrap (lookups, updates, mixed) restart at 0; insert and delete streams stop at the end of
 * their range and return MB_HASH_RET_REFILL.
 */
#define MB_HASH_ARG(base, range)	((__u64)(base) | ((__u64)(range) << 32))

enum mb_hash_ret {
	MB_HASH_RET_REFILL = 16,	/* MB_RET_BENCH: the producer's range is used up */
};

/* A key index no stream produces (an index-array read that failed): it always misses. */
#define MB_HASH_BAD_INDEX	0xffffffffu

#endif
