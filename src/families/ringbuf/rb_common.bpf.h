/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What the ring buffer and perf buffer producers share: the record size, the stamp table and
 * the per-producer staging records of the copying APIs (bpf_ringbuf_output,
 * bpf_perf_event_output). Each op makes one record: the loop's cursor is the producer's
 * sequence number, which goes up only for a record that got in; a record that did not is a
 * drop (the slot's misses, the kernel bench's "drops").
 */
#ifndef MB_RB_COMMON_BPF_H
#define MB_RB_COMMON_BPF_H

#include "drivers/kloop.bpf.h"
#include "rb_shared.h"

/* Set before load. */
const volatile __u32 rb_rec_size = RB_MIN_RECORD;
const volatile __u64 rb_stamp_mask = 0;
/* --rb-check records: stamp the latency's records (the verifier drops the stamp otherwise). */
const volatile bool rb_stamps_on = false;

/*
 * Production times of every RB_STAMP_EVERY-th record, a row per producer (sized before load;
 * a row of one stamp, never written, without --rb-check records).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(key_size, 4);
	__uint(value_size, 8);
	__uint(max_entries, 1);
} mb_rb_stamps SEC(".maps");

struct rb_staging rb_staging[MB_MAX_SLOTS];

static __always_inline void rb_stamp(struct mb_loop_ctx *lc)
{
	__u32 idx;
	__u64 *ts;

	if (!rb_stamps_on || (lc->cursor & (RB_STAMP_EVERY - 1)))
		return;
	idx = (__u32)rb_stamp_index(lc->slot, lc->cursor, rb_stamp_mask);
	ts = bpf_map_lookup_elem(&mb_rb_stamps, &idx);
	if (ts)
		*ts = bpf_ktime_get_ns();
}

/* The staging record of @lc's producer, its first word set for the next record. */
static __always_inline struct rb_staging *rb_staged(struct mb_loop_ctx *lc)
{
	struct rb_staging *st = &rb_staging[lc->slot & (MB_MAX_SLOTS - 1)];

	st->word[0] = rb_record_id(lc->slot, lc->cursor);
	return st;
}

/* Account the record's fate: in the ring (the next sequence number) or dropped. */
static __always_inline int rb_made(struct mb_loop_ctx *lc, bool in)
{
	if (in)
		lc->cursor++;
	else
		lc->misses++;
	return 0;
}

#endif
