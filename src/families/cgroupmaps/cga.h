/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The cgroupmaps family's cgroup array benches (cgroup-array-*): what cga.c (descriptors),
 * cga_run.c (set-up, producer, check, teardown) and cga_text.c (lines) share; the skb
 * benches' producer is cg_pkt.h's.
 */
#ifndef MB_FAMILIES_CGA_H
#define MB_FAMILIES_CGA_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>

#include "core/bench.h"
#include "sys/cgroup2.h"
#include "cga_shared.h"

struct cga_bpf;

struct cga_state {
	bool in;			/* the producers are in the cgroup: every op answers 1 */
	bool skb;			/* bpf_skb_under_cgroup in a tc program, not the task's */
	struct mb_cgroup2 cg;		/* the cgroup the map's slot holds (joined when @in) */
	struct cga_bpf *skel;
};

/* cga_run.c */
int cga_setup(struct mb_run *run, bool in, bool skb);
int cga_producer(struct mb_run *run, struct mb_producer *p);
void cga_measure(struct mb_run *run, struct mb_sample *s);
void cga_finish(struct mb_run *run);
void cga_teardown(struct mb_run *run);

/* cga_text.c */
extern const struct mb_text_style cga_text;

#endif
