// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/env.h"
#include "kloop_call.h"
#include "kref.h"
#include "core/run.h"
#include "util/stats.h"

#define KREF_LOG	64		/* calls a producer keeps for the sampler: 4 intervals */
#define KREF_MAX_ITERS	(1u << 23)	/* bpf_loop's limit */

/* One producer's reference calls, written by it alone; head is stored after the entry. */
struct kref_log {
	uint64_t head;			/* calls logged so far */
	uint64_t iters;			/* this producer's work per call (0: not yet set) */
	uint64_t ns[KREF_LOG];		/* in-kernel ns of call i, at i % KREF_LOG */
	uint64_t ops[KREF_LOG];
} __attribute__((aligned(128)));

struct mb_kref {
	int prog_fd;
	struct mb_slot *slots;
	uint64_t iters;			/* per call: fixed work, whose time is the measure */
	double call_ns;			/* the time a call is planned to take */
	uint64_t period_ns;		/* from one call of a producer to its next */
	int nr;				/* producers */
	struct kref_log *logs;		/* [nr] */
	uint64_t *tails;		/* [nr], the sampler's: first call no sample has taken */
	double *scratch;		/* [nr * KREF_LOG] */
};

struct mb_kref *mb_kref_new(const struct mb_run *run, int prog_fd, struct mb_slot *slots,
			    double loop_ns)
{
	double interval = (double)run->env->interval_ms * 1e6;
	double call_ns = interval * MB_KREF_SHARE / MB_KREF_CALLS, calls, iters;
	struct mb_kref *kr = calloc(1, sizeof(*kr));
	size_t nr = (size_t)(run->nr_producers > 0 ? run->nr_producers : 1);

	if (!kr)
		return NULL;
	/* Short intervals: fewer calls, not shorter ones, whose time a single interrupt moves. */
	if (call_ns < MB_KREF_MIN_CALL_NS)
		call_ns = MB_KREF_MIN_CALL_NS;
	calls = floor(interval * MB_KREF_SHARE / call_ns);
	if (calls < 1)
		calls = 1;
	iters = call_ns / (loop_ns > 0.1 ? loop_ns : 0.1);
	kr->iters = iters > KREF_MAX_ITERS ? KREF_MAX_ITERS : (iters < 1 ? 1 : (uint64_t)iters);
	kr->period_ns = (uint64_t)(interval / calls);
	kr->call_ns = call_ns;
	kr->prog_fd = prog_fd;
	kr->slots = slots;
	kr->nr = (int)nr;
	kr->logs = aligned_alloc(128, sizeof(*kr->logs) * nr);
	kr->tails = calloc(nr, sizeof(*kr->tails));
	kr->scratch = calloc(nr * KREF_LOG, sizeof(*kr->scratch));
	if (!kr->logs || !kr->tails || !kr->scratch) {
		mb_kref_free(kr);
		return NULL;
	}
	memset(kr->logs, 0, sizeof(*kr->logs) * nr);
	return kr;
}

void mb_kref_free(struct mb_kref *kr)
{
	if (!kr)
		return;
	free(kr->logs);
	free(kr->tails);
	free(kr->scratch);
	free(kr);
}

int mb_kref_call(struct mb_kref *kr, struct mb_producer *p, struct mb_counters *c,
		 uint64_t *next_ref)
{
	struct mb_slot *s = &kr->slots[p->idx];
	struct kref_log *log = &kr->logs[p->idx];
	uint64_t now = mb_now_ns(), ns = s->kernel_ns, ops = s->ops, head;
	int ret;

	if (now < *next_ref)
		return 0;
	if (!log->iters)
		log->iters = kr->iters;
	ret = mb_kloop_call(kr->prog_fd, p->idx, log->iters, p->cpu);
	if (ret < 0)
		return ret;
	/*
	 * The plan divides by the calibration's fastest call; a loaded machine runs slower. If the
	 * first call took over 1.5x the plan, its own speed sizes the rest, fixed from then on.
	 */
	if (!log->head && (double)(s->kernel_ns - ns) > 1.5 * kr->call_ns) {
		double scaled = (double)log->iters * kr->call_ns / (double)(s->kernel_ns - ns);

		log->iters = scaled < 1 ? 1 : (uint64_t)scaled;
	}
	/* On schedule from the first call: calls spread evenly over every interval. */
	*next_ref = (*next_ref ? *next_ref : now) + kr->period_ns;
	if (*next_ref < now)
		*next_ref = now + kr->period_ns;
	ns = s->kernel_ns - ns;
	ops = s->ops - ops;
	c->ref_ns += ns;
	c->ref_ops += ops;
	head = log->head;
	__atomic_store_n(&log->ns[head % KREF_LOG], ns, __ATOMIC_RELAXED);
	__atomic_store_n(&log->ops[head % KREF_LOG], ops, __ATOMIC_RELAXED);
	__atomic_store_n(&log->head, head + 1, __ATOMIC_RELEASE);
	return 0;
}

/* Append producer @i's calls since the last sample to @v; returns how many. */
static size_t take_calls(struct mb_kref *kr, int i, double *v)
{
	struct kref_log *log = &kr->logs[i];
	uint64_t head = __atomic_load_n(&log->head, __ATOMIC_ACQUIRE), from = kr->tails[i];
	uint64_t after;
	size_t n = 0;

	if (head - from > KREF_LOG)
		from = head - KREF_LOG;
	for (uint64_t k = from; k < head; k++) {
		uint64_t ns = __atomic_load_n(&log->ns[k % KREF_LOG], __ATOMIC_RELAXED);
		uint64_t ops = __atomic_load_n(&log->ops[k % KREF_LOG], __ATOMIC_RELAXED);

		v[n++] = ops ? (double)ns / (double)ops : NAN;
	}
	/* Entries the producer overwrote while they were read are dropped, not mixed. */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	after = __atomic_load_n(&log->head, __ATOMIC_RELAXED);
	for (uint64_t k = from; k < head && k + KREF_LOG <= after; k++)
		v[k - from] = NAN;
	kr->tails[i] = head;
	return n;
}

double mb_kref_statistic(double *ns_op, size_t n)
{
	return mb_median(ns_op, n);
}

void mb_kref_sample(struct mb_kref *kr, struct mb_sample *s)
{
	size_t n = 0, valid = 0;

	for (int i = 0; i < kr->nr; i++)
		n += take_calls(kr, i, kr->scratch + n);
	if (!s)
		return;
	for (size_t k = 0; k < n; k++)
		valid += !isnan(kr->scratch[k]);
	s->ref_calls = (unsigned int)valid;
	s->ref_median = mb_kref_statistic(kr->scratch, n);
}
