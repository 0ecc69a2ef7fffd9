/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Which in-kernel op loop runs (src/core/mb_loop.bpf.h makes two programs per op) and what the
 * kernel made of it. The choice: may_goto (no call per op) where the kernel accepts the
 * instruction, bpf_loop otherwise, or what --loop forces. The evidence: the loaded program's
 * translated instructions (a remaining call to the bpf_loop helper, calls to subprograms) and,
 * on x86-64, its JITed image (the private stack's frame-pointer set-up).
 */
#ifndef MB_LOOP_KIND_H
#define MB_LOOP_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct bpf_object_skeleton;

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
	char why[160];		/* why this kind ran */
};

/* Set (to anything): the may_goto probe reports a refusal, as a kernel before 6.9 would. */
#define MB_LOOP_REFUSE_ENV "MAPBENCH_REFUSE_MAY_GOTO"

/* Does the running kernel accept may_goto? Probed once with a three-instruction program. */
bool mb_loop_may_goto_supported(void);

/* The kind to load for @requested; fills @info's kind, requested and why. */
enum mb_loop_kind mb_loop_kind_pick(enum mb_loop_kind requested, struct mb_loop_info *info);

/*
 * Between a skeleton's __open() and __load(): keep only @kind's program of each op. For
 * bpf_loop the skeleton's pointer to each op's program is turned to its _bl twin, so the
 * bench's code (autoload, fds) works on whichever program was kept.
 */
void mb_loop_prepare(const struct bpf_object_skeleton *s, enum mb_loop_kind kind);

/* Reads the evidence of a loaded program into @info (leaves kind/requested/why). */
void mb_loop_inspect(int prog_fd, struct mb_loop_info *info);

/* Pure parts, for the tests: */
struct mb_loop_evidence {
	int helper_calls_to_loop;	/* -1 when the helper's address is unknown */
	int subprog_calls;
};
void mb_loop_scan_xlated(const void *insns, size_t len, int64_t loop_imm,
			 struct mb_loop_evidence *ev);
/* 1 when the x86-64 image sets up a private frame pointer (add r9, gs:[...]), else 0. */
int mb_loop_scan_jited_x86(const uint8_t *image, size_t len);
/*
 * The immediate a call to the bpf_loop helper has in a translated program (the helper's
 * address less __bpf_call_base), from /proc/kallsyms text; false when it does not say.
 */
bool mb_loop_helper_imm(FILE *kallsyms, int64_t *imm);

#endif
