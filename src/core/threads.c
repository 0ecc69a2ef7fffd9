// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "run.h"
#include "threads.h"

/* Until the sampler has its baseline (or the run stops before it). */
static void wait_sampling(struct mb_run *run)
{
	struct timespec ts = { .tv_nsec = 20000 };

	while (!__atomic_load_n(&run->sampling, __ATOMIC_ACQUIRE) && !mb_run_should_stop(run) &&
	       !mb_interrupted())
		nanosleep(&ts, NULL);
}

static void *producer_main(void *arg)
{
	struct mb_producer *p = arg;
	struct mb_run *run = p->run;

	__atomic_store_n(&p->started, true, __ATOMIC_RELEASE);
	wait_sampling(run);
	if (__atomic_load_n(&run->sampling, __ATOMIC_ACQUIRE))
		p->err = run->bench->producer(run, p);
	if (p->err) {
		/* One failed producer ends the run: the others would measure a different load. */
		__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
	}
	__atomic_add_fetch(&run->producers_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *consumer_main(void *arg)
{
	struct mb_producer *c = arg;
	struct mb_run *run = c->run;

	__atomic_store_n(&c->started, true, __ATOMIC_RELEASE);
	c->err = run->bench->consumer(run, c);
	if (c->err)
		__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
	return NULL;
}

/* Start @n threads of @kind over @slots; *@started counts those that did. */
static int start_kind(struct mb_run *run, struct mb_producer *slots, int n, const char *kind,
		      void *(*main_fn)(void *), int *started)
{
	int err = 0;

	for (*started = 0; *started < n; (*started)++) {
		struct mb_producer *p = &slots[*started];
		pthread_attr_t attr;
		cpu_set_t cpus;

		pthread_attr_init(&attr);
		if (p->cpu >= 0) {
			CPU_ZERO(&cpus);
			CPU_SET(p->cpu, &cpus);
			pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
		}
		err = -pthread_create(&p->thread, &attr, main_fn, p);
		pthread_attr_destroy(&attr);
		if (!err) {
			p->has_cpu_clock = !pthread_getcpuclockid(p->thread, &p->cpu_clock);
			continue;
		}
		if (p->cpu >= 0)
			mb_run_fail(run, err, "cannot start %s %d pinned to CPU %d: %s", kind,
				    *started, p->cpu, strerror(-err));
		else
			mb_run_fail(run, err, "cannot start %s %d: %s", kind, *started,
				    strerror(-err));
		break;
	}
	return err;
}

int mb_threads_start(struct mb_run *run, struct mb_threads *t)
{
	sigset_t block, old;
	int err = 0;

	memset(t, 0, sizeof(*t));
	/* Only the sampler (main) thread takes SIGINT/SIGTERM. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	/* Consumers first, as the kernel's bench starts them: nothing produced goes unseen. */
	if (run->bench->consumer)
		err = start_kind(run, run->cons, run->nr_consumers, "consumer", consumer_main,
				 &t->consumers);
	if (!err)
		err = start_kind(run, run->prod, run->nr_producers, "producer", producer_main,
				 &t->producers);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

static void wait_slots(struct mb_run *run, struct mb_producer *slots, int n)
{
	struct timespec ts = { .tv_nsec = 100000 };

	for (int i = 0; i < n; i++)
		while (!__atomic_load_n(&slots[i].started, __ATOMIC_ACQUIRE) &&
		       !mb_run_should_stop(run) && !mb_interrupted())
			nanosleep(&ts, NULL);
}

void mb_threads_wait_running(struct mb_run *run)
{
	if (run->bench->consumer)
		wait_slots(run, run->cons, run->nr_consumers);
	wait_slots(run, run->prod, run->nr_producers);
}

void mb_threads_go(struct mb_run *run)
{
	__atomic_store_n(&run->sampling, 1, __ATOMIC_RELEASE);
}

void mb_threads_stop(struct mb_run *run, const struct mb_threads *t)
{
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < t->producers; i++)
		pthread_join(run->prod[i].thread, NULL);
	/* Every record is made now: the consumers take the rest and return. */
	__atomic_store_n(&run->cons_stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < t->consumers; i++)
		pthread_join(run->cons[i].thread, NULL);
}

uint64_t mb_thread_cpu_ns(const struct mb_producer *p)
{
	struct timespec ts;

	if (!p->has_cpu_clock || clock_gettime(p->cpu_clock, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}
