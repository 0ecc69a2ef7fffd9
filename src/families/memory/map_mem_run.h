/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * map-mem's options, one measurement (a row) and the run's state, shared by the files that
 * measure: map_mem.c (options, the bench, the regular map types), map_mem_row.c (a row's
 * cgroup, readings and JSON), map_mem_phase.c (progress on a terminal), map_mem_storage.c and
 * map_mem_owners.c (local storage types, per owner, beside a hash keyed by owner id).
 */
#ifndef MB_BENCHS_MAP_MEM_RUN_H
#define MB_BENCHS_MAP_MEM_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/map_create.h"
#include "drivers/owners.h"
#include "maps/map_recipe.h"
#include "sys/memcg.h"

struct mb_run;
struct mb_json;

#define MM_MAX_SIZES	16
/* Map sizes, and entries: the memory a bench of up to 16 sizes would charge stays bounded. */
#define MM_MAX_ENTRIES	(1u << 26)
/* The kernel's limits for hash keys (MAX_BPF_STACK) and for the values this bench creates. */
#define MM_KEY_MAX	512
#define MM_VALUE_MAX	65536
/* Bit i + MM_STORAGE_BIT of map_mem_args.types: mb_storage_map_types[i]. */
#define MM_STORAGE_BIT	16
/* Bit i + MM_OTHER_BIT: mb_map_recipes[i], a type known by its recipe only (map_mem_other.c). */
#define MM_OTHER_BIT	24

struct mm_sizes {
	uint32_t n;
	uint32_t v[MM_MAX_SIZES];
};

struct map_mem_args {
	uint64_t types;			/* bit i: mb_map_types[i]; storage, others above */
	struct mm_sizes sizes;		/* --max_entries (storage types: owners) */
	uint32_t nr_entries;		/* 0: fill to max_entries */
	uint32_t key_size;
	uint32_t value_size;
	uint32_t map_flags;
	uint32_t settle_ms;
	uint32_t release_timeout_ms;
};

/* One measurement: one map type at one size. Byte figures are above the cgroup's baseline. */
struct mm_row {
	uint32_t max_entries, nr;
	uint32_t rounded_from;		/* ring types: the size asked if rounded up, or 0 */
	const char *fill_reason;	/* streaming types: why there is no fill or delete */
	int err;			/* 0, or why the row has no figures */
	char why[256];
	bool memcg;			/* the cgroup figures exist */
	char memcg_why[512];
	uint64_t entries;		/* holding a value after the fill */
	double created, filled, deleted_now, deleted, closed;
	double usage_created, usage_filled, peak;
	double percpu_created, percpu_filled;	/* growth of /proc/meminfo Percpu (system-wide) */
	double percpu_values;		/* per-CPU value bytes asked for (computed) */
	bool percpu_charged;		/* they are in the charge */
	double memlock_created, memlock_filled, memlock_deleted;
	double fill_ms, delete_ms;
	bool fill_batched, delete_batched, can_delete;
	bool del_waited, close_waited;
	struct mb_memcg_wait del_wait, close_wait;
};

/* The owners of one storage row, alive from their cgroup's reading to the hash row. */
struct mm_owners {
	struct mb_owner_site site;
	struct mb_owner *o;		/* made: n of cap */
	unsigned long long *id;		/* o[i]'s id: the hash row's keys */
	uint32_t *fd;			/* o[i]'s fd: the storage row's keys */
	uint32_t n, cap;
};

struct mm_state {
	int inner_fd;			/* map-in-map: the inner map, made outside any cgroup */
	struct mb_memcg_site site;
	bool memcg_ok;
	char memcg_why[512];
	struct mb_memcg cg;		/* the current measurement's cgroup */
	int nr_failed, nr_rows;
	int first_err;
	char first_why[300];
	/* Storage types: one BTF for all their maps, loaded before any cgroup (not charged). */
	struct mb_map_desc sdesc;
	bool sdesc_ready;
	struct mm_owners owners;
	/* The kernel's map types (map_mem_other.c), read once where a recipe type is asked. */
	struct mb_kernel_map_type *ktypes;
	int nr_ktypes;
};

