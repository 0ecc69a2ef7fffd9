// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * BPF ring buffer producers (rb-libbpf, rb-custom): one record per op, by reserve and submit
 * (the record written in place) or by bpf_ringbuf_output (copied from the staging record), as
 * the kernel's ringbuf_bench does per getpgid() call; here a test_run call runs --rb-batch-cnt.
 */
#include "rb_common.bpf.h"

/* Sampled notification: wake the consumer only once this much data waits (0: always). */
const volatile __u64 rb_wakeup_data_size = 0;
/* No consumer to wake (--rb-bench-producer). */
const volatile bool rb_no_wakeup = false;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);	/* set before load */
} mb_rb SEC(".maps");

static __always_inline __u64 rb_notify_flags(void)
{
	if (rb_no_wakeup)
		return BPF_RB_NO_WAKEUP;
	if (!rb_wakeup_data_size)
		return 0;
	return bpf_ringbuf_query(&mb_rb, BPF_RB_AVAIL_DATA) >= rb_wakeup_data_size ?
		       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

static __always_inline int rb_reserve_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	__u64 *rec;

	rb_stamp(lc);
	rec = bpf_ringbuf_reserve(&mb_rb, rb_rec_size, 0);
	if (!rec)
		return rb_made(lc, false);
	*rec = rb_record_id(lc->slot, lc->cursor);
	bpf_ringbuf_submit(rec, rb_notify_flags());
	return rb_made(lc, true);
}

static __always_inline int rb_output_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	struct rb_staging *st;
	__u64 flags;

	rb_stamp(lc);
	st = rb_staged(lc);
	flags = rb_notify_flags();
	return rb_made(lc, !bpf_ringbuf_output(&mb_rb, st, rb_rec_size, flags));
}

MB_LOOP_PROG(mb_rb_reserve, rb_reserve_cb)
MB_LOOP_PROG(mb_rb_output, rb_output_cb)
