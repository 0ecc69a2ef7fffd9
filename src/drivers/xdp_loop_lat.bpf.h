/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The XDP op loop's timed twin (--latency): MB_XDP_LOOP_LAT(_prog, _pre, op...) is
 * MB_XDP_LOOP (xdp_loop.bpf.h) with one packet in MB_LAT_EVERY, on average, run between two
 * clock reads and recorded as the raw_tp loop's timed twin records its ops (kloop_lat.bpf.h:
 * MB_LAT_RECORD with the timer's third read, random gaps, per-CPU histograms in
 * mb_lat_hists). The timed span is the whole op: the packet's processing and whatever the op
 * does to ready the next packet. A packet's number counts over the producer's whole run (its
 * slot's ops before the call plus those of the call), so the rate holds across calls of any
 * length. The timing state of each producer lives in mb_xdp_lat_ctxs, beside nothing else:
 * the XDP loop keeps its own state in the slot. Every op pays two compares with a local; an
 * op that leaves the loop early is not recorded. Name the twin _prog##_lat: mb_loop_prepare (loop_kind.h)
 * keeps it in the plain program's place with --latency and drops it otherwise.
 */
#ifndef MB_XDP_LOOP_LAT_BPF_H
#define MB_XDP_LOOP_LAT_BPF_H

#include "xdp_loop.bpf.h"
#include "kloop_lat.bpf.h"

struct mb_loop_ctx_slot mb_xdp_lat_ctxs[MB_MAX_SLOTS];

/*
 * The packet with @left packets after it in the call, number lat_base - (left + 1), is due
 * (what MB_LAT_DUE tests in the raw_tp loop) when that number is at least lat_next: when left
 * < mb_due, lat_base - lat_next, or never where lat_next is past the call (mb_due 0). One
 * compare with a local per test; mb_due is worked out again after each timed packet.
 */
#define MB_XDP_LAT_DUE_FROM(lc)							\
	(MB_LAT_SLOT(lc)->lat_base > MB_LAT_SLOT(lc)->lat_next ?		\
	 MB_LAT_SLOT(lc)->lat_base - MB_LAT_SLOT(lc)->lat_next : 0)

/* The hooks of MB_XDP_LOOP_HOOKED, on its locals mb_idx, slot, n and left. */
#define MB_XDP_LAT_BEGIN							\
	struct mb_loop_ctx *mb_lc =						\
		&mb_xdp_lat_ctxs[mb_idx & (MB_MAX_SLOTS - 1)].lc;		\
	__u64 mb_due;								\
										\
	MB_LAT_SLOT(mb_lc)->lat_base = slot->ops + n;				\
	mb_due = MB_XDP_LAT_DUE_FROM(mb_lc)

#define MB_XDP_LAT_BEFORE							\
	do {									\
		if (left < mb_due)						\
			MB_LAT_SLOT(mb_lc)->lat_t0 = bpf_ktime_get_ns();	\
	} while (0)

#define MB_XDP_LAT_AFTER							\
	do {									\
		if (left < mb_due) {						\
			MB_LAT_RECORD(mb_lc,					\
				      MB_LAT_SLOT(mb_lc)->lat_base - (left + 1));	\
			mb_due = MB_XDP_LAT_DUE_FROM(mb_lc);			\
		}								\
	} while (0)

#define MB_XDP_LOOP_LAT(_prog, _pre, ...)					\
	MB_XDP_LOOP_HOOKED(_prog, MB_XDP_LAT_BEGIN, MB_XDP_LAT_BEFORE,		\
			   MB_XDP_LAT_AFTER, _pre, __VA_ARGS__)

#endif
