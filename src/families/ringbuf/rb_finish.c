// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The finish hook of the ring and perf buffer benches: the run's account, from its state. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/runner.h"
#include "rb.h"
#include "sys/interrupts.h"
#include "util/json.h"

static const char *api_name(const struct rb_state *st, const struct rb_args *a)
{
	if (st->kind == PB_LIBBPF || st->kind == PB_CUSTOM)
		return "bpf_perf_event_output";
	return a->use_output ? "bpf_ringbuf_output" : "bpf_ringbuf_reserve + bpf_ringbuf_submit";
}

static void buffer_json(struct mb_run *run, const struct rb_state *st)
{
	const struct rb_args *a = run->args;
	struct mb_json *o = mb_json_child(mb_run_extra(run), "buffer");
	bool ring = st->kind == RB_LIBBPF || st->kind == RB_CUSTOM;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	mb_json_set_str(o, "map_type", ring ? "ringbuf" : "perf_event_array");
	mb_json_set_num(o, "bytes", ring ? (double)a->rb_size :
					   (double)a->perfbuf_sz * (double)page *
						   run->env->online.count);
	if (!ring)
		mb_json_set_num(o, "pages_per_cpu", a->perfbuf_sz);
	mb_json_set_num(o, "record_size", a->rec_size);
	mb_json_set_num(o, "record_bytes", (double)(ring ? rb_ring_record_bytes(a->rec_size) :
							    pb_record_bytes(a->rec_size)));
	mb_json_set_num(o, "capacity_records", (double)st->capacity);
	mb_json_set_str(o, "api", api_name(st, a));
	mb_json_set_str(o, "notification", a->sampled ? "sampled" : "every record");
	mb_json_set(o, "sample_rate", a->sampled ? mb_json_number(a->sample_rate) : mb_json_null());
	mb_json_set_num(o, "batch", a->batch_cnt);
	mb_json_set_bool(o, "back_to_back", a->b2b);
	mb_json_set_bool(o, "producers_alone", a->bench_producer);
	mb_json_set_bool(o, "overwrite", a->overwrite);
}

/*
 * The IRQ work interrupts over the run, all CPUs: a ring or perf buffer wakes its consumer by
 * irq_work on the producer's CPU, and on a virtual machine each one can cost microseconds.
 */
static void interrupts_json(struct mb_run *run, const struct rb_state *st)
{
	struct mb_json *extra = mb_run_extra(run), *o;
	uint64_t now = mb_now_ns(), count, received = st->check.received;
	int err = st->irq_work_err ? st->irq_work_err : mb_interrupts_read(MB_IRQ_WORK, &count);

	if (err || count < st->irq_work0 || now <= st->irq_work_t0) {
		mb_json_set(extra, "interrupts", mb_json_null());
		return;
	}
	o = mb_json_child(extra, "interrupts");
	mb_json_set_str(o, "source", "/proc/interrupts: " MB_IRQ_WORK ", all CPUs");
	mb_json_set(o, "irq_work", mb_json_uint(count - st->irq_work0));
	mb_json_set_num(o, "irq_work_per_second",
			(double)(count - st->irq_work0) * 1e9 / (double)(now - st->irq_work_t0));
	mb_json_set(o, "irq_work_per_record", received ?
			mb_json_number((double)(count - st->irq_work0) / (double)received) :
			mb_json_null());
}

/* --rb-bench-producer: no consumer, so what was made stays in the ring (or is overwritten). */
static void producers_alone_json(struct mb_run *run, uint64_t attempted, uint64_t made,
				 uint64_t dropped)
{
	struct mb_json *o = mb_json_child(mb_run_extra(run), "records");

	mb_json_set_str(o, "check", "counts");
	mb_json_set(o, "attempted", mb_json_uint(attempted));
	mb_json_set(o, "made", mb_json_uint(made));
	mb_json_set(o, "dropped", mb_json_uint(dropped));
	mb_json_set(o, "received", mb_json_null());
	mb_json_set_bool(o, "ok", attempted == made + dropped);
}

/*
 * Each producer's records: made, and received once (a producer starved by another shows);
 * counts do not say whose a record was, so received is known only with --rb-check records.
 */
static void per_producer_json(struct mb_run *run, const struct rb_state *st)
{
	struct mb_json *a = mb_json_array();

	for (int p = 0; p < run->nr_producers; p++) {
		struct mb_json *o = mb_json_object();

		mb_json_set(o, "made", mb_json_uint(st->slots[p].cursor));
		mb_json_set(o, "dropped", mb_json_uint(st->slots[p].misses));
		mb_json_set(o, "received", st->check.each ? mb_json_uint(st->check.count[p]) :
							    mb_json_null());
		mb_json_append(a, o);
	}
	mb_json_set(mb_json_get(mb_run_extra(run), "records"), "per_producer", a);
}

void rb_finish(struct mb_run *run)
{
	const struct rb_args *a = run->args;
	struct rb_state *st = run->priv;
	uint64_t attempted = 0, dropped = 0, *made;
	struct rb_verdict v;

	made = calloc((size_t)run->nr_producers, sizeof(*made));
	if (!made) {
		mb_run_fail(run, -ENOMEM, "out of memory");
		return;
	}
	for (int p = 0; p < run->nr_producers; p++) {
		made[p] = st->slots[p].cursor;
		attempted += st->slots[p].ops;
		dropped += st->slots[p].misses;
	}
	rb_check_verdict(&st->check, made, &v);
	free(made);
	if (a->bench_producer)
		producers_alone_json(run, attempted, v.made, dropped);
	else
		rb_result_records(run, attempted, dropped, &v);
	per_producer_json(run, st);
	if (st->kind == PB_LIBBPF || st->kind == PB_CUSTOM)
		mb_json_set(mb_json_get(mb_run_extra(run), "records"), "kernel_lost",
			    mb_json_uint(st->kernel_lost));
	rb_result_latency(run, st->check.stamps ? st->check.latency : NULL);
	if (a->bench_producer)
		mb_json_set(mb_run_extra(run), "consumer", mb_json_null());
	else
		rb_result_consumer(run, a->b2b ? "back-to-back: the producer takes its own records after each batch" :
						 st->consumer_name);
	buffer_json(run, st);
	interrupts_json(run, st);
}
