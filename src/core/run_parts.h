/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef MB_RUN_PARTS_H
#define MB_RUN_PARTS_H

#include "bench.h"

/* The parts of a split run (run_parts.c): summarised at the run's end, freed with it. */
void mb_run_parts_summarize(struct mb_run *run);
void mb_run_parts_free(struct mb_run *run);

#endif
