/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The kernel's local storage cache benches (ls_cache.c) and their text (ls_cache_text.c). */
#ifndef MB_LS_CACHE_H
#define MB_LS_CACHE_H

#include "core/bench.h"
#include "output/report.h"

extern const struct mb_bench mb_bench_ls_cache_seq_get;
extern const struct mb_bench mb_bench_ls_cache_int_get;
extern const struct mb_bench mb_bench_ls_cache_hashmap_control;

extern const struct mb_text_style ls_cache_text;

#endif
