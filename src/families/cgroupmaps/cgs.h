/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The cgroupmaps family's cgroup storage bench (cgroup-storage-get): what cgs.c (options,
 * descriptor), cgs_run.c (set-up, producer, check, teardown) and cgs_text.c (lines) share.
 */
#ifndef MB_FAMILIES_CGS_H
#define MB_FAMILIES_CGS_H

#include <stdint.h>
#include <linux/types.h>

#include "core/bench.h"
#include "cgs_shared.h"

/* --map_type */
enum cgs_type {
	CGS_SHARED,	/* BPF_MAP_TYPE_CGROUP_STORAGE */
	CGS_PERCPU,	/* BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE */
	CGS_TYPE_NR,
};

struct cgs_args {
	int map_type;		/* enum cgs_type */
};

struct cgs_bpf;

struct cgs_state {
	const struct cgs_args *args;
	struct cgs_bpf *skel;
	int prog_fd;
	uint64_t checked;	/* calls whose storage value was read back equal to their ops */
	uint64_t wrong;		/* calls whose value was not */
	uint64_t hits, errors;	/* the ops of those calls */
	uint64_t map_entries;	/* keys the map holds after the run (test_run's storage is not in it) */
};

/* cgs_run.c: the names of --map_type, and the hooks */
extern const char *const cgs_type_names[];
int cgs_setup(struct mb_run *run);
int cgs_producer(struct mb_run *run, struct mb_producer *p);
void cgs_measure(struct mb_run *run, struct mb_sample *s);
void cgs_finish(struct mb_run *run);
void cgs_teardown(struct mb_run *run);

/* cgs_text.c */
extern const struct mb_text_style cgs_text;

#endif
