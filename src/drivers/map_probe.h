/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Which map types this machine creates: each made from its recipe (maps/map_recipe.h) and
 * closed at once, never assumed. What a recipe needs besides sizes (BTF, an inner map, a value
 * type of the kernel's BTF) is made here and released with the map.
 */
#ifndef MB_DRIVERS_MAP_PROBE_H
#define MB_DRIVERS_MAP_PROBE_H

#include <stddef.h>

#include "maps/map_recipe.h"
#include "map_create.h"

/* A map description made from a recipe, with what it holds (mb_map_recipe_put). */
struct mb_recipe_map {
	struct mb_map_type_info ti;	/* the type, where maps.h has no entry for it */
	struct mb_map_desc d;		/* ready for mb_map_create() */
	int own_btf_fd;			/* struct_ops: the BTF beside the kernel's value type */
};

/*
 * Make @m's description of @r's type (enum value @value) with @max_entries (0: the recipe's):
 * its BTF, its inner map, its kernel value type, as the recipe needs. 0, or -errno with @why
 * saying what could not be made; mb_recipe_map_put() releases either way.
 */
int mb_recipe_map_get(struct mb_recipe_map *m, const struct mb_map_recipe *r, int value,
		      uint32_t max_entries, char *why, size_t len);
void mb_recipe_map_put(struct mb_recipe_map *m);

/* Create and close at once a minimal map of @r's type. 0, or -errno with @why one sentence. */
int mb_map_probe_type(const struct mb_map_recipe *r, int value, char *why, size_t len);

/* One map type as probed. */
struct mb_map_probe {
	char name[48];
	int value;				/* enum bpf_map_type; -1: not on this kernel */
	const struct mb_map_recipe *recipe;	/* NULL: mapbench has no recipe for it */
	int err;				/* 0: created here; else -errno */
	char why[256];				/* err: why not, one sentence */
};

/*
 * Every map type: the running kernel's (enum bpf_map_type in its BTF), in enum order, each
 * probed, then the recipes' types it lacks (err -EINVAL, "not on this kernel"). @out is
 * malloc'ed. 0, or -errno where the kernel's BTF cannot be read.
 */
int mb_map_probe_all(struct mb_map_probe **out, int *n);

#endif
