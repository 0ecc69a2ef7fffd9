/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Shared by ls_get.bpf.c and the per-storage-type benches' user space (ls_get.c, ls_types*.c).
 * The includer provides __u32/__u64.
 */
#ifndef MB_LS_TYPES_SHARED_H
#define MB_LS_TYPES_SHARED_H

#define LS_MAX_MAPS	1000	/* --nr_maps: the kernel bench's limit, and the outer map's */

/*
 * The value the first pass writes into map @i's storage, which user space reads back through
 * the owner's fd: "mb" in the top bytes, the map's index in the low ones.
 */
#define LS_VALUE(i)	(0x6d62000000000000ULL | (__u64)(i))

#endif
