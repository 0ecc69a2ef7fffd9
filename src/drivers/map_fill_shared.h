/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Layout shared by src/drivers/map_fill.bpf.c and its user side (map_fill_kern.c). The
 * includer provides __u32/__u64.
 */
#ifndef MB_MAP_FILL_SHARED_H
#define MB_MAP_FILL_SHARED_H

#define MB_FILL_SLOTS		256	/* key buffers: one per thread that fills at once */
#define MB_FILL_KEY_MAX		512	/* bytes of one key buffer (= MAX_BPF_STACK) */
#define MB_FILL_VALUE_MAX	65536	/* bytes of the value the updates copy (zeros) */

/*
 * One slot's index key: the programs write the entry number into w0; the other bytes keep
 * the pattern user space wrote once (mb_index_key_pattern). 512-byte stride: threads never
 * share a cache line.
 */
struct mb_fill_key {
	__u32 w0;
	__u8 rest[MB_FILL_KEY_MAX - 4];
};

/* Context of every program (test_run ctx_in). */
struct mb_fill_args {
	__u64 pos;		/* first position of the call in the fill's range */
	__u64 count;		/* positions */
	__u64 slot;		/* key buffer */
	__u64 inner_key;	/* map-in-map: the outer map's key of the inner map */
	__u64 first;		/* entry number of position 0 */
};

#endif
