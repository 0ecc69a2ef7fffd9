/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* What the memory benches (htab-mem, map-mem) share. */
#ifndef MB_BENCHS_MEM_H
#define MB_BENCHS_MEM_H

#include <stdbool.h>
#include <stddef.h>

#include "sys/memcg.h"

#define MB_MIB (1024.0 * 1024.0)

struct mb_json;
struct mb_text_style;

/*
 * The "memcg" object of a result: available, version, path, which files the figures come
 * from, and the reason when no cgroup could be used.
 */
struct mb_json *mem_memcg_json(const struct mb_memcg *cg, bool available, const char *why);
/* A byte count for tables: "512 B", "12.0 KiB", "1.23 MiB", "1.50 GiB" (signed). */
void mem_format_bytes(double bytes, char *buf, size_t len);

/* htab-mem's text lines (htab_mem_text.c). */
extern const struct mb_text_style htab_mem_text;

#endif
