/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * LRU quality family (lru-dist, lru-loss): what both benches share. A test replays, on each
 * task's CPU at the same time, a trace of map operations (src/families/lru/lru_shared.h) into a BPF LRU hash, and
 * the same trace into a perfect LRU (src/families/lru/lru_sim.h); the benches compare the two.
 */
#ifndef MB_BENCHS_LRU_COMMON_H
#define MB_BENCHS_LRU_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lru_shared.h"
#include "core/bench.h"

enum lru_access {
	LRU_ACCESS_SYSCALL,	/* bpf_map_*_elem() from the task's thread (test_lru_dist) */
	LRU_ACCESS_BPF,		/* a program run by BPF_PROG_TEST_RUN on the task's CPU */
};

enum lru_flags_sel {
	LRU_FLAGS_BOTH,
	LRU_FLAGS_COMMON,
	LRU_FLAGS_NO_COMMON,
};

/* Choices of the family's enum options, in enum order. */
extern const char *const lru_map_type_names[];	/* lru_hash, lru_percpu_hash */
extern const char *const lru_flags_names[];	/* both, common, no_common */
extern const char *const lru_access_names[];	/* syscall, bpf */

/* The options that choose the LRU variants and how they are driven, in both benches' tables. */
#define LRU_VARIANT_OPTS(_type)										\
	MB_OPT_ENUM_DEF("map_type", _type, map_type, "lru_hash", lru_map_type_names,			\
			"LRU map type"),								\
	MB_OPT_ENUM_DEF("map_flags", _type, map_flags, "both", lru_flags_names,				\
			"Common LRU, per-CPU LRU lists (BPF_F_NO_COMMON_LRU), or both in turn"),	\
	MB_OPT_ENUM_DEF("access", _type, access, "syscall", lru_access_names,				\
			"Replay through bpf() syscalls (as test_lru_dist) or from a program on the task's CPU (lookups set the LRU reference bit)")

/* The most tasks and CPUs a test runs on (one task per CPU). */
#define LRU_MAX_TASKS MB_MAX_PRODUCERS

/* One map configuration under test. */
struct lru_variant {
	int type;		/* BPF_MAP_TYPE_LRU_HASH or BPF_MAP_TYPE_LRU_PERCPU_HASH */
	uint32_t flags;		/* 0 or BPF_F_NO_COMMON_LRU */
};

/* The variants --map_type and --map_flags select, common first. Returns how many. */
int lru_variants(int map_type_sel, int flags_sel, struct lru_variant *v);
const char *lru_type_name(int type);
/* "common" or "no_common". */
const char *lru_flags_label(uint32_t flags);

/*
 * Entries of a map that gives each task (common LRU: shared by @nr_tasks tasks) or each CPU
 * (no_common: the kernel splits max_entries evenly over the possible CPUs) @per_task entries.
 * Returns 0 when it does not fit in 32 bits.
 */
uint32_t lru_map_entries(uint32_t flags, uint32_t per_task, uint32_t nr_tasks);

/* An LRU map under test, and for --access bpf the program that replays into it. */
struct lru_map {
	int fd;
	struct lru_variant v;
	uint32_t max_entries;
	enum lru_access access;
	struct lru_bpf *skel;
	uint64_t *ops;		/* --access bpf: the mmapped operations array */
	size_t ops_len;		/* its entries */
	size_t ops_used;	/* filled so far (regions handed out to tasks) */
	size_t nr_values;	/* u64 values of one element as user space sees it (per CPU) */
};

/*
 * Create the map (and for --access bpf load the program, with room for @nr_ops operations of
 * all tasks together). Errors are reported with mb_run_fail/mb_run_skip.
 */
int lru_map_create(struct mb_run *run, struct lru_map *m, const struct lru_variant *v,
		   uint32_t max_entries, enum lru_access access, size_t nr_ops);
