/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The streaming family: BPF ring buffer (rb-libbpf, rb-custom) and perf buffer (pb-libbpf,
 * pb-custom) benches with BPF producers and a user-space consumer, as the kernel's
 * bench_ringbufs.c has them, and user-ringbuf (user producers, a BPF consumer).
 *
 * Layers, lowest first: rb_check (what the consumer received), rb_opts (options and checks),
 * rb_stamps (the stamp table), rb_ring and rb_perf (one buffer kind each: load, consume,
 * release), rb_run (producer and consumer hooks over either kind), rb_result and rb_finish
 * (the figures of a run), rb_text, rb_benches and user_ringbuf (the benches), family.
 */
#ifndef MB_RB_H
#define MB_RB_H

#include <errno.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/bench.h"
#include "drivers/kloop.h"
#include "rb_check.h"

#define RB_DEFAULT_RING_SIZE	(512u * 1024)	/* the kernel bench's ringbuf_sz */
#define RB_MAX_RING_SIZE	(1ull << 30)
#define RB_HEADER		8		/* a ring record's length word and page offset */
#define PB_HEADER		12		/* a perf sample's header and raw size word */
#define RB_POLL_MS		20		/* consumer's wait between looks at stop */

/*
 * What the consumer does with each record (--rb-check). counts: counts it, as the kernel
 * bench's consumers do, and the producers stamp nothing; the run still adds up by counts
 * (attempted = made + dropped, received = made). records: also reads its first word and checks
 * its producer and sequence number (lost, seen twice, checksum), and the producers stamp 1 in
 * RB_STAMP_EVERY records for the latency.
 */
enum rb_check_mode {
	RB_CHECK_COUNTS,
	RB_CHECK_RECORDS,
};

struct rb_args {
	bool b2b;		/* the producer drains the buffer itself after each batch */
	bool use_output;	/* bpf_ringbuf_output instead of reserve + submit */
	bool sampled;		/* wake the consumer once per --rb-sample-rate records */
	uint32_t batch_cnt;	/* records per test_run call */
	uint32_t sample_rate;
	uint32_t rec_size;	/* record payload, bytes */
	uint64_t rb_size;	/* ring buffer bytes */
	uint32_t perfbuf_sz;	/* perf buffer pages per CPU */
	uint64_t records;	/* records each producer makes, then stops (0: until the end) */
	bool overwrite;		/* BPF_F_RB_OVERWRITE: a full ring overwrites its oldest */
	bool bench_producer;	/* no consumer: hits are the records made */
	int check;		/* enum rb_check_mode */
};

enum rb_kind {
	RB_LIBBPF,
	RB_CUSTOM,
	PB_LIBBPF,
	PB_CUSTOM,
};

struct rb_state;

/* One buffer kind's consumer side (rb_ring.c, rb_perf.c). */
struct rb_buffer_ops {
	/* Load the producer program and make the buffer; fills st's program and counters. */
	int (*setup)(struct mb_run *run, struct rb_state *st);
	/*
	 * Wait up to @timeout_ms for the buffer's notification (0: only look for one) and take
	 * the records it announced, counting each with rb_check_count(), or with --rb-check
	 * records checking each with rb_check_record(); @timeout_ms < 0: take
	 * every record there is, notified or not. A wait that ended with records counts in
	 * st->wakeups. Returns the records taken, or -errno.
	 */
	int (*take)(struct rb_state *st, int timeout_ms);
	void (*release)(struct rb_state *st);
};

struct rb_state {
	enum rb_kind kind;
	const struct rb_buffer_ops *ops;
	const char *consumer_name;	/* how the consumer reads, for the output */
	void *buf;			/* the kind's own state */
	int prog_fd;
	struct mb_slot *slots;		/* the producer program's counters */
	int nr_bufs;			/* buffers the producers write to (1, or CPUs) */
	uint64_t capacity;		/* records the buffers hold at most, all together */
	uint64_t stamp_rows;		/* stamps per producer (a power of two) */
	void *stamps;			/* mmapped stamp table */
	size_t stamps_len;
	struct rb_check check;
	uint64_t wakeups;		/* waits that ended with records (rb_count_wakeup) */
	bool poll_waiting;		/* the taking thread's own: a libbpf poll began, no
					 * record of it seen yet (rb_poll_record) */
	uint64_t last_received;		/* rb_live_measure's last reading */
	uint64_t last_wakeups;
	uint64_t kernel_lost;		/* perf buffer: samples the kernel says it lost */
	int irq_work_err;		/* reading the IRQ work count at set-up: 0 or -errno */
	uint64_t irq_work0;		/* that count, all CPUs */
	uint64_t irq_work_t0;		/* and when it was read */
};

