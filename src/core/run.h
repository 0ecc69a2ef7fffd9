/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The run's own services, below the runner (run.c): the stop flag a signal sets, the clock,
 * and freeing what a run measured. The hooks' API itself is declared in bench.h.
 */
#ifndef MB_RUN_H
#define MB_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench.h"

/* SIGINT/SIGTERM set the stop flag: the runner ends the current run, the session the rest. */
void mb_signals_install(void);
bool mb_interrupted(void);

/* Current CLOCK_MONOTONIC time in ns. */
uint64_t mb_now_ns(void);
/* ISO 8601 UTC timestamp. */
void mb_timestamp(char *buf, size_t len);

/* What a run measured and reported (samples, summary, extra, warnings, params), as a part has. */
void mb_run_free_results(struct mb_run *run);

#endif
