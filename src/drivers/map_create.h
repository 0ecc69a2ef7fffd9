/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Creating a map of any type from one description, and the map-in-maps that hold one inner
 * map per CPU. Failures say why (mb_explain_map_create).
 */
#ifndef MB_DRIVERS_MAP_CREATE_H
#define MB_DRIVERS_MAP_CREATE_H

#include <stddef.h>
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
	/*
	 * The BTF of key and value, which local storage maps need (mb_map_desc_add_btf). The
	 * kernel reads btf_fd only when a type id is set, so a zeroed description has none.
	 */
	int btf_fd;
	uint32_t btf_key_type_id;
	uint32_t btf_value_type_id;
	/*
	 * struct_ops: the value's type in the kernel's own BTF (0: none); the kernel still asks
	 * for a BTF of the program's own in btf_fd, without key and value ids.
	 */
	uint32_t vmlinux_value_type_id;
};

/* Create the map: its fd, or -errno. */
int mb_map_create(const struct mb_map_desc *d);

/*
 * Give @d a minimal BTF of its sizes, loaded into the kernel: the key an int of key_size bytes
 * (local storage: 4, an owner's fd) or bytes, the value an array of value_size bytes. The
 * kernel checks no more than that of a map that carries no special fields. @d->btf_fd is the
 * caller's: each map created keeps its own reference to the BTF, so one BTF serves any number
 * of maps of these sizes, and mb_map_desc_put_btf() closes it once they are made. 0 or -errno.
 */
int mb_map_desc_add_btf(struct mb_map_desc *d);
/* Close @d's BTF (none: nothing) and clear its ids. */
void mb_map_desc_put_btf(struct mb_map_desc *d);

/*
 * A sentence for a failed creation of @d (@err from mb_map_create), "<what>: <why>": for local
 * storage, the attribute the kernel refuses or the BTF it lacks; on EINVAL, a map type the
 * kernel does not have (@has_type 0; 1: it has it, negative: cannot tell); otherwise
 * mb_explain_map_create's.
 */
void mb_explain_map_desc(int err, const struct mb_map_desc *d, int has_type, const char *what,
			 char *buf, size_t len);

/*
 * The same, a failure reported on @run as "<what>: <why>"; @what NULL says "cannot create the
 * <type> map (<n> entries of <key> + <value> bytes)". The fd, or the negative error.
 */
int mb_run_map_create(struct mb_run *run, const struct mb_map_desc *d, const char *what);

/* The kernel's id of the map behind @fd (0: none): to see the map go after its fds are closed. */
uint32_t mb_map_id(int fd);
/*
 * Wait up to @timeout_ns until the kernel has dropped the maps of @ids (0s are skipped): a map
 * goes once its last fd and the programs that use it are gone, after an RCU grace period, and
 * until then holds what it holds (memory, a local storage cache slot). How many are left.
 */
int mb_map_ids_wait_gone(const uint32_t *ids, uint32_t n, uint64_t timeout_ns);

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
