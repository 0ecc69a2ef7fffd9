// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The arena family: BPF_MAP_TYPE_ARENA's page allocation and its memory's access. */
#include "families/family.h"

extern const struct mb_bench mb_bench_arena_alloc;
extern const struct mb_bench mb_bench_arena_access;

const struct mb_family mb_family_arena = {
	.name = "arena",
	.desc = "arena maps: pages allocated and freed by the kfuncs, memory read and written from user space and BPF",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_arena_alloc, &mb_bench_arena_access, NULL,
	},
};
