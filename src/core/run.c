// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * What a bench's hooks call (bench.h): messages about the run, its extra results, the
 * producers' counters shared with the sampler, the clock, and the stop flag that a signal
 * sets. Below the runner: the in-kernel loop, the summaries and the parts use these without
 * knowing how a run is executed.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/json.h"
#include "util/log.h"
#include "run.h"
#include "sink.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

void mb_signals_install(void)
{
	/* A second SIGINT/SIGTERM kills at once (SA_RESETHAND): an escape if teardown hangs. */
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };

	/* No SA_RESTART: the sampler's sleep must return early with EINTR. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

bool mb_interrupted(void)
{
	return interrupted;
}

uint64_t mb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void mb_timestamp(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- messages from bench hooks ---- */

int mb_run_usage(struct mb_run *run, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	mb_err("%s: %s", run->bench->name, msg);
	return -EINVAL;
}

int mb_run_fail(struct mb_run *run, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(run->reason, sizeof(run->reason), fmt, ap);
	va_end(ap);
	run->status = MB_RUN_FAILED;
	mb_err("%s: %s", run->bench->name, run->reason);
	return err < 0 ? err : -EIO;
}

int mb_run_skip(struct mb_run *run, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(run->reason, sizeof(run->reason), fmt, ap);
	va_end(ap);
	run->status = MB_RUN_SKIPPED;
	mb_err("%s: skipped: %s", run->bench->name, run->reason);
	return -EOPNOTSUPP;
}

void mb_run_warn(struct mb_run *run, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	mb_warn("%s: %s", run->bench->name, msg);
	mb_json_append(run->warnings, mb_json_string(msg));
}

void mb_run_partial(struct mb_run *run, const void *what)
{
	mb_sink_partial(run->sink, run, what);
}

struct mb_json *mb_run_extra(struct mb_run *run)
{
	return run->extra;
}

bool mb_run_opt_given(const struct mb_run *run, const char *name)
{
	int i = mb_opt_find(run->bench->opts, name);

	return i >= 0 && i < 64 && (run->opts_given & (1ULL << i));
}

/* ---- counters shared between a producer and the sampler ---- */

static void publish(struct mb_producer *p, const struct mb_counters *c, uint64_t wait_since)
{
	const uint64_t *src = (const uint64_t *)c;
	uint64_t *dst = (uint64_t *)&p->pub;
	unsigned int seq = __atomic_load_n(&p->seq, __ATOMIC_RELAXED);

	__atomic_store_n(&p->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	for (size_t i = 0; i < MB_COUNTERS_NR; i++)
		__atomic_store_n(&dst[i], src[i], __ATOMIC_RELAXED);
	__atomic_store_n(&p->wait_since, wait_since, __ATOMIC_RELAXED);
	__atomic_store_n(&p->seq, seq + 2, __ATOMIC_RELEASE);
}

void mb_producer_publish(struct mb_producer *p, const struct mb_counters *c)
{
	/* Only the producer writes wait_since: its own plain read is exact. */
	publish(p, c, p->wait_since);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void mb_producer_wait_begin(struct mb_producer *p, const struct mb_counters *c)
{
	p->wait_cpu_ns = thread_cpu_ns();
	publish(p, c, mb_now_ns());
}

void mb_producer_wait_end(struct mb_producer *p, struct mb_counters *c)
{
	if (p->wait_since) {
		uint64_t wall = mb_now_ns() - p->wait_since, cpu = thread_cpu_ns() - p->wait_cpu_ns;

		/* Entering and leaving the sleep, spinning first: CPU time, not a wait. */
		c->wait_ns += wall > cpu ? wall - cpu : 0;
	}
	publish(p, c, 0);
}

void mb_producer_publish_stamped(struct mb_producer *p, struct mb_counters *c)
{
	c->end_ns = mb_now_ns();
	mb_producer_publish(p, c);
}

void mb_producer_read(const struct mb_producer *p, struct mb_counters *c, uint64_t *wait_since)
{
	const uint64_t *src = (const uint64_t *)&p->pub;
	uint64_t *dst = (uint64_t *)c;
	unsigned int s1, s2;
	uint64_t since;

	do {
		s1 = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE);
		for (size_t i = 0; i < MB_COUNTERS_NR; i++)
			dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
		since = __atomic_load_n(&p->wait_since, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&p->seq, __ATOMIC_RELAXED);
	} while ((s1 & 1) || s1 != s2);
	if (wait_since)
		*wait_since = since;
}

/* ---- what a run measured ---- */

void mb_run_free_results(struct mb_run *run)
{
	for (int i = 0; run->samples && i < run->max_samples; i++) {
		free(run->samples[i].prod);
		free(run->samples[i].cons);
	}
	free(run->samples);
	free(run->summary);
	free(run->latency);
	mb_json_free(run->extra);
	mb_json_free(run->warnings);
	mb_json_free(run->params);
}
