/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Creating a map of any type from one description, and the map-in-maps that hold one inner
 * map per CPU. Failures say why (mb_explain_map_create).
 */
#ifndef MB_DRIVERS_MAP_CREATE_H
#define MB_DRIVERS_MAP_CREATE_H

#include <stdint.h>

#include "maps/maps.h"

struct mb_run;

/* mb_map_desc.numa_node: the node of the CPU an inner map is made for (mb_cpu_maps_create). */
#define MB_NUMA_OF_CPU	(-2)

/* A map as the kernel makes it. */
struct mb_map_desc {
	const struct mb_map_type_info *type;
	const char *name;		/* the kernel's name for it (15 characters are kept) */
	uint32_t key_size;
	uint32_t value_size;		/* one value (per-CPU maps: one CPU's) */
	uint32_t max_entries;
	uint32_t flags;			/* BPF_F_* */
	uint64_t map_extra;		/* the bloom filter's hash count */
	int inner_fd;			/* map-in-map: the template of its inner maps */
	int numa_node;			/* with BPF_F_NUMA_NODE; MB_NUMA_OF_CPU for inner maps */
};

/* Create the map: its fd, or -errno. */
int mb_map_create(const struct mb_map_desc *d);

/*
 * The same, a failure reported on @run as "<what>: <why>"; @what NULL says "cannot create the
 * <type> map (<n> entries of <key> + <value> bytes)". The fd, or the negative error.
 */
int mb_run_map_create(struct mb_run *run, const struct mb_map_desc *d, const char *what);

/*
 * A map-in-map with one inner map per online CPU: inner_fd[cpu] sits at key cpu of the outer
 * map, which has nr_outer (highest online CPU + 1) slots; -1 for CPUs offline at set-up.
 * A zeroed struct holds nothing.
 */
struct mb_cpu_maps {
	int outer_fd;
	int *inner_fd;
	int nr_outer;
};

/*
 * Make an inner map from @inner for each of the run's online CPUs, then the outer map from
 * @outer (its key, value and entry count are set here) holding them. 0, or a negative error
 * reported on @run; what was made stays in @m for mb_cpu_maps_close().
 */
int mb_cpu_maps_create(struct mb_run *run, struct mb_cpu_maps *m, const struct mb_map_desc *outer,
		       const struct mb_map_desc *inner);
void mb_cpu_maps_close(struct mb_cpu_maps *m);
/* The first inner map (the one to report, or to use for a CPU that has none); -1: none. */
int mb_cpu_maps_first(const struct mb_cpu_maps *m);

#endif
