// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The figures of a streaming run: per sample, the consumers' hits added to the producers'
 * counters and the wake-up metrics; after the run, in run->extra: the records' account
 * (made, dropped, received, lost, seen twice: the last only with --rb-check records), the
 * delay from production to consumption, the consumer's wake-ups and CPU time, and what the
 * buffer was (src/families/ringbuf/README.md).
 */
#include <math.h>

#include "core/runner.h"
#include "rb.h"
#include "util/json.h"

const struct mb_metric_desc rb_metrics[] = {
	{ .name = "records_per_wakeup", .unit = "records" },
	{ .name = "consumer_cpu_ns_per_record", .unit = "ns" },
	{ .name = NULL },
};

void rb_measure(struct mb_run *run, struct mb_sample *s)
{
	const struct mb_counters *c = &s->cons_total;

	(void)run;
	s->total.hits += c->hits;
	s->metric[0] = c->calls ? (double)c->hits / (double)c->calls : NAN;
	s->metric[1] = c->hits && c->cpu_ns ? (double)c->cpu_ns / (double)c->hits : NAN;
}

void rb_live_measure(struct mb_run *run, struct mb_sample *s)
{
	struct rb_state *st = run->priv;
	uint64_t received = rb_check_received(&st->check);
	uint64_t wakeups = __atomic_load_n(&st->wakeups, __ATOMIC_RELAXED);

	if (s->cons) {
		s->cons[0].hits = received - st->last_received;
		s->cons[0].calls = wakeups - st->last_wakeups;
		s->cons_total.hits = s->cons[0].hits;
		s->cons_total.calls = s->cons[0].calls;
	}
	st->last_received = received;
	st->last_wakeups = wakeups;
	rb_measure(run, s);
}

void rb_result_records(struct mb_run *run, uint64_t attempted, uint64_t dropped,
		       const struct rb_verdict *v)
{
	struct mb_json *o = mb_json_child(mb_run_extra(run), "records");
	const struct rb_args *a = run->args;
	uint64_t want = a->records * (uint64_t)run->nr_producers;

	if (a->records && attempted < want && !mb_interrupted())
		mb_run_warn(run, "the run ended before the producers made their --rb-records %llu (%llu of %llu attempted): -d is its longest length, raise it",
			    (unsigned long long)a->records, (unsigned long long)attempted,
			    (unsigned long long)want);

	mb_json_set_str(o, "check", v->checked ? "records" : "counts");
	mb_json_set(o, "attempted", mb_json_uint(attempted));
	mb_json_set(o, "made", mb_json_uint(v->made));
	mb_json_set(o, "dropped", mb_json_uint(dropped));
	mb_json_set(o, "received", mb_json_uint(v->received));
	mb_json_set(o, "lost", mb_json_uint(v->lost));
	/* Only a check of each record tells these; counts leave them unknown. */
	mb_json_set(o, "duplicated", v->checked ? mb_json_uint(v->duplicated) : mb_json_null());
	mb_json_set(o, "foreign", v->checked ? mb_json_uint(v->foreign) : mb_json_null());
	mb_json_set(o, "checksum_ok", v->checked ? mb_json_bool(v->checksum_ok) : mb_json_null());
	/* Every attempt is in the ring or a drop, and every record made is received (once). */
	mb_json_set_bool(o, "ok", v->ok && attempted == v->made + dropped);
	if (v->ok && attempted == v->made + dropped)
		return;
	if (!v->checked)
		mb_run_warn(run, "records do not add up: %llu attempted, %llu dropped, %llu made, %llu received (counted only: --rb-check records tells which)",
			    (unsigned long long)attempted, (unsigned long long)dropped,
			    (unsigned long long)v->made, (unsigned long long)v->received);
	else
		mb_run_warn(run, "records do not add up: %llu attempted, %llu dropped, %llu made, %llu received, %llu lost, %llu seen twice, %llu from no producer%s",
			    (unsigned long long)attempted, (unsigned long long)dropped,
			    (unsigned long long)v->made, (unsigned long long)v->received,
			    (unsigned long long)v->lost, (unsigned long long)v->duplicated,
			    (unsigned long long)v->foreign,
			    v->checksum_ok ? "" : ", and the sequence numbers' checksums differ");
}

void rb_result_latency(struct mb_run *run, const struct mb_hist *h)
{
	struct mb_json *extra = mb_run_extra(run), *o;

	if (!h || !h->count) {
		mb_json_set(extra, "latency", mb_json_null());
		return;
	}
	o = mb_json_child(extra, "latency");
	mb_json_set_num(o, "sampled", (double)h->count);
	mb_json_set_num(o, "every", RB_STAMP_EVERY);
	mb_json_set_num(o, "min_ns", (double)h->min);
	mb_json_set_num(o, "median_ns", mb_hist_percentile(h, 50));
	mb_json_set_num(o, "p90_ns", mb_hist_percentile(h, 90));
	mb_json_set_num(o, "p99_ns", mb_hist_percentile(h, 99));
	mb_json_set_num(o, "max_ns", (double)h->max);
}

void rb_result_consumer(struct mb_run *run, const char *how)
{
	struct mb_json *o = mb_json_child(mb_run_extra(run), "consumer");
	uint64_t hits = 0, calls = 0, cpu = 0, elapsed = 0;

	for (int i = 0; i < run->nr_samples; i++) {
		const struct mb_sample *s = &run->samples[i];

		if (s->warmup)
			continue;
		hits += s->cons_total.hits;
		calls += s->cons_total.calls;
		cpu += s->cons_total.cpu_ns;
		elapsed += s->elapsed_ns;
	}
	mb_json_set_str(o, "how", how);
	mb_json_set(o, "records", mb_json_uint(hits));
	mb_json_set(o, "wakeups", mb_json_uint(calls));
	mb_json_set(o, "records_per_wakeup", calls ? mb_json_number((double)hits / (double)calls) :
						     mb_json_null());
	mb_json_set(o, "cpu_ns_per_record", hits && cpu ? mb_json_number((double)cpu / (double)hits) :
							  mb_json_null());
	mb_json_set(o, "cpu_share", elapsed && cpu ? mb_json_number((double)cpu / (double)elapsed) :
						     mb_json_null());
}
