// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * --churn: walks while the map changes. A second thread, on another CPU where there is one,
 * deletes and inserts the entries present .. present + churn - 1 (keys the fill never
 * made), one syscall each, in turn, for as long as the producer walks; the entries the fill
 * made stay, so what a walk sees of them (restarts from its first key, entries seen twice,
 * entries missed) is what the change did to the walk.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "scan.h"
#include "core/env.h"
#include "core/run.h"
#include "maps/maps.h"
#include "util/cpuset.h"

struct scan_churn {
	pthread_t thread;
	int fd;
	int cpu;		/* -1: not pinned */
	uint32_t first, n;
	size_t value_bytes;
	int stop;		/* atomic */
	uint64_t ops;		/* atomic, read after the join */
	int err;
};

static void *writer(void *arg)
{
	struct scan_churn *c = arg;
	void *val = calloc(1, c->value_bytes);
	cpu_set_t set;

	if (!val) {
		c->err = -ENOMEM;
		return NULL;
	}
	if (c->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(c->cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED) && !c->err) {
		for (uint32_t i = 0; i < c->n && !c->err; i++) {
			uint32_t k = c->first + i;

			/* Absent (the first round): nothing to delete. */
			if (bpf_map_delete_elem(c->fd, &k) && errno != ENOENT)
				c->err = -errno;
			else if (bpf_map_update_elem(c->fd, &k, val, BPF_ANY))
				c->err = -errno;
			__atomic_add_fetch(&c->ops, 2, __ATOMIC_RELAXED);
		}
	}
	free(val);
	return NULL;
}

/* An online CPU other than @cpu (the producer's, -1: unknown), or -1. */
static int other_cpu(const struct mb_run *run, int cpu)
{
	int c = -1;

	do
		c = mb_cpuset_next(&run->env->online, c + 1);
	while (c >= 0 && c == cpu);
	return c;
}

int scan_churn_start(struct mb_run *run, struct scan_state *st, int cpu)
{
	struct scan_churn *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return -ENOMEM;
	c->fd = st->fd;
	c->cpu = other_cpu(run, cpu >= 0 ? cpu : sched_getcpu());
	c->first = (uint32_t)st->present;
	c->n = st->a->churn;
	c->value_bytes = mb_map_value_bytes(st->type, st->a->value_size);
	err = -pthread_create(&c->thread, NULL, writer, c);
	if (err) {
		free(c);
		return err;
	}
	st->churn = c;
	return 0;
}

int64_t scan_churn_stop(struct scan_state *st)
{
	struct scan_churn *c = st->churn;
	int64_t ret;

	if (!c)
		return 0;
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELAXED);
	pthread_join(c->thread, NULL);
	ret = c->err ? c->err : (int64_t)c->ops;
	free(c);
	st->churn = NULL;
	return ret;
}
