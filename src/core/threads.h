/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A run's threads: consumers first, then producers, each pinned where its CPU says; stopping
 * them in that order's reverse, so that consumers see everything the producers made.
 */
#ifndef MB_THREADS_H
#define MB_THREADS_H

#include <stdint.h>

#include "bench.h"

/* How many threads of each kind started, for mb_threads_stop(). */
struct mb_threads {
	int producers;
	int consumers;
};

/* Start them; on failure the run is failed and @t says what to stop. */
int mb_threads_start(struct mb_run *run, struct mb_threads *t);
/* Wait until every started thread runs (or the run stops). */
void mb_threads_wait_running(struct mb_run *run);
/* Let the producers begin, once the sampler has read its baseline. */
void mb_threads_go(struct mb_run *run);
/* Stop and join the producers, then let the consumers drain and join them. */
void mb_threads_stop(struct mb_run *run, const struct mb_threads *t);
/* CPU time a thread has had, in ns (0 when its clock cannot be read). */
uint64_t mb_thread_cpu_ns(const struct mb_producer *p);

#endif
