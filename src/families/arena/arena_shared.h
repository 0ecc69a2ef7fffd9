/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the arena family's programs and their user side share: the context each
 * BPF_PROG_TEST_RUN call passes in (a syscall program reads it as its ctx) and the counters a
 * producer's slot sums in the programs' .bss.
 */
#ifndef MB_ARENA_SHARED_H
#define MB_ARENA_SHARED_H

#define AR_MAX_SLOTS	256	/* one per producer, as MB_MAX_PRODUCERS */
#define AR_MAX_ITERS	256	/* alloc and free pairs in one call, the loop's bound */
#define AR_PAGE_CNT_MAX	512	/* --page_cnt at most: the marking loop's bound */
#define AR_PAGE_WORDS	512	/* 8-byte words in a 4 KiB page */
#define AR_MAGIC	0x6d62617265616e61ULL	/* "mbareana": page marks and written values */

enum ar_op {
	AR_READ,
	AR_WRITE,
};

struct ar_ctx {
	__u32 slot;		/* the producer's slot */
	__u32 iters;		/* alloc: pairs; access: pages walked (over and over) */
	__u32 page_cnt;		/* alloc: pages per allocation; access: pages in the arena */
	__u32 op;		/* access: enum ar_op */
	__u64 addr;		/* the pages' user address (mark: out; free, access: in) */
	__u64 value;		/* access: what writes store */
};

struct ar_slot {
	__u64 ops;		/* alloc and free pairs, or 8-byte accesses */
	__u64 ns;		/* their in-kernel time */
	__u64 pages;		/* pages allocated (and freed) */
	__u64 errors;		/* allocations that failed */
	__u64 sum;		/* what reads summed */
	__u64 pad[3];		/* a cache line each */
};

#endif
