/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the streaming benches' BPF programs and user space agree on (the includer provides
 * __u64). A record starts with one word: the producer's index in its top 8 bits and, below,
 * the producer's own sequence number of the records it got into the ring (0, 1, 2, ...), so
 * that a consumer can tell a record lost from one seen twice. Every RB_STAMP_EVERY-th record's
 * production time (bpf_ktime_get_ns, CLOCK_MONOTONIC) goes to the producer's row of a stamp
 * table instead of into the record, which keeps the 8-byte records of the kernel's bench: the
 * consumer reads it back for the delay from production to consumption.
 */
#ifndef MB_RB_SHARED_H
#define MB_RB_SHARED_H

#define RB_ID_SHIFT		56
#define RB_SEQ_MASK		((1ULL << RB_ID_SHIFT) - 1)
#define RB_STAMP_SHIFT		6
#define RB_STAMP_EVERY		(1u << RB_STAMP_SHIFT)

#define RB_MIN_RECORD		8
#define RB_MAX_RECORD		4096

/* The record a copying API copies from, one per producer. */
struct rb_staging {
	__u64 word[RB_MAX_RECORD / 8];
};

/* The record's first word. */
static inline __u64 rb_record_id(__u64 producer, __u64 seq)
{
	return producer << RB_ID_SHIFT | (seq & RB_SEQ_MASK);
}

/* Where record @seq of a producer finds its stamp, in that producer's row of @mask + 1. */
static inline __u64 rb_stamp_index(__u64 producer, __u64 seq, __u64 mask)
{
	return producer * (mask + 1) + ((seq >> RB_STAMP_SHIFT) & mask);
}

#endif
