/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --latency in the op loop (kloop_lat.bpf.h): the loop's instrument asks for the timed twin of
 * each op's program, the first producer finds the histogram map of the program it runs, and
 * the sampler adds each measured sample's timed ops, merged over the CPUs, to run->latency
 * (core/latency.h).
 */
#ifndef MB_KLOOP_LATENCY_H
#define MB_KLOOP_LATENCY_H

#include <stdint.h>

#include "core/bench.h"

/* Instrument prepare, after the loop's kind is chosen: time ops where that loop can. */
void mb_kloop_latency_prepare(struct mb_run *run);
/* On the first producer's thread, before its first call: the map of @prog_fd's histograms. */
void mb_kloop_latency_attach(struct mb_run *run, int prog_fd, uint32_t ops_per_iter);
/* Sampler side: the timed ops since the last read, added when @s is a measured sample. */
void mb_kloop_latency_sample(struct mb_run *run, const struct mb_sample *s);
void mb_kloop_latency_release(struct mb_run *run);

#endif
