/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The hash family (src/families/hash/hash*.c): map-lookup, map-lookup-miss, map-update, map-insert,
 * map-delete, map-mixed. This header holds what the family's files share: the options, the
 * run state, and the pure planning helpers (key ranges, streams, sizes) the unit tests check.
 */
#ifndef MB_BENCHS_HASH_H
#define MB_BENCHS_HASH_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>

#include "hash_shared.h"
#include "drivers/kloop.h"
#include "core/bench.h"
#include "maps/keys.h"
#include "maps/maps.h"
#include "drivers/map_create.h"
#include "drivers/map_fill.h"

enum hash_op {
	HASH_LOOKUP,	/* keys in the map */
	HASH_MISS,	/* keys not in the map */
	HASH_UPDATE,	/* existing keys, BPF_EXIST */
	HASH_INSERT,	/* new keys, BPF_NOEXIST; the range is emptied between rounds */
	HASH_DELETE,	/* existing keys; the range is refilled between rounds */
	HASH_MIXED,	/* update, lookup, delete of one absent key */
	HASH_KB_LOOKUP,	/* bpf-hashmap-lookup: the kernel bench's nested loops */
	HASH_KB_FULL,	/* bpf-hashmap-full-update: absent keys into a full map */
	HASH_OP_NR,
};

enum hash_path {
	HASH_PATH_KERNEL,	/* in-kernel op loop */
	HASH_PATH_SYSCALL,	/* bpf_map_*_elem from user space */
	HASH_PATH_BATCH,	/* bpf_map_*_batch from user space */
};

/*
 * --latency on the syscall path: one op in 64 timed with the wall clock (three reads, about
 * 60 ns here, beside a syscall of 1-2 us: 0.1 % of the time when spread over 64 ops).
 */
#define HASH_USER_LAT_EVERY	64
/*
 * On the batch path: one batch in 8, timed whole (its --batch_size elements in one call, and
 * the calls that go on after an element that failed): a batch of 256 takes 20-30 us here, so
 * the three reads cost under 0.1 %, and about 1 % at --batch_size 1 (a call of about 1 us).
 */
#define HASH_BATCH_LAT_EVERY	8

struct hash_args {
	const struct mb_map_type_info *map_type;
	const struct mb_map_type_info *inner_type;
	uint32_t map_flags;
	uint32_t max_entries;	/* 0 on the command line: derived by validate */
	uint32_t nr_entries;
	uint32_t key_size;
	uint32_t value_size;
	struct mb_key_dist key_dist;
	uint64_t seed;
	int path;		/* enum hash_path */
	uint32_t batch_size;
	int fill_order;		/* enum hash_fill_order */
	uint32_t nr_loops;	/* bpf-hashmap-*: map operations per program run */
	/*
	 * Not an option: the LRU head room validate added to a derived max_entries. The map has
	 * max_entries; params say max_entries - headroom, the entries asked for, so that results
	 * match across map types (LRU vs hash at the same size).
	 */
	uint32_t max_entries_headroom;
};

enum hash_fill_order {
	HASH_FILL_BUCKET,	/* in the map's bucket order: a fast fill, scattered elements */
	HASH_FILL_KEY,		/* in key order, as the kernel's benches fill (the default) */
};

/* Index-array entries per producer for streams that wrap (zipf draws, user-space uniform). */
#define HASH_STREAM_LEN		(1u << 18)
/* LRU head room: see hash_default_max_entries(). */
#define HASH_LRU_SLACK_PER_CPU	256
#define HASH_LRU_PERCPU_SLACK	64
/* User paths: producers that ran less of the wall time than this get a warning. */
#define HASH_CPU_SHARE_MIN	0.9

/* One producer's key stream. */
struct hash_stream {
	uint32_t base;		/* first key index of its range */
	uint32_t range;		/* keys in the range */
	uint32_t start;		/* first cursor (lookup streams start spread out) */
	uint64_t seed;		/* its own PRNG seed */
};

const char *hash_op_name(enum hash_op op);
/* Lookups, updates and mixed cycle through their range; inserts and deletes use it once. */
bool hash_op_wraps(enum hash_op op);
/* Whether the op needs every key of [0, nr_entries) to stay in the map. */
bool hash_op_resident(enum hash_op op);
/* Whether the op needs the map filled with [0, nr_entries) before it starts. */
bool hash_op_fills(enum hash_op op);

/* Entries the map must hold at once: the fill, plus one in-flight key per producer (mixed). */
uint64_t hash_need(enum hash_op op, uint32_t nr_entries, int nr_producers);

/*
 * Capacity when --max_entries is not given: @need, plus for LRU maps the head room that keeps
 * them from evicting the keys a bench relies on. A common LRU keeps up to 128 free nodes in
 * each CPU's local list and evicts when the global list runs low: 256 more per possible CPU.
 * With BPF_F_NO_COMMON_LRU each possible CPU gets max_entries / nr_cpus nodes and one CPU's
 * list may end up holding every key: (need + 64) per possible CPU. Returns 0 on overflow.
 */
uint64_t hash_default_max_entries(const struct mb_map_type_info *leaf, uint32_t flags,
				  uint64_t need, int possible_cpus);

/* Nodes one CPU's list gets in a BPF_F_NO_COMMON_LRU map. */
uint32_t hash_lru_cpu_capacity(uint32_t max_entries, int possible_cpus);

