/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the kernel made of a loaded op loop: its translated instructions (a remaining call to
 * the bpf_loop helper, calls to subprograms) and, on x86-64, its JITed image (the private
 * stack's frame-pointer set-up).
 */
#ifndef MB_LOOP_EVIDENCE_H
#define MB_LOOP_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/loop_info.h"

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
/* The same for the helper (any kernel function) named @helper. */
bool mb_loop_symbol_imm(FILE *kallsyms, const char *helper, int64_t *imm);

/*
 * How many calls to the helper function @helper (its kernel name: "bpf_get_current_task_btf")
 * the translated program @prog_fd makes; -ENOENT when kallsyms does not give its address,
 * -ENODATA when the program's instructions cannot be read. A helper the verifier inlines
 * shows no call. MB_LOOP_PROG_PRE's test counts the calls of its value's helper with it.
 */
int mb_loop_helper_calls(int prog_fd, const char *helper);

#endif
