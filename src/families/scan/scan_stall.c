// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * --stall_probe: what a walk costs others on its CPU. A probe thread pinned to the walker's
 * CPU reads the clock in a loop for as long as the walks run; a gap between two reads is
 * time it was kept off the CPU: by the scheduler giving the walker its turn, or by a walk's
 * syscall that does not give the CPU up. The longest gap is the figure (a large agent's
 * drain of a huge, almost empty map hurt its host's scheduling latency so).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "scan.h"
#include "core/run.h"

#define STALL_LONG_NS	1000000ULL	/* gaps counted apart: 1 ms and longer */

struct scan_stall {
	pthread_t thread;
	int cpu;
	int stop;		/* atomic */
	struct scan_stall_result r;
};

static void *probe(void *arg)
{
	struct scan_stall *s = arg;
	uint64_t prev, now, gap, t0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	t0 = prev = mb_now_ns();
	while (!__atomic_load_n(&s->stop, __ATOMIC_RELAXED)) {
		now = mb_now_ns();
		gap = now - prev;
		if (gap > s->r.longest_ns)
			s->r.longest_ns = gap;
		if (gap >= STALL_LONG_NS) {
			s->r.long_gaps++;
			s->r.long_ns += gap;
		}
		prev = now;
	}
	s->r.ns = prev - t0;
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

void scan_stall_stop(struct scan_state *st)
{
	struct scan_stall *s = st->stall;

	if (!s)
		return;
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
	pthread_join(s->thread, NULL);
	st->stall_result = s->r;
	st->stall_ran = true;
	free(s);
	st->stall = NULL;
}
