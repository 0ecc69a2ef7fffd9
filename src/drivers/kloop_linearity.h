/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The linearity self-check of the kernel's 2026 timing method (util/linearity.h) on the op
 * loop: the first producer, after the last sample, times 5 calls of N iterations and 5 of 2N,
 * interleaved, through the calls the samples counted (kloop_step.h). The result goes to
 * run->loop.linearity; the instrument's diagnose hook warns when 2N is not twice N.
 */
#ifndef MB_KLOOP_LINEARITY_H
#define MB_KLOOP_LINEARITY_H

#include <stdint.h>

#include "core/bench.h"

struct mb_kloop_cfg;

/* On producer @p's thread when its loop has stopped; @max_iters: its cap on a call. */
void mb_kloop_linearity(struct mb_run *run, struct mb_producer *p, const struct mb_kloop_cfg *cfg,
			uint64_t max_iters);
/* Main thread, after the producers: the run's warning when the check found 2N not twice N. */
void mb_kloop_linearity_warn(struct mb_run *run);

#endif
