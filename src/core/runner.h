/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Runs one bench: threads, CPU pinning, the sampling clock, stop and teardown. */
#ifndef MB_RUNNER_H
#define MB_RUNNER_H

#include <stdbool.h>

#include "bench.h"
#include "env.h"

/* Allocate the run and its args, filled with the bench's defaults. */
int mb_run_init(struct mb_run *run, const struct mb_bench *bench, const struct mb_env *env);
void mb_run_free(struct mb_run *run);
/* What a run measured and reported (samples, summary, extra, warnings, params), as a part has. */
void mb_run_free_results(struct mb_run *run);

/*
 * Global checks (consumers, single producer, CPU sets) and the bench's validate hook.
 * Returns -EINVAL on a usage error (already reported).
 */
int mb_run_validate(struct mb_run *run);

/*
 * The CPU that producer @i is pinned to under @env's options (-a, --prod-affinity,
 * --cons-affinity), or -1 when producers are not pinned (the scheduler places them).
 */
int mb_run_producer_cpu(const struct mb_env *env, int i);

/* Probe, set up, sample, finish, tear down. The outcome is in run->status. */
void mb_run_execute(struct mb_run *run);

/* The parts of a split run (run_parts.c): summarised at the run's end, freed with it. */
void mb_run_parts_summarize(struct mb_run *run);
void mb_run_parts_free(struct mb_run *run);

/* SIGINT/SIGTERM stop the current run; its samples are reported as interrupted. */
void mb_signals_install(void);
bool mb_interrupted(void);

/* Current CLOCK_MONOTONIC time in ns. */
uint64_t mb_now_ns(void);
/* ISO 8601 UTC timestamp. */
void mb_timestamp(char *buf, size_t len);

#endif
