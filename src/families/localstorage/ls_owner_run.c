// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-owners' producers. A round makes and destroys one owner in each config (no
 * storage, one, --nr_maps), starting each round with the next config, so that work an owner's
 * destruction leaves to the kernel's deferred paths (RCU, workqueues) falls on every config
 * alike. The making and the destroying are timed; the updates that attach the storages between
 * them are timed apart. One op is one owner of the --nr_maps config: the other configs' time
 * is taken out of the producers' covered time, and is each sample's metrics.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "ls_owner.h"
#include "util/log.h"
#include "core/run.h"
#include "core/summary.h"

const struct mb_metric_desc ls_owner_metrics[] = {
	[LS_OWNER_M_NONE] = { "owner_ns_0", "ns" },
	[LS_OWNER_M_ONE] = { "owner_ns_1", "ns" },
	[LS_OWNER_M_N] = { "owner_ns_n", "ns" },
	[LS_OWNER_M_ATTACH] = { "attach_ns", "ns" },
	{ NULL, NULL },
};

static uint32_t config_maps(const struct ls_owner_state *st, int cfg)
{
	return cfg == LS_OWNER_NONE ? 0 : cfg == LS_OWNER_ONE ? 1 : st->nr_maps;
}

/* A producer's totals so far; published to its struct ls_owner_prod after each round. */
struct tally {
	uint64_t ns[LS_OWNER_NR_CONFIGS], attach_ns, attaches;
};

/* A producer's round: its producer, counters, tally and site. */
struct ls_owner_work {
	struct mb_producer *p;
	struct mb_counters c;
	struct tally t;
	struct mb_owner_site *site;
	bool waits;		/* the owners are threads: making and joining one waits for it */
	/*
	 * The round's updates, added to c.calls with its op at the round's end: the waits publish
	 * the counters mid-round, and a sample must see calls and ops of whole rounds.
	 */
	uint64_t round_calls;
};

/*
 * A thread owner's making waits for the thread to start and its destruction for it to end:
 * time off the CPU on purpose (mb_producer_wait_begin), not a CPU the producer lost. The
 * calls that say so are outside the timed span.
 */
static void owner_wait_begin(struct ls_owner_work *w)
{
	if (w->waits)
		mb_producer_wait_begin(w->p, &w->c);
}

static void owner_wait_end(struct ls_owner_work *w)
{
	if (w->waits)
		mb_producer_wait_end(w->p, &w->c);
}

/* One owner of config @cfg made, given its storages, destroyed; its times added up. */
static int cycle(const struct ls_owner_state *st, struct ls_owner_work *w, int cfg)
{
	uint32_t k = config_maps(st, cfg), val = 0x6d620001;
	struct mb_counters *c = &w->c;
	struct tally *t = &w->t;
	struct mb_owner o;
	uint64_t t0, t1, t2, t3;
	int err;

	owner_wait_begin(w);
	t0 = mb_now_ns();
	err = mb_owner_make(w->site, &o);
	t1 = mb_now_ns();
	owner_wait_end(w);
	if (err)
		return err;
	for (uint32_t i = 0; i < k && !err; i++) {
		int key = o.fd;

		if (bpf_map_update_elem(st->maps.fd[i], &key, &val, BPF_NOEXIST))
			err = -errno;
	}
	owner_wait_begin(w);
	t2 = mb_now_ns();
	mb_owner_destroy(&o);
	t3 = mb_now_ns();
	owner_wait_end(w);
	t->ns[cfg] += (t1 - t0) + (t3 - t2);
	t->attach_ns += t2 - t1;
	t->attaches += k;
	w->round_calls += k;
	c->excluded_ns += cfg == LS_OWNER_N ? t2 - t1 : t3 - t0;
	return err;
}