void lru_map_destroy(struct lru_map *m);
/*
 * Whether @key is in the map, through the syscall (which leaves the LRU order alone).
 * Returns 1, 0 or a negative errno.
 */
int lru_map_has(const struct lru_map *m, uint64_t key);
/*
 * Count the map's keys, and those of each task (key / @stride; @per_task may be NULL).
 * Returns 0 or a negative errno.
 */
int lru_map_count(const struct lru_map *m, uint64_t stride, int nr_tasks, uint64_t *total,
		  uint64_t *per_task);

/* One task: a trace of operations replayed on one CPU, and what it measured. */
struct lru_task {
	int idx;
	int cpu;
	const uint64_t *ops;	/* MB_LRU_ENCODE()d operations */
	size_t nr_ops;
	/* Results. */
	size_t done;		/* operations replayed (fewer when interrupted) */
	uint64_t hits;		/* lookups that found the key (ACCESS and LOOKUP) */
	uint64_t misses;	/* lookups that did not */
	uint64_t insert_failures;	/* inserts the map refused */
	int insert_errno;	/* errno of the first refused insert (syscall path) */
	uint64_t syscalls;	/* bpf() calls made */
	uint64_t wall_ns;	/* wall time of the replay */
	uint64_t kernel_ns;	/* --access bpf: in-kernel time of the replay */
	int err;		/* negative errno of a failure that stopped the task */
	char errmsg[160];
};

/* The CPU of task @i: --prod-affinity's i-th CPU, or else the i-th online CPU. */
int lru_task_cpu(const struct mb_run *run, int i);
/* How many tasks can run: one per CPU of --prod-affinity, or of the online CPUs. */
int lru_max_tasks(const struct mb_run *run);
/* Refuse more tasks than that (exit 2), naming @opt. */
int lru_validate_tasks(struct mb_run *run, const char *opt, uint32_t nr_tasks);

/*
 * Run every task on its CPU at the same time (one pinned thread each) and wait for all.
 * Returns 0, or the first task's error (reported with mb_run_fail).
 */
int lru_run_tasks(struct mb_run *run, struct lru_map *m, struct lru_task *tasks, int nr);

/* Statistics helpers for the report. */
static inline double lru_ratio(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

/* run->extra with the access path and the possible CPUs, its first keys. */
/*
 * The start of both benches' set-up: a zeroed state of @size bytes as run->priv (teardown
 * frees it), the runner's name, and the kernel check of --access bpf. Returns 0, or the
 * failure or skip, already reported.
 */
int lru_setup_begin(struct mb_run *run, enum lru_access access, size_t size);
struct mb_json *lru_extra(struct mb_run *run, enum lru_access access);
/*
 * Run the @nr variants @planned with @run_variant, each adding its object to extra.variants,
 * until one fails or a signal (those a signal left out go to extra.not_run); then pass the
 * variants' findings (@found, as lru_text.h's view says) to the run's sinks. Returns the first
 * error.
 */
int lru_run_variants(struct mb_run *run, enum lru_access access,
		     const struct lru_variant *planned, int nr, const void *found,
		     int (*run_variant)(struct mb_run *run, int vi, struct mb_json *variants));

/* The descriptor of lru-<_pfx>: its options, args, hooks and text are named _pfx_*. */
#define LRU_BENCH(_name, _pfx, _desc)					\
	{								\
		.name = _name,						\
		.family = "lru",					\
		.desc = _desc,						\
		.opts = _pfx##_opts,					\
		.args_size = sizeof(struct _pfx##_args),		\
		.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,	\
		.map_types = lru_map_type_names,			\
		.text = &lru_##_pfx##_text,				\
		.validate = _pfx##_validate,				\
		.setup = _pfx##_setup,					\
		.run_once = _pfx##_run_once,				\
		.teardown = _pfx##_teardown,				\
	}

/* Add the map's memlock figure to extra.memory.<type>_<common|no_common>. */
void lru_report_memory(struct mb_run *run, const struct lru_map *m);

#endif
