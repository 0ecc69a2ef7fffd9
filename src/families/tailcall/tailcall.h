/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The tailcall family: its cases, its text style (tailcall_text.c), its slot updates. */
#ifndef MB_FAMILIES_TAILCALL_H
#define MB_FAMILIES_TAILCALL_H

#include <stdint.h>

struct mb_run;
struct mb_json;
struct mb_text_style;

/* throughput and in-kernel ns/op: the stock lines. */
extern const struct mb_text_style tailcall_text_ops;

/* The op each bench runs: which program of tailcall.bpf.c, and what it must have done. */
enum tc_case {
	TC_CASE_TAIL,		/* a subprogram tail-calls the target */
	TC_CASE_TAIL_VAR,	/* the same, with a key the verifier does not know */
	TC_CASE_MISS,		/* a subprogram tail-calls the empty slot and falls through */
	TC_CASE_DIRECT,		/* a subprogram does the target's work itself */
	TC_CASE_EMPTY,		/* nothing: the loop's own cost per op at this call size */
};

/*
 * Times @n BPF_MAP_UPDATE_ELEM of a prog_array slot @key with @prog_fd (the program it holds
 * already: the update still replaces it and repatches the JIT's direct jumps). Adds
 * "slot_update" to @extra. Returns 0 or -errno.
 */
int tc_time_slot_update(int map_fd, uint32_t key, int prog_fd, int n, struct mb_json *extra);

#endif