static void publish(struct ls_owner_prod *pp, const struct tally *t, uint64_t owners)
{
	for (int k = 0; k < LS_OWNER_NR_CONFIGS; k++)
		__atomic_store_n(&pp->ns[k], t->ns[k], __ATOMIC_RELAXED);
	__atomic_store_n(&pp->attach_ns, t->attach_ns, __ATOMIC_RELAXED);
	__atomic_store_n(&pp->attaches, t->attaches, __ATOMIC_RELAXED);
	/* Last: the sampler reads it first, and then totals at least as new. */
	__atomic_store_n(&pp->owners, owners, __ATOMIC_RELEASE);
}

int ls_owner_producer(struct mb_run *run, struct mb_producer *p)
{
	struct ls_owner_state *st = run->priv;
	struct ls_owner_prod *pp = &st->prod[p->idx];
	struct ls_owner_work w = { .p = p, .site = &pp->site,
				   .waits = pp->site.kind == MB_OWNER_TASK };
	int err = 0;

	mb_producer_publish_stamped(p, &w.c);
	for (uint64_t round = 0; !err && !mb_run_should_stop(run); round++) {
		for (int i = 0; i < LS_OWNER_NR_CONFIGS && !err; i++)
			err = cycle(st, &w, (int)((round + (uint64_t)i) % LS_OWNER_NR_CONFIGS));
		w.c.ops++;
		w.c.calls += w.round_calls;
		w.round_calls = 0;
		if (err)
			w.c.errors++;
		else
			w.c.hits++;
		mb_producer_publish_stamped(p, &w.c);
		if (!err)
			publish(pp, &w.t, w.c.hits);
	}
	if (err)
		mb_err("%s: producer %d: a %s with its storages could not be made: %s",
		       run->bench->name, p->idx, mb_owner_kind_name(pp->site.kind), strerror(-err));
	return err;
}

static double ratio(uint64_t ns, uint64_t n)
{
	return n ? (double)ns / (double)n : NAN;
}

/* The other configs' time out of the covered time; each config's ns per owner, the updates'. */
void ls_owner_measure(struct mb_run *run, struct mb_sample *s)
{
	struct ls_owner_state *st = run->priv;
	uint64_t ns[LS_OWNER_NR_CONFIGS] = { 0 }, owners = 0, attach_ns = 0, attaches = 0;

	for (int p = 0; p < run->nr_producers; p++) {
		struct mb_counters *c = &s->prod[p];
		struct ls_owner_prod *pp = &st->prod[p];
		uint64_t v = __atomic_load_n(&pp->owners, __ATOMIC_ACQUIRE);

		if (c->end_ns && c->excluded_ns < c->end_ns)
			c->end_ns -= c->excluded_ns;
		owners += v - pp->last_owners;
		pp->last_owners = v;
		for (int k = 0; k < LS_OWNER_NR_CONFIGS; k++) {
			v = __atomic_load_n(&pp->ns[k], __ATOMIC_RELAXED);
			ns[k] += v - pp->last_ns[k];
			pp->last_ns[k] = v;
		}
		v = __atomic_load_n(&pp->attach_ns, __ATOMIC_RELAXED);
		attach_ns += v - pp->last_attach_ns;
		pp->last_attach_ns = v;
		v = __atomic_load_n(&pp->attaches, __ATOMIC_RELAXED);
		attaches += v - pp->last_attaches;
		pp->last_attaches = v;
	}
	s->covered_ns = mb_sample_covered_ns(s, run->nr_producers);
	for (int k = 0; k < LS_OWNER_NR_CONFIGS; k++)
		s->metric[k] = ratio(ns[k], owners);
	s->metric[LS_OWNER_M_ATTACH] = ratio(attach_ns, attaches);
}

/* Every round's owners cycled and every update done: or no figure. */
void ls_owner_finish(struct mb_run *run)
{
	uint64_t ops = 0, errors = 0;

	for (int i = 0; i < run->nr_samples; i++) {
		ops += run->samples[i].total.ops;
		errors += run->samples[i].total.errors;
	}
	if ((!ops && !mb_interrupted()) || errors)
		mb_run_fail(run, -EIO, "%llu rounds of owners counted, %llu failed: no figure",
			    (unsigned long long)ops, (unsigned long long)errors);
}
