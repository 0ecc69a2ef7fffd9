// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * --latency on a syscall path (user_latency.h). A producer's histogram has one writer, its
 * thread, and one reader, the sampler: each value goes to its bucket first and to the count
 * last, with release, so a reader that loads the count with acquire finds at least as many
 * values in the buckets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/latency.h"
#include "user_latency.h"

int mb_user_latency_start(struct mb_run *run, unsigned int every, unsigned int ops_per_timed,
			  const char *timed)
{
	struct mb_latency *lat = run->latency;
	size_t len = sizeof(*lat->user) * (size_t)run->nr_producers;

	if (every < 2 || (every & (every - 1)))
		return -EINVAL;
	if (!lat || lat->user)
		return 0;
	lat->user = aligned_alloc(128, len);
	if (!lat->user)
		return -ENOMEM;
	memset(lat->user, 0, len);
	for (int i = 0; i < run->nr_producers; i++)
		lat->user[i].every = every;
	lat->nr_user = run->nr_producers;
	lat->every = every;
	lat->ops_per_timed = ops_per_timed;
	lat->timed = timed;
	lat->why[0] = '\0';
	return 0;
}

void mb_user_latency_unavailable(struct mb_run *run, const char *why)
{
	struct mb_latency *lat = run->latency;

	if (lat && !lat->user)
		snprintf(lat->why, sizeof(lat->why), "%s", why);
}

struct mb_user_lat *mb_user_latency_of(struct mb_run *run, int idx)
{
	struct mb_latency *lat = run->latency;

	return lat && lat->user && idx >= 0 && idx < lat->nr_user ? &lat->user[idx] : NULL;
}

static void hist_add(struct mb_lat_hist *h, uint64_t ns)
{
	__u32 b = mb_lat_bucket(ns);

	__atomic_store_n(&h->bucket[b], h->bucket[b] + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&h->sum, h->sum + ns, __ATOMIC_RELAXED);
	if (ns > h->max)
		__atomic_store_n(&h->max, ns, __ATOMIC_RELAXED);
	__atomic_store_n(&h->count, h->count + 1, __ATOMIC_RELEASE);
}

void mb_user_latency_add(struct mb_user_lat *u, uint64_t t0, uint64_t t1, uint64_t t2)
{
	if (!u || t1 < t0 || t2 < t1)
		return;
	hist_add(&u->op, t1 - t0);
	hist_add(&u->timer, t2 - t1);
}

/* @src as its writer left it so far, into @dst: the count first (see the top). */
static void hist_read(struct mb_lat_hist *dst, const struct mb_lat_hist *src)
{
	dst->count = __atomic_load_n(&src->count, __ATOMIC_ACQUIRE);
	dst->sum = __atomic_load_n(&src->sum, __ATOMIC_RELAXED);
	dst->max = __atomic_load_n(&src->max, __ATOMIC_RELAXED);
	for (__u32 i = 0; i < MB_LAT_BUCKETS; i++)
		dst->bucket[i] = __atomic_load_n(&src->bucket[i], __ATOMIC_RELAXED);
}

/* Every producer's histograms read and merged into @op and @timer. */
static int read_all(const struct mb_latency *lat, struct mb_lat_hist *op,
		    struct mb_lat_hist *timer)
{
	struct mb_lat_hist *tmp = malloc(sizeof(*tmp));

	if (!tmp)
		return -ENOMEM;
	memset(op, 0, sizeof(*op));
	memset(timer, 0, sizeof(*timer));
	for (int i = 0; i < lat->nr_user; i++) {
		hist_read(tmp, &lat->user[i].op);
		mb_lat_hist_merge(op, tmp);
		hist_read(tmp, &lat->user[i].timer);
		mb_lat_hist_merge(timer, tmp);
	}
	free(tmp);
	return 0;
}

void mb_user_latency_sample(struct mb_run *run, const struct mb_sample *s)
{
	struct mb_latency *lat = run->latency;

	if (lat && lat->user)
		mb_latency_sample(lat, read_all, s && !s->warmup);
}

void mb_user_latency_release(struct mb_run *run)
{
	struct mb_latency *lat = run->latency;

	if (!lat)
		return;
	free(lat->user);
	lat->user = NULL;
	lat->nr_user = 0;
	mb_latency_forget(lat);
}
