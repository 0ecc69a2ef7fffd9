/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Every map type by name: the running kernel's list (enum bpf_map_type in its BTF, so a newer
 * kernel's types appear without a code change), and for each type mapbench knows a recipe for
 * a minimal map of it (sizes, flags, what else the kernel asks for) and what creating or
 * benching it may need that a machine lacks. drivers/map_probe creates the maps.
 */
#ifndef MB_MAPS_MAP_RECIPE_H
#define MB_MAPS_MAP_RECIPE_H

#include <stddef.h>
#include <stdint.h>

#include "maps.h"

struct btf;

/* What a recipe needs besides its sizes and flags (mb_map_recipe.needs). */
enum mb_recipe_need {
	MB_RECIPE_BTF		= 1u << 0,	/* BTF of key and value (local storage) */
	MB_RECIPE_INNER		= 1u << 1,	/* an inner map to take its shape from */
	MB_RECIPE_VMLINUX_VALUE	= 1u << 2,	/* its value is a type of the kernel's BTF */
	MB_RECIPE_VALUE_BTF	= 1u << 3,	/* value_size: the size of a kernel BTF type */
	MB_RECIPE_PAGE_ENTRIES	= 1u << 4,	/* max_entries: one page (ring buffers) */
};

struct mb_map_recipe {
	const char *name;		/* enum bpf_map_type's name, lower case, no prefix */
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
	uint32_t flags;			/* BPF_F_* */
	unsigned int needs;		/* enum mb_recipe_need */
	/*
	 * MB_RECIPE_VMLINUX_VALUE, MB_RECIPE_VALUE_BTF: the kernel's BTF types to try, in order,
	 * '|'-separated ("bpf_struct_ops_tcp_congestion_ops|bpf_struct_ops_bpf_dummy_ops").
	 */
	const char *btf_types;
	const char *since;		/* newer than 6.18: "new in 6.19", or where it is */
	const char *needs_what;		/* what a machine may lack to create one, or NULL */
	/* Why no bench measures its ops yet (NULL: one should; a bench's coverage wins). */
	const char *no_bench;
};

/* The recipes, NULL-name terminated, in enum order; those newer than 6.18 at the end. */
extern const struct mb_map_recipe mb_map_recipes[];
/* Their names, NULL-terminated, in the same order (a coverage list: map-mem's). */
extern const char *const mb_map_recipe_names[];

const struct mb_map_recipe *mb_map_recipe_find(const char *name);

/* One map type of the running kernel. */
struct mb_kernel_map_type {
	char name[48];			/* "hash", "cgroup_storage", ... */
	int value;			/* its enum bpf_map_type number */
};

/*
 * The map types of enum bpf_map_type in @btf, by value (BPF_MAP_TYPE_UNSPEC and
 * __MAX_BPF_MAP_TYPE left out; of two names for one value, the one not ending _DEPRECATED).
 * @out is malloc'ed, @n its length. 0, or -ENOENT (no such enum), -ENOMEM.
 */
int mb_map_types_from_btf(const struct btf *btf, struct mb_kernel_map_type **out, int *n);
/* The same from the running kernel's BTF (/sys/kernel/btf/vmlinux). */
int mb_kernel_map_types(struct mb_kernel_map_type **out, int *n);

/*
 * The id and size of the first of @r->btf_types that @btf has (a struct). 0, or -ENOENT with
 * none of them there.
 */
int mb_map_recipe_btf_type(const struct mb_map_recipe *r, const struct btf *btf, uint32_t *id,
			   uint32_t *size);

/*
 * The type @r describes as struct mb_map_type_info (what drivers/map_create takes), for
 * enum value @value: the table's where mb_map_type_by_type() knows it, else @ti filled.
 */
const struct mb_map_type_info *mb_map_recipe_info(const struct mb_map_recipe *r, int value,
						  struct mb_map_type_info *ti);

/*
 * One sentence on why the kernel refused @r's map with @err (negative errno): the errno
 * named and explained, with what the type needs (@r NULL: a type without a recipe).
 */
void mb_map_recipe_explain(const struct mb_map_recipe *r, int err, char *buf, size_t len);

#endif
