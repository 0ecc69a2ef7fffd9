/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --latency on a path whose ops are syscalls (docs/methodology.md, "Per-op latency"): each
 * producer times one op in @every with the wall clock around it, and a third read at once
 * (the clock pair alone), into histograms of its own; the sampler adds what each measured
 * sample added to run->latency (core/latency.h), as drivers/kloop_latency.c does for the
 * in-kernel loop.
 */
#ifndef MB_USER_LATENCY_H
#define MB_USER_LATENCY_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>

#include "core/bench.h"
#include "core/run.h"
#include "util/lat_hist.h"

/* One producer's timed ops; only its thread writes them. */
struct mb_user_lat {
	struct mb_lat_hist op, timer;
	uint64_t until_next;		/* ops before the next timed one */
	uint64_t rng;			/* the gaps' xorshift state (0: not seeded yet) */
	unsigned int every;		/* a power of two */
} __attribute__((aligned(128)));

/*
 * In set-up, before the producers start: time one op in @every (a power of two, at least 2;
 * @ops_per_timed ops each, @timed what one is, plural, for the text: NULL for ops or
 * iterations) on this run's user-space path. 0, -EINVAL for another @every, or -ENOMEM.
 * Nothing without --latency.
 */
int mb_user_latency_start(struct mb_run *run, unsigned int every, unsigned int ops_per_timed,
			  const char *timed);
/* --latency on a path that does not time its ops: why, for the result (nothing without it). */
void mb_user_latency_unavailable(struct mb_run *run, const char *why);
/* Producer @idx's histograms, or NULL when the run does not time its ops. */
struct mb_user_lat *mb_user_latency_of(struct mb_run *run, int idx);

/*
 * Whether the producer's next op is one to time (@u may be NULL: never): the first, then
 * one in @every on average, the gaps drawn from @every / 2 .. 3 * @every / 2 (@every a power
 * of two) so that they do not alias with what a map does every 2^k ops, as the BPF side
 * does (kloop_lat.bpf.h).
 */
static inline bool mb_user_latency_due(struct mb_user_lat *u)
{
	uint64_t x;

	if (!u)
		return false;
	if (u->until_next) {
		u->until_next--;
		return false;
	}
	x = u->rng ? u->rng : 0x9e3779b97f4a7c15ULL;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	u->rng = x;
	u->until_next = u->every / 2 + x % (u->every + 1) - 1;
	return true;
}

/* A timed op: its clock reads before (@t0) and after (@t1) it, and the read after (@t2). */
void mb_user_latency_add(struct mb_user_lat *u, uint64_t t0, uint64_t t1, uint64_t t2);
/*
 * The end of a timed op that began at @t0 (mb_now_ns()): the clock read twice now, the op's
 * duration and the empty pair's added.
 */
static inline void mb_user_latency_end(struct mb_user_lat *u, uint64_t t0)
{
	uint64_t t1 = mb_now_ns();

	mb_user_latency_add(u, t0, t1, mb_now_ns());
}
/* Sampler side: the timed ops since the last read, added when @s is a measured sample. */
void mb_user_latency_sample(struct mb_run *run, const struct mb_sample *s);
void mb_user_latency_release(struct mb_run *run);

#endif