/* ---- progress on a terminal (map_mem_phase.c) ---- */

/* Whether to draw the status line: stderr is a terminal and -q was not given. */
void mm_phase_init(void);
/* A phase starts: @nr entries in chunks of @chunk (0: no count to show). */
void mm_phase(uint32_t nr, uint32_t chunk, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The stop callback of the loops: counts a chunk, redraws at most 5 times a second. */
bool mm_phase_tick(void);
/* The same, as the stop callback of a fill, an empty or a walk. */
bool mm_phase_stop(void *ctx);
void mm_phase_clear(void);

/* ---- a row (map_mem_row.c) ---- */

double mm_delta(uint64_t now, uint64_t base);
/* The map's memlock from fdinfo; NAN where it cannot be read. */
double mm_memlock_of(int fd);
/* The row failed at @what with @err (-errno): its reason, and the run's first failure. */
void mm_row_fail(struct mm_state *st, struct mm_row *r, int err, const char *what);
/* The same with the reason as given. */
void mm_row_fail_why(struct mm_state *st, struct mm_row *r, int err, const char *why);
/* A reading of the row's cgroup: false where the row has none. */
bool mm_read_charged(struct mm_state *st, struct mm_row *r, struct mb_memcg_usage *u);
/* Wait for freed memory to fall to @target, as the options say (mb_memcg_wait_release). */
void mm_wait_release(struct mb_run *run, struct mm_state *st, uint64_t target,
		     struct mb_memcg_wait *w, bool *waited);
/* An empty row: no figure yet (NAN), no error. */
void mm_row_init(struct mm_row *r, uint32_t max_entries, uint32_t nr);
/* An empty row, and its fresh cgroup joined: the charge's slack, @base its first reading. */
uint64_t mm_row_begin(struct mm_state *st, uint32_t max_entries, uint32_t nr, struct mm_row *r,
		      struct mb_memcg_usage *base);
/* Leave and remove the row's cgroup, if one was made. */
void mm_row_end(struct mb_run *run, struct mm_state *st);
struct mb_json *mm_num_or_null(double v);
/* A row's object in extra.footprint.<type>.rows (docs: README.md#map-mem). */
struct mb_json *mm_row_json(const struct mm_row *r);

/* ---- local storage types (map_mem_storage.c, map_mem_owners.c) ---- */

/* Whether @t is one of the storage types, and its bit in map_mem_args.types. */
uint32_t mm_storage_bit(const struct mb_map_type_info *t);
/*
 * The most owners of @t's kind this machine holds for the bench: each holds a descriptor
 * (RLIMIT_NOFILE's hard limit, less a margin), a thread also a pid (half of kernel.pid_max and
 * kernel.threads-max). @why says which bound it is.
 */
uint32_t mm_owners_max(const struct mb_map_type_info *t, char *why, size_t len);
/* The owner kind of storage type @t. */
enum mb_owner_kind mm_owner_kind(const struct mb_map_type_info *t);
/*
 * Make @n owners of @kind (a site opened, arrays allocated and touched first), with their fds
 * and ids. 0, or -errno with @why; whatever was made stays in @ow for mm_owners_free.
 */
int mm_owners_alloc(struct mm_owners *ow, enum mb_owner_kind kind, uint32_t n, char *why,
		    size_t len);
int mm_owners_make(struct mm_owners *ow, char *why, size_t len);
/* Destroy every owner made and close the site (idempotent). */
void mm_owners_free(struct mm_owners *ow);

/* Usage errors of storage type @t with the options (named types only). 0 or exit 2. */
int mm_storage_validate(struct mb_run *run, const struct mb_map_type_info *t);
/* Before any cgroup: the storage maps' BTF, a descriptor limit for the owners. 0 or -errno. */
int mm_storage_setup(struct mb_run *run, struct mm_state *st);
/* Measure storage type @t at every size, into @footprint. 0, or -errno to end the run. */
int mm_storage_measure_type(struct mb_run *run, struct mm_state *st,
			    const struct mb_map_type_info *t, struct mb_json *footprint);
void mm_storage_teardown(struct mm_state *st);

#endif
