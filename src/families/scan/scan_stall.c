// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * --stall_probe: what a walk costs others on its CPU. A probe thread pinned to the walker's
 * CPU reads the clock in a loop for as long as the walks run; a gap between two reads is
 * time it was kept off the CPU: by the scheduler giving the walker its turn, or by a walk's
 * syscall that does not give the CPU up. The longest gap is the figure (a large agent's
 * drain of a huge, almost empty map hurt its host's scheduling latency so).
 *
 * Its baseline: the walker takes turns, walks (with their checks and refills) for 20 ms or
 * more, then spins in user space for as long as those walks took, so the same probe, beside
 * the same thread on the same CPU, also sees what the scheduler gives a busy neighbour
 * anyway. Turns far longer than a scheduler slice (a few ms) keep the gaps that straddle two
 * turns few. The walker's phase is a counter, odd during its walks; a gap the probe saw while
 * the counter was odd or changed counts for the walks, any other for the baseline.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>

#include "scan.h"
#include "core/run.h"

#define STALL_LONG_NS	1000000ULL	/* gaps counted apart: 1 ms and longer */
#define STALL_TURN_NS	20000000ULL	/* the walker's turns of walks, at least */

struct scan_stall {
	pthread_t thread;
	int cpu;
	int stop;		/* atomic */
	uint64_t phase;		/* atomic: odd while the walker walks */
	int base_seen;		/* atomic: the probe timed a gap of the baseline */
	struct scan_stall_result r[SCAN_STALL_PHASES];
	/* The walker's own: whether in a turn of walks, and their time so far. */
	bool walking;
	uint64_t owed_ns;
};

static void gap_add(struct scan_stall_result *r, uint64_t gap)
{
	if (gap > r->longest_ns)
		r->longest_ns = gap;
	if (gap >= STALL_LONG_NS) {
		r->long_gaps++;
		r->long_ns += gap;
	}
	r->ns += gap;
}

static void *probe(void *arg)
{
	struct scan_stall *s = arg;
	uint64_t prev, now, p0, p1;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	prev = mb_now_ns();
	p0 = __atomic_load_n(&s->phase, __ATOMIC_ACQUIRE);
	while (!__atomic_load_n(&s->stop, __ATOMIC_RELAXED)) {
		now = mb_now_ns();
		p1 = __atomic_load_n(&s->phase, __ATOMIC_ACQUIRE);
		if ((p0 & 1) || p1 != p0) {
			gap_add(&s->r[SCAN_STALL_WALKS], now - prev);
		} else {
			gap_add(&s->r[SCAN_STALL_BASELINE], now - prev);
			__atomic_store_n(&s->base_seen, 1, __ATOMIC_RELAXED);
		}
		prev = now;
		p0 = p1;
	}
	return NULL;
}

int scan_stall_start(struct scan_state *st, int cpu)
{
	struct scan_stall *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	s->cpu = cpu;
	err = -pthread_create(&s->thread, NULL, probe, s);
	if (err) {
		free(s);
		return err;
	}
	st->stall = s;
	return 0;
}

void scan_stall_walk(struct scan_state *st)
{
	struct scan_stall *s = st->stall;

	if (!s || s->walking)
		return;
	s->walking = true;
	__atomic_add_fetch(&s->phase, 1, __ATOMIC_RELEASE);
}

/*
 * Spin for the walks' time, or until the run ends; and in any case until the probe has timed
 * a gap of the baseline once, so that a run with the probe always has one (the probe shares
 * the CPU: the scheduler lets it run within a few slices).
 */
static uint64_t spin(struct mb_run *run, struct scan_stall *s)
{
	uint64_t t0, now;

	if (s->walking) {
		s->walking = false;
		__atomic_add_fetch(&s->phase, 1, __ATOMIC_RELEASE);
	}
	t0 = now = mb_now_ns();
	while ((now - t0 < s->owed_ns && !mb_run_should_stop(run)) ||
	       !__atomic_load_n(&s->base_seen, __ATOMIC_RELAXED))
		now = mb_now_ns();
	s->owed_ns = 0;
	return now - t0;
}

uint64_t scan_stall_spin(struct mb_run *run, struct scan_state *st, uint64_t ns)
{
	struct scan_stall *s = st->stall;

	if (!s)
		return 0;
	s->owed_ns += ns;
	return s->owed_ns < STALL_TURN_NS ? 0 : spin(run, s);
}

void scan_stall_finish(struct mb_run *run, struct scan_state *st)
{
	struct scan_stall *s = st->stall;

	if (s && !__atomic_load_n(&s->base_seen, __ATOMIC_RELAXED)) {
		s->owed_ns = 0;
		spin(run, s);
	}
}

void scan_stall_stop(struct scan_state *st)
{
	struct scan_stall *s = st->stall;

	if (!s)
		return;
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
	pthread_join(s->thread, NULL);
	for (int i = 0; i < SCAN_STALL_PHASES; i++)
		st->stall_result[i] = s->r[i];
	st->stall_ran = true;
	free(s);
	st->stall = NULL;
}
