// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-scan's producer: whole walks, one after another, each timed alone and checked before
 * it counts (an op is a walk; calls, its syscalls; counter "entries", the entries it found).
 * A drain's map is filled again between walks, outside the timed part: the published covered
 * time (end_ns) advances by the walks' own time only, so the rates divide by it. finish puts
 * the per-walk figures in extra.walk.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <linux/bpf.h>

#include "scan.h"
#include "core/run.h"
#include "maps/maps.h"
#include "util/json.h"

static int refill(struct mb_run *run, struct mb_producer *p, struct scan_state *st,
		  struct mb_counters *c)
{
	uint64_t t0 = mb_now_ns();
	int err;

	/* Parallel fills wait for their threads: not a lost CPU. */
	mb_producer_wait_begin(p, c);
	err = scan_refill(run, st);
	mb_producer_wait_end(p, c);
	c->excluded_ns += mb_now_ns() - t0;
	st->refills++;
	return err;
}

static int walk_loop(struct mb_run *run, struct mb_producer *p, struct scan_state *st)
{
	struct mb_counters c = { 0 };
	uint64_t base, walked = 0;
	struct scan_walk w;
	int err;

	mb_producer_publish_stamped(p, &c);
	base = c.end_ns;
	while (!mb_run_should_stop(run)) {
		uint64_t t0, dt;

		scan_walk_prepare(st);
		scan_stall_walk(st);
		t0 = mb_now_ns();
		err = scan_walk_once(st, &w);
		dt = mb_now_ns() - t0;
		walked += dt;
		if (err == -EINTR)
			break;		/* the run ended during the walk: it does not count */
		if (err == -ENOSPC)
			return mb_run_fail(run, err, "--batch_size %u: a bucket of the map holds more entries than one batch (ENOSPC): raise it",
					   st->a->batch_size);
		if (err)
			return mb_run_fail(run, err, "a %s walk of the %s map failed: %s",
					   scan_method_names[st->method], st->type->name,
					   strerror(-err));
		err = scan_walk_check(run, st, &w);
		if (err)
			return err;
		st->walks_all++;
		c.ops++;
		c.hits++;
		c.calls += w.calls;
		c.counter[0] += w.entries;
		c.end_ns = base + walked;
		mb_producer_publish(p, &c);
		if (scan_drains(st->method) && st->present) {
			err = refill(run, p, st, &c);
			if (err)
				return err == -EINTR ? 0 : err;
			mb_producer_publish(p, &c);
		}
		/* --stall_probe's baseline, outside the covered time like a refill. */
		c.excluded_ns += scan_stall_spin(run, st, dt);
	}
	return 0;
}

int scan_producer(struct mb_run *run, struct mb_producer *p)
{
	struct scan_state *st = run->priv;
	int64_t ops;
	int err;

	if (st->a->churn) {
		err = scan_churn_start(run, st, p->cpu);
		if (err)
			return mb_run_fail(run, err, "cannot start the --churn writer: %s",
					   strerror(-err));
	}
	if (st->a->stall_probe) {
		err = scan_stall_start(st, p->cpu);
		if (err) {
			scan_churn_stop(st);
			return mb_run_fail(run, err, "cannot start the --stall_probe thread: %s",
					   strerror(-err));
		}
	}
	err = walk_loop(run, p, st);
	if (!err)
		scan_stall_finish(run, st);
	scan_stall_stop(st);
	ops = scan_churn_stop(st);
	if (ops < 0 && !err)
		return mb_run_fail(run, (int)ops, "the --churn writer failed: %s",
				   strerror((int)-ops));
	st->writer_ops = ops > 0 ? (uint64_t)ops : 0;
	return err;
}

/* The measured samples' walks: their count, time, syscalls and entries. */
static void totals(const struct mb_run *run, struct mb_counters *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < run->nr_samples; i++) {
		const struct mb_counters *s = &run->samples[i].total;

		if (run->samples[i].warmup)
			continue;
		t->ops += s->ops;
		t->end_ns += s->end_ns;
		t->calls += s->calls;
		t->counter[0] += s->counter[0];
	}
}

