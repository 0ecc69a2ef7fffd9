/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the consumer received. Every record is counted, as the kernel bench's consumers count
 * them; with --rb-check records each is also checked (rb_shared.h: each record names its
 * producer and that producer's sequence number). Within one buffer a producer's records arrive
 * in order, so a sequence number not above the last one from that producer there is a record
 * seen twice; what a producer made and no consumer saw is lost. Every RB_STAMP_EVERY-th record
 * also gives the delay from its production (the stamp table) to its consumption. Counts alone
 * still prove that the records add up (as many received as made), not which one was lost.
 */
#ifndef MB_RB_CHECK_H
#define MB_RB_CHECK_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/run.h"
#include "rb_shared.h"
#include "util/hist.h"

struct rb_check {
	bool each;			/* check each record, not only count it */
	int nr_producers;
	int nr_bufs;			/* buffers a producer's records can land in (CPUs) */
	uint64_t *next;			/* [producer * nr_bufs + buf]: 1 + last seq there */
	uint64_t *count;		/* [producer]: its records received once */
	uint64_t *sum;			/* [producer]: the sum of their sequence numbers */
	uint64_t received;		/* every record taken, duplicates included: the sampler
					 * reads it while the consumer counts (rb_check_received) */
	uint64_t duplicated;
	uint64_t foreign;		/* naming no producer of the run, or no buffer */
	const volatile uint64_t *stamps;	/* the stamp table, or NULL: no latency */
	uint64_t stamp_mask;
	struct mb_hist *latency;	/* ns from production to consumption */
};

/* What the records' check found, for a run of @nr producers that got @made[p] records in. */
struct rb_verdict {
	uint64_t made;			/* records that got into the buffer */
	uint64_t received;
	uint64_t lost;			/* counts only: made - received, when that is positive */
	uint64_t duplicated;
	uint64_t foreign;
	bool checked;			/* each record was checked: the three below are known */
	bool checksum_ok;		/* each producer's set of sequence numbers is 0..made-1 */
	bool ok;
};

/* Records received so far, from any thread. */
static inline uint64_t rb_check_received(const struct rb_check *c)
{
	return __atomic_load_n(&c->received, __ATOMIC_RELAXED);
}

int rb_check_init(struct rb_check *c, int nr_producers, int nr_bufs, bool each);
void rb_check_free(struct rb_check *c);
void rb_check_verdict(const struct rb_check *c, const uint64_t *made, struct rb_verdict *v);

static inline void rb_check_latency(struct rb_check *c, uint64_t producer, uint64_t seq)
{
	uint64_t ts = c->stamps[rb_stamp_index(producer, seq, c->stamp_mask)], now = mb_now_ns();

	if (ts && now >= ts)
		mb_hist_add(c->latency, now - ts);
}

/*
 * One record received, only counted: all the kernel bench's consumers do, each with an
 * atomic add (its atomic_inc(), a locked instruction on x86). One writer would need no more
 * than a relaxed store, but that costs less per record (3.5-4.1 ns less with libbpf's ring
 * and perf consumers here, docs/methodology.md): the same atomic add keeps the consumer's
 * work the kernel's.
 */
static inline void rb_check_count(struct rb_check *c)
{
	__atomic_add_fetch(&c->received, 1, __ATOMIC_RELAXED);
}

/* One record received from buffer @buf, @id its first word: counted and checked. */
static inline void rb_check_record(struct rb_check *c, uint64_t id, int buf)
{
	uint64_t producer = id >> RB_ID_SHIFT, seq = id & RB_SEQ_MASK, *next;

	rb_check_count(c);
	if (producer >= (uint64_t)c->nr_producers || buf < 0 || buf >= c->nr_bufs) {
		c->foreign++;
		return;
	}
	next = &c->next[producer * (uint64_t)c->nr_bufs + (uint64_t)buf];
	if (seq < *next) {
		c->duplicated++;
		return;
	}
	*next = seq + 1;
	c->count[producer]++;
	c->sum[producer] += seq;
	if (c->stamps && !(seq & (RB_STAMP_EVERY - 1)))
		rb_check_latency(c, producer, seq);
}

#endif
