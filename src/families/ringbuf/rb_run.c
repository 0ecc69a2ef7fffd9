// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The hooks of the ring and perf buffer benches over either buffer kind: set-up and teardown,
 * the producer (one test_run call of --rb-batch-cnt records at a time, in back-to-back mode
 * followed by taking them itself) and the consumer (waiting for records, taking them all).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <bpf/bpf.h>

#include "drivers/kloop.h"
#include "drivers/loop_evidence.h"
#include "core/runner.h"
#include "rb.h"
#include "sys/interrupts.h"
#include "sys/probe.h"
#include "util/log.h"

static int check_init(struct mb_run *run, struct rb_state *st)
{
	const struct rb_args *a = run->args;
	int err = rb_check_init(&st->check, run->nr_producers, st->nr_bufs,
				a->check == RB_CHECK_RECORDS);

	if (err)
		return mb_run_fail(run, err, "out of memory");
	/* A table too small to outlive its records (the largest buffers) gives no latency. */
	if (st->stamp_rows * (uint64_t)run->nr_producers <= RB_MAX_STAMPS) {
		st->check.stamps = st->stamps;
		st->check.stamp_mask = st->stamp_rows - 1;
	}
	return 0;
}

int rb_setup(struct mb_run *run, enum rb_kind kind)
{
	bool ring = kind == RB_LIBBPF || kind == RB_CUSTOM;
	struct rb_state *st;
	char msg[512];
	int err;

	if (mb_probe_map_type(ring ? BPF_MAP_TYPE_RINGBUF : BPF_MAP_TYPE_PERF_EVENT_ARRAY,
			      ring ? "BPF ring buffer" : "perf event array", msg, sizeof(msg)))
		return mb_run_skip(run, "%s", msg);
	st = calloc(1, sizeof(*st));
	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	st->kind = kind;
	st->ops = ring ? &rb_ring_ops : &rb_perf_ops;
	err = st->ops->setup(run, st);
	if (err)
		return err;
	err = check_init(run, st);
	if (err)
		return err;
	/* The wake-ups' interrupts, whose count the run's own can be told from (rb_finish). */
	st->irq_work_err = mb_interrupts_read(MB_IRQ_WORK, &st->irq_work0);
	st->irq_work_t0 = mb_now_ns();
	run->runner = "kernel-loop";
	return 0;
}

void rb_teardown(struct mb_run *run)
{
	struct rb_state *st = run->priv;

	if (!st)
		return;
	st->ops->release(st);
	if (st->stamps)
		munmap(st->stamps, st->stamps_len);
	rb_check_free(&st->check);
	free(st);
	run->priv = NULL;
}

/* One batch of @n records on producer @p's CPU; back-to-back, then take them. */
static int produce_batch(struct mb_run *run, struct rb_state *st, struct mb_producer *p,
			 uint64_t n, struct mb_counters *c)
{
	const struct rb_args *a = run->args;
	int ret = mb_kloop_call(st->prog_fd, p->idx, n, p->cpu);

	if (ret < 0) {
		mb_err("%s: producer %d: BPF_PROG_TEST_RUN failed: %s", run->bench->name, p->idx,
		       strerror(-ret));
		return ret;
	}
	if (ret != MB_RET_OK)
		return -EPROTO;
	mb_kloop_slot_counters(&st->slots[p->idx], 1, c);
	/* No consumer: the records that got in are the hits, as in the kernel's bench. */
	if (a->bench_producer)
		c->hits = st->slots[p->idx].cursor;
	/*
	 * What it takes counts as the consumer's (rb_live_measure), as in the kernel's bench,
	 * and the time it takes is outside the producer's measurement (excluded_ns).
	 */
	if (a->b2b) {
		uint64_t t = mb_now_ns();

		ret = st->ops->take(st, 0);
		c->excluded_ns += mb_now_ns() - t;
		if (ret < 0)
			return ret;
	}
	return 0;
}

int rb_produce(struct mb_run *run, struct mb_producer *p)
{
	const struct rb_args *a = run->args;
	struct rb_state *st = run->priv;
	uint64_t left = a->records ? a->records : UINT64_MAX, next_ref = 0;
	struct mb_counters c = {};
	int err;

	if (p->idx == 0) {
		mb_loop_inspect(st->prog_fd, &run->loop);
		run->ops_per_iter = 1;
	}
	mb_producer_publish_stamped(p, &c);
	while (left && !mb_run_should_stop(run)) {
		uint64_t n = left < a->batch_cnt ? left : a->batch_cnt;

		err = produce_batch(run, st, p, n, &c);
		if (err)
			return err;
		left -= n;
		err = mb_kloop_reference(run, p, &c, &next_ref);
		if (err < 0)
			return err;
		mb_producer_publish_stamped(p, &c);
	}
	return 0;
}

int rb_consume(struct mb_run *run, struct mb_producer *c)
{
	const struct rb_args *a = run->args;
	struct rb_state *st = run->priv;
	int n;

	(void)c;	/* its counts are read live (rb_live_measure): a take can be long */
	if (a->b2b)
		return 0;	/* the producer takes its records itself */
	while (!mb_run_consumers_should_stop(run)) {
		n = st->ops->take(st, RB_POLL_MS);
		if (n < 0)
			return n;
	}
	/* Every producer has returned: what is in the buffer now is all there will be. */
	do {
		n = st->ops->take(st, -1);
		if (n < 0)
			return n;
	} while (n > 0);
	return 0;
}
