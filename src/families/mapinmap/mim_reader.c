// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-in-map-replace's reader: a thread pinned to a CPU of its own runs the reading program
 * (mim_reader.bpf.c) again and again by BPF_PROG_TEST_RUN, so that at almost any moment a run
 * holds the RCU read lock while it reads the outer map: the users' case, a program that uses
 * the inner map while user space replaces it.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/bench.h"
#include "core/run.h"
#include "mim.h"
#include "mim_reader.skel.h"

/* How long the start waits for the first run before it gives up. */
#define MIM_READER_START_NS	(5ULL * 1000 * 1000 * 1000)

struct mim_reader {
	struct mim_reader_bpf *skel;
	int cpu;
	int stop;		/* atomic */
	int err;		/* the thread's first failure, -errno */
	bool running;
	pthread_t thread;
};

int mim_reader_open(struct mb_run *run, struct mim_state *st, uint32_t hold_us)
{
	struct mim_reader *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	r->cpu = st->cpu_reader;
	st->reader = r;
	r->skel = mim_reader_bpf__open();
	if (!r->skel)
		return mb_run_fail(run, -errno, "cannot open the reader program: %s",
				   strerror(errno));
	r->skel->rodata->mb_mim_slots = ((const struct mim_args *)run->args)->max_entries;
	r->skel->rodata->mb_mim_hold_ns = (uint64_t)hold_us * 1000;
	err = bpf_map__reuse_fd(r->skel->maps.mb_mim_outer, st->outer_fd);
	if (!err)
		err = mim_reader_bpf__load(r->skel);
	if (err)
		return mb_run_fail(run, err, "cannot load the reader program: %s", strerror(-err));
	return 0;
}

static void *reader_main(void *arg)
{
	struct mim_reader *r = arg;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = r->cpu);
	int fd = bpf_program__fd(r->skel->progs.mb_mim_reader);
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(r->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		if (bpf_prog_test_run_opts(fd, &opts)) {
			__atomic_store_n(&r->err, -errno, __ATOMIC_RELAXED);
			break;
		}
	}
	return NULL;
}

int mim_reader_start(struct mim_reader *r)
{
	uint64_t end = mb_now_ns() + MIM_READER_START_NS;
	uint64_t runs0 = __atomic_load_n(&r->skel->bss->mb_mim_runs, __ATOMIC_ACQUIRE);
	struct timespec pause = { .tv_nsec = 100 * 1000 };
	int err;

	r->stop = 0;
	err = pthread_create(&r->thread, NULL, reader_main, r);
	if (err)
		return -err;
	r->running = true;
	/* Measure only once the reader reads: a run has ended since the start. */
	while (__atomic_load_n(&r->skel->bss->mb_mim_runs, __ATOMIC_ACQUIRE) == runs0) {
		err = __atomic_load_n(&r->err, __ATOMIC_RELAXED);
		if (err || mb_now_ns() > end)
			return err ? err : -ETIMEDOUT;
		nanosleep(&pause, NULL);
	}
	return 0;
}

void mim_reader_stop(struct mim_reader *r, uint64_t *runs, uint64_t *lookups, uint64_t *found)
{
	if (r->running) {
		__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
		pthread_join(r->thread, NULL);
		r->running = false;
	}
	*runs = __atomic_load_n(&r->skel->bss->mb_mim_runs, __ATOMIC_ACQUIRE);
	*lookups = r->skel->bss->mb_mim_lookups;
	*found = r->skel->bss->mb_mim_found;
}

void mim_reader_close(struct mim_reader *r)
{
	uint64_t runs, lookups, found;

	if (!r)
		return;
	if (r->skel)
		mim_reader_stop(r, &runs, &lookups, &found);
	mim_reader_bpf__destroy(r->skel);
	free(r);
}
