/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* map-mem's types known by their recipe only (map_mem_other.c). */
#ifndef MB_BENCHS_MAP_MEM_OTHER_H
#define MB_BENCHS_MAP_MEM_OTHER_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/map_probe.h"
#include "map_mem.h"

struct mb_run;
struct mm_state;

/* A recipe type's map description and layout, ready for map-mem's measure(). */
struct mm_other {
	const struct mb_map_recipe *r;
	struct mb_recipe_map m;
	struct mm_layout l;
	bool ready;
};

/* Whether @r is known by its recipe only (not in mb_map_types or mb_storage_map_types). */
bool mm_other(const struct mb_map_recipe *r);
/* Its bit in map_mem_args.types (0: not such a type), and every such bit. */
uint64_t mm_other_bit(const struct mb_map_recipe *r);
uint64_t mm_other_types(void);
/* Named types take their recipe's sizes and flags: those options are refused. 0 or exit 2. */
int mm_other_validate(struct mb_run *run, const struct mb_map_recipe *r);
/* Named types (not "all") this kernel lacks: a skip naming the first. 0 or its status. */
int mm_other_present(struct mb_run *run, struct mm_state *st);
/* Its enum value on this kernel (the kernel's BTF, read once), or -1: not there. */
int mm_other_value(struct mm_state *st, const char *name);
/*
 * Make @o for @r's type, enum value @value: the map's BTF, inner map or kernel value type, the
 * fill's buffers (all before any row's cgroup). 0, or -errno with @why; mm_other_put() after.
 */
int mm_other_get(struct mm_other *o, const struct mb_map_recipe *r, int value, char *why,
		 size_t len);
void mm_other_put(struct mm_other *o);

#endif
