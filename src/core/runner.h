/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Runs one bench: threads, CPU pinning, the sampling clock, stop and teardown. */
#ifndef MB_RUNNER_H
#define MB_RUNNER_H

#include <stdbool.h>

#include "bench.h"
#include "run.h"
#include "env.h"

/* Allocate the run and its args, filled with the bench's defaults. */
int mb_run_init(struct mb_run *run, const struct mb_bench *bench, const struct mb_env *env);
void mb_run_free(struct mb_run *run);

/*
 * Global checks (consumers, single producer, CPU sets) and the bench's validate hook.
 * Returns -EINVAL on a usage error (already reported).
 */
int mb_run_validate(struct mb_run *run);

/*
 * The CPU that producer @i is pinned to under @env's options (-a, --prod-affinity,
 * --cons-affinity) with @nr_consumers consumers, or -1 when producers are not pinned (the
 * scheduler places them).
 */
int mb_run_producer_cpu(const struct mb_env *env, int nr_consumers, int i);

/* Probe, set up, sample, finish, tear down. The outcome is in run->status. */
void mb_run_execute(struct mb_run *run);


#endif
