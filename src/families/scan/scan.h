/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The scan family: what walking, dumping and draining a whole map costs, by each method a
 * user has (get_next_key with lookups, lookup batches, lookup-and-delete batches, delete by
 * key, a map-element iterator, bpf_for_each_map_elem), at any capacity and fullness. One walk
 * is one op; every walk is checked (entries found and their fingerprint, drains: the map left
 * empty) before it counts. Files: scan.c (options, checks, descriptor), scan_methods.c
 * (which type has which method), scan_setup.c (the map, its fill and refill), scan_walk.c
 * (one walk by each method), scan_prog.c (the BPF methods), scan_run.c (the producer and
 * the result), scan_text.c (its lines).
 */
#ifndef MB_FAMILIES_SCAN_H
#define MB_FAMILIES_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bench.h"
#include "drivers/map_entries.h"

enum scan_method {
	SCAN_GET_NEXT_KEY,	/* get_next_key, and a lookup per key */
	SCAN_LOOKUP_BATCH,
	SCAN_LOOKUP_AND_DELETE_BATCH,	/* a drain */
	SCAN_DELETE,		/* get_next_key, and a delete per key: a drain */
	SCAN_ITER,		/* an iter/bpf_map_elem program read through its iterator fd */
	SCAN_FOR_EACH,		/* bpf_for_each_map_elem in a raw_tp program run by test_run */
	SCAN_NR_METHODS,
};

#define SCAN_METHOD(m)	(1u << (m))
#define SCAN_MISCOUNT_ENV	"MAPBENCH_SCAN_MISCOUNT"
#define SCAN_MAX_ENTRIES	(1u << 24)	/* the largest map: 16M */

extern const char *const scan_method_names[];
extern const char *const scan_type_names[];

/* --fill: a count of entries, or a fraction of the capacity (NaN: a count). */
struct scan_fill {
	double frac;
	uint32_t count;
};

struct scan_args {
	int method;		/* enum scan_method */
	int map_type;		/* index into scan_type_names */
	uint32_t map_flags;
	uint32_t max_entries;
	struct scan_fill fill;
	uint32_t batch_size;
	uint32_t value_size;
	uint32_t churn;		/* keys a second thread deletes and inserts during the walks */
	bool stall_probe;	/* a probe thread on the walker's CPU times its longest stall */
	/* Resolved by validate. */
	uint32_t entries;	/* the fill as a count */
};

/*
 * What --stall_probe measured: its longest time off the CPU, gaps of 1 ms or more, and the
 * time it ran, while the walker walked and while it spun in user space (the baseline).
 */
enum scan_stall_phase {
	SCAN_STALL_WALKS,
	SCAN_STALL_BASELINE,
	SCAN_STALL_PHASES,
};

struct scan_stall_result {
	uint64_t longest_ns;
	uint64_t long_gaps, long_ns;
	uint64_t ns;		/* the time it ran */
};

/* A run's state. */
struct scan_state {
	const struct scan_args *a;
	const struct mb_map_type_info *type;
	enum scan_method method;
	int fd;			/* the map walked */
	int inner_fd;		/* hash_of_maps: the inner map every entry holds */
	uint32_t key_size;
	struct mb_entries e;
	struct mb_filler *filler;	/* in-kernel refills, or NULL: from user space */
	uint64_t present;	/* entries in the map when it is full */
	uint64_t sum;		/* their fingerprint (scan_mix of each entry number, summed) */
	struct scan_prog *prog;	/* the BPF methods */
	/*
	 * Tests only (MAPBENCH_SCAN_MISCOUNT=N, SCAN_MISCOUNT_ENV): the syscall walks take entry N
	 * for N + 1, as a walk that saw N + 1 twice and missed N would; -1: none.
	 */
	int64_t miscount;
	/* Asked during the syscall walks: true when the run ends (the walk then stops). */
	bool (*stop)(void *ctx);
	void *stop_ctx;
	uint64_t refills;
	/*
	 * --churn: the writer thread, and what the walks saw of the present entries (0..n-1,
	 * which it never touches): seen[k] counts entry k in the walk under way.
	 */
	struct scan_churn *churn;
	uint8_t *seen;
	uint64_t walks_all;	/* every walk counted, samples or not */
	uint64_t writer_ops;	/* the writer's deletes and inserts */
	struct scan_stall *stall;	/* --stall_probe */
	struct scan_stall_result stall_result[SCAN_STALL_PHASES];
	bool stall_ran;
	uint64_t restarts, twice, missed, churned;	/* over them */
};

/* The entries, syscalls and fingerprint of one walk. */
struct scan_walk {
	uint64_t entries;
	uint64_t calls;
	uint64_t sum;
	/* --churn: the walk's first key, returns to it, entries seen again, the writer's keys. */
	bool started;
	uint32_t first;
	uint64_t restarts, twice, churned;
};

/* scan_churn.c: the writer of --churn, on another CPU than @cpu where there is one. */
int scan_churn_start(struct mb_run *run, struct scan_state *st, int cpu);
/* Stop and join it: the ops it made (deletes and inserts), or -errno where it failed. */
int64_t scan_churn_stop(struct scan_state *st);

/* scan_stall.c: the probe of --stall_probe on @cpu; stop joins it and keeps its result. */
int scan_stall_start(struct scan_state *st, int cpu);
void scan_stall_stop(struct scan_state *st);
/* The walker: a walk begins (no-ops without the probe) ... */
void scan_stall_walk(struct scan_state *st);
/*
 * ... it ended, after @ns: at the end of a turn of walks (20 ms or more), spin in user space
 * as long as they took (the baseline), or until the run ends; the time spun.
 */
uint64_t scan_stall_spin(struct mb_run *run, struct scan_state *st, uint64_t ns);
/* After the last walk: where the run ended before a turn did, spin until the probe saw it. */
void scan_stall_finish(struct mb_run *run, struct scan_state *st);

/* scan_methods.c: the methods map type @type has (SCAN_METHOD() ORed). */
unsigned int scan_methods_of(const struct mb_map_type_info *type);
bool scan_drains(enum scan_method m);

/* scan_setup.c */
int scan_setup(struct mb_run *run);
void scan_teardown(struct mb_run *run);
/* Fill the map again after a drain, outside the timed walk. 0 or -errno, reported. */
int scan_refill(struct mb_run *run, struct scan_state *st);

/* scan_walk.c: the entry number of a key of the map. */
uint32_t scan_key_entry(const struct scan_state *st, const void *key);
/* Before a walk, outside its time: forget what the last one saw (--churn). */
void scan_walk_prepare(struct scan_state *st);
/* One walk of the map by the run's method; 0 or -errno. */
int scan_walk_once(struct scan_state *st, struct scan_walk *out);
/* Whether @out saw each present entry once (a drain: and left the map empty). */
int scan_walk_check(struct mb_run *run, struct scan_state *st, const struct scan_walk *out);

/* scan_prog.c: the BPF methods' program, for the map of @st (reported on @run). */
int scan_prog_open(struct mb_run *run, struct scan_state *st);
void scan_prog_close(struct scan_state *st);
int scan_prog_walk(struct scan_state *st, struct scan_walk *out);

/* scan_run.c */
int scan_producer(struct mb_run *run, struct mb_producer *p);
void scan_finish(struct mb_run *run);

#endif
