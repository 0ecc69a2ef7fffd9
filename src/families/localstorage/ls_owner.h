/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* local-storage-owners: what its set-up, producers and text share. */
#ifndef MB_LS_OWNER_H
#define MB_LS_OWNER_H

#include <stdint.h>

#include "core/bench.h"
#include "drivers/owners.h"
#include "ls_inner.h"

/* The three ways an owner is cycled, in turn: with no storage, one, --nr_maps. */
enum ls_owner_config { LS_OWNER_NONE, LS_OWNER_ONE, LS_OWNER_N, LS_OWNER_NR_CONFIGS };

/* Per-sample metrics (.metrics): ns per owner of each config, ns per attaching update. */
enum ls_owner_metric { LS_OWNER_M_NONE, LS_OWNER_M_ONE, LS_OWNER_M_N, LS_OWNER_M_ATTACH };

struct ls_owner_args {
	int storage;		/* enum mb_owner_kind: task, sk, cgrp, inode */
	uint32_t nr_maps;
};

/* One producer's running totals, read by the sampler (atomically, after its counters). */
struct ls_owner_prod {
	struct mb_owner_site site;	/* the producer's own: cgroup directories, files */
	uint64_t ns[LS_OWNER_NR_CONFIGS];	/* create + destroy time, per config */
	uint64_t owners;		/* owners cycled in each config */
	uint64_t attach_ns, attaches;	/* the updates that attach storage (not timed) */
	uint64_t last_ns[LS_OWNER_NR_CONFIGS], last_owners, last_attach_ns, last_attaches;
} __attribute__((aligned(64)));

struct ls_owner_state {
	const struct ls_owner_args *args;
	struct ls_inner maps;		/* [nr_maps] */
	uint32_t nr_maps;
	struct ls_owner_prod *prod;	/* [nr_producers] */
	int nr_producers;
	const char *owner_how;		/* how the owners' fds are made */
};

extern const struct mb_text_style ls_owner_text;
extern const struct mb_metric_desc ls_owner_metrics[];

/* ls_owner_run.c */
int ls_owner_producer(struct mb_run *run, struct mb_producer *p);
void ls_owner_measure(struct mb_run *run, struct mb_sample *s);
void ls_owner_finish(struct mb_run *run);

#endif
