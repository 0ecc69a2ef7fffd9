// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The lru family: how close the kernel's LRU maps come to a true LRU (not in the default suite). */
#include "families/family.h"

extern const struct mb_bench mb_bench_lru_dist;
extern const struct mb_bench mb_bench_lru_loss;

const struct mb_family mb_family_lru = {
	.name = "lru",
	.desc = "LRU quality: the LRU maps' misses and losses against a perfect LRU",
	.benches = (const struct mb_bench *const[]){ &mb_bench_lru_dist, &mb_bench_lru_loss, NULL },
};
