/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The mapinmap family: what user space pays to replace, insert and delete an inner map of an
 * array_of_maps or hash_of_maps, one BPF_MAP_UPDATE_ELEM (or DELETE_ELEM) at a time, against
 * a plain array update, and whether each waits for an RCU grace period.
 */
#ifndef MB_FAMILIES_MIM_H
#define MB_FAMILIES_MIM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bench.h"

/* The cases, in the order they run and print. */
enum mim_case {
	MIM_CONTROL,	/* an array of 4-byte values (an fd's size): one element overwritten */
	MIM_GP,		/* membarrier(MEMBARRIER_CMD_GLOBAL): a bare synchronize_rcu() */
	MIM_REPLACE,	/* a slot that holds an inner map gets a new one */
	MIM_INSERT,	/* an empty slot gets an inner map */
	MIM_DELETE,	/* a slot's inner map is deleted */
	MIM_READER,	/* replace, while a program reads the outer map on another CPU */
	MIM_NR_CASES,
};

struct mim_args {
	int map_type;		/* index into mim_outer_names */
	int inner_type;		/* index into mim_inner_names */
	uint32_t max_entries;	/* the outer map's slots */
	uint32_t inner_entries;
	uint32_t nr_updates;	/* per case */
	uint32_t reader_us;	/* 0: no reader case */
	uint32_t max_case_ms;	/* a case stops there, with what it did */
};

extern const char *const mim_outer_names[];
extern const char *const mim_inner_names[];

/* The grace-period waits counted on the updating thread (mim_gp.bpf.c). */
struct mim_gp {
	uint64_t sync_calls, sync_ns;	/* synchronize_rcu() */
	uint64_t exp_calls, exp_ns;	/* synchronize_rcu_expedited() */
};

/* What one case did and measured. */
struct mim_result {
	bool ran;
	bool capped;		/* stopped at --max_case_ms */
	uint32_t done;		/* updates made and timed */
	uint32_t verified;	/* that read back as they should */
	uint32_t old_gone;	/* replace, delete: the old inner map's id was gone on return */
	double *ns;		/* [done], each update's time, sorted once the case ends */
	uint64_t sleeps;	/* the thread's voluntary context switches in the timed calls */
	double offcpu_ns;	/* their wall time less the thread's CPU time, summed */
	int err;		/* MIM_GP: why the case did not run (-errno), 0 */
	bool gp_known;
	struct mim_gp gp;
	uint64_t reader_runs, reader_lookups, reader_found;	/* MIM_READER */
};

struct mb_json;
struct mim_reader;
struct mim_gp_bpf;

struct mim_state {
	int outer_fd;
	int control_fd;
	uint32_t *slot_id;	/* [max_entries]: the id of the inner map each slot holds, 0: none */
	int outer_type, inner_type;	/* enum bpf_map_type */
	struct mim_gp_bpf *gp;		/* NULL: the waits cannot be counted (gp_why) */
	char gp_why[200];
	struct mim_reader *reader;
	char reader_why[200];		/* why the reader case does not run, or "" */
	int cpu_updater, cpu_reader;
	int rcu_expedited, rcu_normal;	/* /sys/kernel/rcu_*, -1: unknown */
	struct mim_result res[MIM_NR_CASES];
};

/* The case's name, as the text, the JSON and the figures label it. */
const char *mim_case_name(enum mim_case c);

/* mim_inner.c: inner maps. A new inner map of the bench's type: its fd, or -errno. */
int mim_inner_create(const struct mim_state *st, const struct mim_args *a);
/* The id the outer map's slot @slot reads back (0: empty), or -errno. */
int mim_slot_read(const struct mim_state *st, uint32_t slot, uint32_t *id);
/* Whether the map of @id is gone (1), still there (0), or -errno. */
int mim_id_gone(uint32_t id);

/* mim_cases.c: put an inner map in every slot (untimed). 0 or -errno, reported. */
int mim_fill(struct mb_run *run);
/* Run case @c, filling st->res[c] (delete fills MIM_INSERT too). 0 or -errno. */
int mim_case_run(struct mb_run *run, enum mim_case c);

/* mim_gp.c: load and attach the counters; on failure st->gp_why says why. */
void mim_gp_open(struct mim_state *st);
void mim_gp_close(struct mim_state *st);
/* Count on the calling thread from now on. */
void mim_gp_target_self(struct mim_state *st);
void mim_gp_read(const struct mim_state *st, struct mim_gp *g);

/* mim_reader.c: the reader program on @cpu, holding the read lock @hold_us per run. */
int mim_reader_open(struct mb_run *run, struct mim_state *st, uint32_t hold_us);
/* Start its thread; return once it has run at least once. 0 or -errno. */
int mim_reader_start(struct mim_reader *r);
/* Stop and join the thread; its totals so far. */
void mim_reader_stop(struct mim_reader *r, uint64_t *runs, uint64_t *lookups, uint64_t *found);
void mim_reader_close(struct mim_reader *r);

/* The statistics of a case's sorted times, in microseconds. */
struct mim_dist {
	double mean, min, p50, p90, p99, max;
};
void mim_dist(const struct mim_result *r, struct mim_dist *d);

/*
 * mim_report.c: run->extra from the results, after the cases; then the check that every
 * timed update did what it should. 0, or the failure, reported.
 */
int mim_report(struct mb_run *run);
/* mim_verdict.c: what the run concludes about grace-period waits, into the object @v. */
void mim_verdict(struct mb_run *run, struct mb_json *v);

#endif
