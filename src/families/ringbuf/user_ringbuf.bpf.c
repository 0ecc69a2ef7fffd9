// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The user-ringbuf bench's consumer: user-space producers write records into a
 * BPF_MAP_TYPE_USER_RINGBUF, and this raw_tp program, run by BPF_PROG_TEST_RUN from the
 * consumer thread, takes them with one bpf_user_ringbuf_drain call per run. Each record's first
 * word (rb_shared.h) is checked here as rb_check_record does in user space, and every
 * RB_STAMP_EVERY-th record's delay from its production goes to a log-linear histogram laid out
 * as util/hist.h's. Only the consumer thread runs the program, so plain .bss counters do.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "drivers/kloop_shared.h"
#include "rb_shared.h"

/* util/hist.h's layout (user_ringbuf.c checks that the two agree). */
#define UR_HIST_SUB_BITS	5
#define UR_HIST_SUB		(1u << UR_HIST_SUB_BITS)
#define UR_HIST_BUCKETS		((64 - UR_HIST_SUB_BITS + 1) * UR_HIST_SUB)

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set before load. */
const volatile __u32 ur_nr_producers = 1;
const volatile __u64 ur_stamp_mask = 0;

struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 4096);	/* set before load (--rb-size) */
} mb_ur_ring SEC(".maps");

/* Production times (CLOCK_MONOTONIC ns), written by the producers; a row per producer. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(key_size, 4);
	__uint(value_size, 8);
	__uint(max_entries, 1);		/* set before load */
} mb_ur_stamps SEC(".maps");

/* What the drain found, read by user space (the skeleton's mmapped .bss). */
__u64 ur_next[MB_MAX_SLOTS];		/* per producer: 1 + the last sequence number seen */
__u64 ur_count[MB_MAX_SLOTS];		/* per producer: records received once */
__u64 ur_sum[MB_MAX_SLOTS];		/* per producer: the sum of their sequence numbers */
__u64 ur_received;			/* every record taken, duplicates included */
__u64 ur_duplicated;
__u64 ur_foreign;			/* naming no producer of the run */
__s64 ur_drained;			/* the last drain call's return: records, or -errno */
__u64 ur_lat_count, ur_lat_min, ur_lat_max;
__u64 ur_lat_bucket[UR_HIST_BUCKETS];

/* The index of the highest bit set in @v (> 0), by halving: BPF has no count-leading-zeros. */
static __always_inline __u32 ur_msb(__u64 v)
{
	__u32 msb = 0;

	if (v >> 32) {
		msb += 32;
		v >>= 32;
	}
	if (v >> 16) {
		msb += 16;
		v >>= 16;
	}
	if (v >> 8) {
		msb += 8;
		v >>= 8;
	}
	if (v >> 4) {
		msb += 4;
		v >>= 4;
	}
	if (v >> 2) {
		msb += 2;
		v >>= 2;
	}
	if (v >> 1)
		msb += 1;
	return msb;
}

/* mb_hist_add() of util/hist.h, into the .bss histogram. */
static __always_inline void ur_lat_add(__u64 v)
{
	__u32 b = (__u32)v, shift;

	if (v >= UR_HIST_SUB) {
		shift = ur_msb(v) - UR_HIST_SUB_BITS;
		b = (shift + 1) * UR_HIST_SUB + (__u32)((v >> shift) & (UR_HIST_SUB - 1));
	}
	if (b >= UR_HIST_BUCKETS)
		return;
	if (!ur_lat_count || v < ur_lat_min)
		ur_lat_min = v;
	if (v > ur_lat_max)
		ur_lat_max = v;
	ur_lat_count++;
	ur_lat_bucket[b]++;
}

static __always_inline void ur_latency(__u64 producer, __u64 seq)
{
	__u32 idx = (__u32)rb_stamp_index(producer, seq, ur_stamp_mask);
	__u64 *ts = bpf_map_lookup_elem(&mb_ur_stamps, &idx), now;

	if (!ts || !*ts)
		return;
	now = bpf_ktime_get_ns();
	if (now >= *ts)
		ur_lat_add(now - *ts);
}

static long ur_record(struct bpf_dynptr *rec, void *ctx)
{
	__u64 id, producer, seq;

	ur_received++;
	if (bpf_dynptr_read(&id, sizeof(id), rec, 0, 0)) {
		ur_foreign++;
		return 0;
	}
	producer = id >> RB_ID_SHIFT;
	seq = id & RB_SEQ_MASK;
	if (producer >= ur_nr_producers || producer >= MB_MAX_SLOTS) {
		ur_foreign++;
		return 0;
	}
	if (seq < ur_next[producer]) {
		ur_duplicated++;
		return 0;
	}
	ur_next[producer] = seq + 1;
	ur_count[producer]++;
	ur_sum[producer] += seq;
	if (!(seq & (RB_STAMP_EVERY - 1)))
		ur_latency(producer, seq);
	return 0;
}

/*
 * One drain of every record there is (the kernel takes at most 128 Ki per call). No wake-up:
 * the producers never block waiting for room, they count a full ring as a drop.
 */
SEC("raw_tp")
int mb_ur_drain(void *ctx)
{
	ur_drained = bpf_user_ringbuf_drain(&mb_ur_ring, ur_record, NULL, BPF_RB_NO_WAKEUP);
	return 0;
}