static struct mb_json *per(double v, double n)
{
	return n > 0 ? mb_json_number(v / n) : mb_json_null();
}

/* --churn: over every walk the producer made, what they saw of the present entries. */
static void churn_report(const struct scan_state *st, struct mb_json *o)
{
	double walks = (double)st->walks_all;

	mb_json_set_num(o, "keys", st->a->churn);
	mb_json_set_num(o, "writer_ops", (double)st->writer_ops);
	mb_json_set_num(o, "walks", walks);
	mb_json_set_num(o, "restarts", (double)st->restarts);
	mb_json_set_num(o, "seen_twice", (double)st->twice);
	mb_json_set_num(o, "missed", (double)st->missed);
	mb_json_set_num(o, "churned_seen", (double)st->churned);
	mb_json_set(o, "restarts_per_walk", per((double)st->restarts, walks));
	mb_json_set(o, "seen_twice_per_walk", per((double)st->twice, walks));
	mb_json_set(o, "missed_per_walk", per((double)st->missed, walks));
}

static void stall_phase(const struct scan_stall_result *r, struct mb_json *o)
{
	mb_json_set_num(o, "longest_ns", (double)r->longest_ns);
	mb_json_set_num(o, "gaps_over_1ms", (double)r->long_gaps);
	mb_json_set(o, "share_in_long_gaps", per((double)r->long_ns, (double)r->ns));
	mb_json_set_num(o, "probe_ns", (double)r->ns);
}

/*
 * --stall_probe: the probe's longest time off the CPU during the walks, the same beside the
 * walker spinning in user space (baseline), and what the walks add to it.
 */
static void stall_report(const struct scan_state *st, struct mb_json *o)
{
	const struct scan_stall_result *w = &st->stall_result[SCAN_STALL_WALKS];
	const struct scan_stall_result *b = &st->stall_result[SCAN_STALL_BASELINE];

	stall_phase(w, o);
	stall_phase(b, mb_json_child(o, "baseline"));
	mb_json_set(o, "added_ns", b->ns ? mb_json_number((double)w->longest_ns -
							  (double)b->longest_ns) : mb_json_null());
}

void scan_finish(struct mb_run *run)
{
	struct scan_state *st = run->priv;
	struct mb_json *w = mb_json_child(mb_run_extra(run), "walk");
	struct mb_counters t;
	double walks, ns;
	char flags[128];

	totals(run, &t);
	walks = (double)t.ops;
	if (!t.ops) {
		mb_run_fail(run, -ETIME, "no %s walk of the %s map ended within a sample: raise --interval_ms (or shrink the map)",
			    scan_method_names[st->method], st->type->name);
		return;
	}
	ns = walks > 0 ? (double)t.end_ns / walks : NAN;
	mb_map_flags_format(st->a->map_flags |
				    (st->type->type == BPF_MAP_TYPE_LPM_TRIE ? BPF_F_NO_PREALLOC : 0),
			    flags, sizeof(flags));
	mb_json_set_str(w, "method", scan_method_names[st->method]);
	mb_json_set_str(w, "map_type", st->type->name);
	mb_json_set_str(w, "map_flags", flags);
	mb_json_set_num(w, "max_entries", st->a->max_entries);
	mb_json_set_num(w, "present", (double)st->present);
	mb_json_set_num(w, "fill", (double)st->present / st->a->max_entries);
	mb_json_set_num(w, "walks", walks);
	mb_json_set(w, "ns_per_walk", isnan(ns) ? mb_json_null() : mb_json_number(ns));
	mb_json_set(w, "ns_per_entry", per(ns, (double)st->present));
	mb_json_set(w, "ns_per_slot", per(ns, st->a->max_entries));
	mb_json_set(w, "syscalls_per_walk", per((double)t.calls, walks));
	mb_json_set(w, "entries_per_walk", per((double)t.counter[0], walks));
	mb_json_set_num(w, "refills", (double)st->refills);
	mb_json_set_bool(w, "checked", !st->seen);
	if (st->seen)
		churn_report(st, mb_json_child(w, "churn"));
	if (st->stall_ran)
		stall_report(st, mb_json_child(w, "stall"));
}
