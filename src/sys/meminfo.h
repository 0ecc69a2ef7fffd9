/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The machine's memory as /proc/meminfo gives it: what a bench may allocate before it asks for
 * more than there is (a refusal up front instead of an OOM kill half-way through a fill).
 */
#ifndef MB_MEMINFO_H
#define MB_MEMINFO_H

#include <stdint.h>

#define MB_MEMINFO_PATH	"/proc/meminfo"

/*
 * The figure of the line "<key>: <n> kB" (or "<key>: <n>", a count) in /proc/meminfo's @text,
 * in bytes for kB. 0; -ENOENT when no line has @key; -EINVAL when its line is not a number
 * with an optional kB, or the bytes overflow.
 */
int mb_meminfo_parse(const char *text, const char *key, uint64_t *v);

/* The figure of line @key of /proc/meminfo now, as mb_meminfo_parse() gives it. 0 or -errno. */
int mb_meminfo_get(const char *key, uint64_t *v);

/* MemAvailable (the kernel's estimate of what can be allocated without swapping), bytes. */
int mb_mem_available(uint64_t *bytes);

#endif
