/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The stacktrace family (stack-trace-*): bpf_get_stackid() into a BPF_MAP_TYPE_STACK_TRACE
 * in the in-kernel op loop. This header holds what the family's files share.
 */
#ifndef MB_FAMILIES_STACKTRACE_H
#define MB_FAMILIES_STACKTRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>

#include "core/bench.h"
#include "drivers/kloop_shared.h"
#include "st_shared.h"

struct st_args {
	uint32_t max_entries;	/* stack ids the map holds; buckets: the next power of two */
	uint32_t depth;		/* frames kept per trace: value_size / 8 */
	uint32_t stacks;	/* distinct traces the ops cycle through (skip 0..stacks-1) */
	bool user;		/* BPF_F_USER_STACK */
	bool reuse;		/* BPF_F_REUSE_STACKID */
};

struct stacktrace_bpf;

struct st_state {
	struct stacktrace_bpf *skel;
	struct mb_counters done[MB_MAX_SLOTS];	/* each producer's ops at its end */
};

/* What the map holds, walked from user space (st_walk.c). */
struct st_walk {
	uint64_t ids;		/* stack ids in the map */
	uint64_t frames;	/* frames of all of them (non-zero addresses) */
	uint64_t max_frames;	/* frames of the longest */
};

/* st_walk.c: every id of the map and its trace. 0 or a negative errno. */
int st_walk_map(int fd, uint32_t depth, struct st_walk *w);

/* st_run.c: the run's hooks. */
int st_setup(struct mb_run *run);
int st_producer(struct mb_run *run, struct mb_producer *p);
void st_finish(struct mb_run *run);
void st_teardown(struct mb_run *run);

/* st_text.c */
extern const struct mb_text_style st_text;

#endif
