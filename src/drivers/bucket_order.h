/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The order of a hash map's buckets, for fills: filling a large map in bucket order turns the
 * random bucket and chain accesses of each insert (cache and TLB misses) into sequential ones.
 * Pure: user space computes each key's bucket with the same jhash the kernel uses.
 */
#ifndef MB_DRIVERS_BUCKET_ORDER_H
#define MB_DRIVERS_BUCKET_ORDER_H

#include <stdint.h>

/* The hash the kernel's hash maps put keys in buckets with (lookup3, as jhash()/jhash2()). */
uint32_t mb_jhash(const void *key, uint32_t len, uint32_t seed);

/*
 * Index keys (drivers/map_entries.h) of entries base..base+n-1 in the order of their buckets
 * in a hash map with @nbuckets buckets (a power of two) and seed @seed, grouped 64 buckets at
 * a time. 0, -EINVAL (bucket count, key size of 4..512 bytes) or -ENOMEM.
 */
int mb_bucket_order(uint32_t base, uint32_t n, uint32_t key_size, uint32_t seed,
		    uint32_t nbuckets, uint32_t *out);

#endif
