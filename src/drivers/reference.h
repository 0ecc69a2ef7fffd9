/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The reference program (reference.bpf.c, the empty op loop) of a run: loaded after set-up in
 * the loop kind the bench runs, its fastest calls give the loop's own cost
 * (run->loop_overhead_ns), and calls of it between the bench's calls give each sample's drift
 * reference (kref.h). Its state is run->instrument_state.
 */
#ifndef MB_REFERENCE_H
#define MB_REFERENCE_H

#include <stdint.h>

#include "core/bench.h"

/* Load the reference program and measure the empty loop's cost (run->loop_overhead_ns). */
void mb_reference_calibrate(struct mb_run *run);
/* Sampler side: @s->ref_median / ref_calls of the reference calls made during @s (NULL: none). */
void mb_reference_sample(struct mb_run *run, struct mb_sample *s);
/* Producer side: a reference call when one is due (mb_kloop_reference()). */
int mb_reference_call(struct mb_run *run, struct mb_producer *p, struct mb_counters *c,
		      uint64_t *next_ref);
void mb_reference_release(struct mb_run *run);

#endif