/*
 * Each producer's stream: lookups and updates share [0, nr_entries) with spread-out starts;
 * lookup-miss uses keys absent from the map (from @miss_base); inserts and deletes split
 * [0, nr_entries) into disjoint ranges; mixed splits [nr_entries, 2 nr_entries) likewise.
 */
void hash_streams(enum hash_op op, uint32_t nr_entries, uint32_t miss_base, uint64_t seed,
		  int nr_producers, struct hash_stream *out);

/* Where the in-kernel op takes its key indices from (enum mb_hash_src). */
int hash_kernel_src(enum hash_op op, const struct mb_key_dist *dist);

/* Entries of a producer's index array: the range for once-through streams, else fixed. */
uint32_t hash_stream_len(enum hash_op op, const struct hash_stream *s);

/*
 * Fill @out[0..len) with key indices of stream @s: a shuffled range for once-through streams
 * (every key exactly once), draws over the range otherwise (zipf: rank r is key base + r;
 * uniform; seq: base + (start + i) mod range). Returns 0 or -EINVAL.
 */
int hash_stream_indices(enum hash_op op, const struct hash_stream *s,
			const struct mb_key_dist *dist, uint32_t *out, uint32_t len);

/* ---- run state: made by hash_setup.c, used by hash_run.c (kernel path) and hash_user.c ---- */

struct hash_bpf;
struct bpf_program;
struct mb_filler;

struct hash_state {
	enum hash_op op;
	const struct hash_args *args;
	const struct mb_map_type_info *leaf;	/* the type the op works on */
	bool mim;				/* map-in-map: ops go to this CPU's inner map */
	struct hash_bpf *skel;
	struct bpf_program *op_prog;		/* the in-kernel op (kernel path) */
	int map_fd;				/* the leaf map (direct), or -1 */
	struct mb_cpu_maps mim_maps;		/* map-in-map: outer and per-CPU inner maps */
	uint64_t *idx;				/* mmapped mb_hash_idx, or NULL */
	size_t idx_bytes;
	uint32_t idx_entries;
	uint32_t idx_stride;			/* entries per producer region */
	bool bucket_fill;			/* fill in bucket order (large hash maps) */
	bool bucket_filled;			/* ... which the kernel let the fill use */
	struct mb_entries entries;		/* index keys, zero values */
	struct mb_filler *filler;		/* fill, refill, empty and check programs */
	uint32_t fill_base, fill_count;		/* the keys the fill puts in each map */
	uint32_t fixed_iters;			/* bpf-hashmap-*: iterations per call */
	int src;				/* enum mb_hash_src (kernel path) */
	struct hash_stream *streams;		/* [nr_producers] */
	uint32_t ops_per_iter;
	uint64_t evicted;			/* insert on LRU: keys gone before emptying */
	int nr_producers;
	struct hash_cpu *cpu;			/* user paths: [nr_producers] */
	uint64_t *last_cpu_ns;			/* sampler side */
};

/*
 * User paths: the CPU time a producer thread spent on its ops (refills excluded), published
 * for the sampler. On a busy machine the thread waits for a CPU between ops: its CPU time per
 * op is the op's cost, the wall time is not.
 */
struct hash_cpu {
	uint64_t ns;
} __attribute__((aligned(128)));

/*
 * The family's files in layers, each using only those above it in this list:
 * hash_plan.c: what the options and the bench say (pure).
 */

/* The names of --path, by enum hash_path. */
extern const char *const hash_path_names[];
/* The op a bench of the family measures (by the bench's name). */
enum hash_op hash_bench_op(const struct mb_bench *b);
/* The map type the ops work on: the inner type for map-in-map, else the map type. */
const struct mb_map_type_info *hash_leaf_type(const struct hash_args *a);
/* Possible CPUs (libbpf), at least 1: what LRU maps size their per-CPU lists by. */
int hash_possible_cpus(void);

/* hash_validate.c: the checks all the family's benches use (hash_kbench.c too). */
int hash_validate_kernel(struct mb_run *run, const struct hash_args *a);
int hash_validate_flags(struct mb_run *run, const struct hash_args *a, enum hash_op op);
int hash_validate(struct mb_run *run);

/* hash_setup.c: map creation, the fill, setup and teardown. */

/* Refill (delete) or empty (insert) producer @idx's range, between rounds. */
int hash_refill_range(struct hash_state *st, int idx, int cpu);
/* The map an op from user space on @cpu goes to (map-in-map: that CPU's inner map). */
int hash_user_fd(const struct hash_state *st, int cpu);
/* The setup and teardown all the family's benches use (hash_kbench.c too). */
int hash_setup(struct mb_run *run);
void hash_teardown(struct mb_run *run);

/* hash_user.c: producers of the syscall and batch paths. */
int hash_user_producer(struct mb_run *run, struct mb_producer *p);

/* hash_run.c: the in-kernel producer, the producer of --path, measure and finish. */
int hash_kernel_producer(struct mb_run *run, struct mb_producer *p);
int hash_producer(struct mb_run *run, struct mb_producer *p);
void hash_measure(struct mb_run *run, struct mb_sample *s);
void hash_finish(struct mb_run *run);

/* hash_text.c: the text lines of map-* and of the bpf-hashmap-* benches. */
struct mb_text_style;
extern const struct mb_text_style hash_text, hash_text_hml, hash_text_fu;

/* hash.c and hash_kbench.c, at the top: the options and the bench descriptors. */

#endif
