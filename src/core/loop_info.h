/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What a run records about the in-kernel op loop that ran it, as plain data: the drivers'
 * op loop (src/drivers/loop_kind.h) fills it, output reads it, core only carries it.
 */
#ifndef MB_LOOP_INFO_H
#define MB_LOOP_INFO_H

#include "util/linearity.h"

enum mb_loop_kind {
	MB_LOOP_AUTO,		/* --loop auto: may_goto where the kernel accepts it */
	MB_LOOP_MAY_GOTO,
	MB_LOOP_BPF_LOOP,
};

extern const char *const mb_loop_kind_names[];	/* indexed by enum mb_loop_kind */

/* -1: unknown (the kernel did not say), 0: no, 1: yes. */
struct mb_loop_info {
	int kind;		/* enum mb_loop_kind that ran (never AUTO) */
	int requested;		/* what --loop asked for */
	int bpf_loop_inlined;	/* bpf_loop kind: no call to the helper remains */
	int private_stack;	/* the JIT gave the program a private stack */
	int subprog_calls;	/* calls to BPF subprograms in the translated program */
	unsigned int lat_every;	/* --latency: one op in this many timed (0: none) */
	struct mb_linearity linearity;	/* the N vs 2N self-check (.done: it ran) */
	char why[160];		/* why this kind ran */
};

#endif