/* One writer, read by the sampler. */
static inline void rb_count_wakeup(struct rb_state *st)
{
	__atomic_store_n(&st->wakeups, st->wakeups + 1, __ATOMIC_RELAXED);
}

/*
 * A libbpf poll (@timeout_ms >= 0) is about to wait: the first record it takes counts its
 * wake-up (rb_poll_record). The wake-up is counted at that record, not when the poll
 * returns, because libbpf's ring buffer poll keeps taking records while the producers keep
 * writing them: on a busy machine one poll can last the whole run, and a count made on its
 * return would miss every sample. A consume (@timeout_ms < 0) does not wait.
 */
static inline void rb_poll_begins(struct rb_state *st, int timeout_ms)
{
	st->poll_waiting = timeout_ms >= 0;
}

/* In a libbpf record callback: the first record after a wait is that wait's wake-up. */
static inline void rb_poll_record(struct rb_state *st)
{
	if (st->poll_waiting) {
		st->poll_waiting = false;
		rb_count_wakeup(st);
	}
}

/*
 * What a libbpf poll or consume returned, @n, as a take returns it: the records it took
 * since @before (st->check.received then). An interrupted poll took nothing.
 */
static inline int rb_libbpf_took(struct rb_state *st, int n, uint64_t before)
{
	if (n == -EINTR)
		return 0;
	if (n < 0)
		return n;
	return (int)(st->check.received - before);
}

/* rb_opts.c */
extern const struct mb_opt rb_opts[];
int rb_validate(struct mb_run *run);
/* The consumers without -c: none with --rb-bench-producer, else one. */
int rb_default_consumers(const struct mb_run *run);
int pb_validate(struct mb_run *run);
/* Bytes a record of @rec_size takes in a ring buffer. */
uint64_t rb_ring_record_bytes(uint32_t rec_size);
uint64_t pb_record_bytes(uint32_t rec_size);

/* rb_ring.c, rb_perf.c */
extern const struct rb_buffer_ops rb_ring_ops;
extern const struct rb_buffer_ops rb_perf_ops;

/* rb_stamps.c. At most this many stamps in all (64 MiB): more would only serve latency. */
#define RB_MAX_STAMPS	(1ull << 23)
/* The stamp table, a row of @st->stamp_rows per producer, for a loaded @map_fd (none: counts). */
int rb_map_stamps(struct mb_run *run, struct rb_state *st, int map_fd);
/* Rows for @capacity records in flight: every stamp outlives its record. */
uint64_t rb_stamp_rows(uint64_t capacity);
/* The rows a run's table needs: rb_stamp_rows with --rb-check records, else 1 (no stamps). */
uint64_t rb_run_stamp_rows(const struct mb_run *run, uint64_t capacity);

/* rb_run.c: the hooks of every ring and perf buffer bench. */
int rb_setup(struct mb_run *run, enum rb_kind kind);
int rb_produce(struct mb_run *run, struct mb_producer *p);
int rb_consume(struct mb_run *run, struct mb_producer *c);
void rb_teardown(struct mb_run *run);

/*
 * rb_result.c. Every streaming bench's producers count attempts as ops and drops as misses,
 * its consumer what it received as hits and its wake-ups as calls: rb_measure adds the
 * consumers' hits to the sample's (the kernel's "hits") and sets rb_metrics.
 */
extern const struct mb_metric_desc rb_metrics[];
void rb_measure(struct mb_run *run, struct mb_sample *s);
/*
 * The ring and perf buffer benches' measure: their consumer (or back-to-back producer) can
 * take records for long without returning, so its counts are read live from struct rb_state
 * into the sample's consumer counters, then rb_measure.
 */
void rb_live_measure(struct mb_run *run, struct mb_sample *s);
/* extra.records: @attempted records, @dropped of them refused by a full buffer, and @v. */
void rb_result_records(struct mb_run *run, uint64_t attempted, uint64_t dropped,
		       const struct rb_verdict *v);
/* extra.latency from @h (sampled 1 in RB_STAMP_EVERY), null when @h is empty or NULL. */
void rb_result_latency(struct mb_run *run, const struct mb_hist *h);
/* extra.consumer: wake-ups and CPU time over the whole run, from the samples. */
void rb_result_consumer(struct mb_run *run, const char *how);
/* The finish hook of the ring and perf buffer benches: all of the above and extra.buffer. */
void rb_finish(struct mb_run *run);

/* rb_text.c */
extern const struct mb_text_style rb_text;

#endif
