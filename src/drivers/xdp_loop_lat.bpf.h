/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The XDP op loop's timed twin (--latency): MB_XDP_LOOP_LAT(_prog, _pre, op...) is
 * MB_XDP_LOOP (xdp_loop.bpf.h) with one packet in MB_LAT_EVERY, on average, run between two
 * clock reads and recorded as the raw_tp loop's timed twin records its ops (kloop_lat.bpf.h:
 * MB_LAT_RECORD with the timer's third read, random gaps, per-CPU histograms in
 * mb_lat_hists). The timed span is the whole op: the packet's processing and whatever the op
 * does to ready the next packet. A packet's number counts over the producer's whole run (its
 * slot's ops before the call plus those of the call), so the rate holds across calls of any
 * length.
 *
 * The untimed packets run the plain loop's code: the twin runs them in the plain loop's own
 * inner loop (MB_XDP_LOOP_RUN), whose test against 0 becomes a test against the number of
 * packets left at the next timed one, and steps out of it only around a timed packet (an
 * outer loop that turns once per timed packet; tests/unit/test_lat_cost.c measures what that
 * costs the others). The op's code is one copy, timed or not,
 * so a timed packet runs the same code the others do. An op that leaves the loop early is not
 * recorded. The timing state of each producer lives in mb_xdp_lat_ctxs. Name the twin
 * _prog##_lat: mb_loop_prepare (loop_kind.h) keeps it in the plain program's place with
 * --latency and drops it otherwise.
 */
#ifndef MB_XDP_LOOP_LAT_BPF_H
#define MB_XDP_LOOP_LAT_BPF_H

#include "xdp_loop.bpf.h"
#include "kloop_lat.bpf.h"

struct mb_loop_ctx_slot mb_xdp_lat_ctxs[MB_MAX_SLOTS];

/* Set-up, on the frame's locals mb_idx, slot and n (MB_XDP_LOOP_OPEN). */
#define MB_XDP_LAT_BEGIN							\
	struct mb_loop_ctx *mb_lc =						\
		&mb_xdp_lat_ctxs[mb_idx & (MB_MAX_SLOTS - 1)].lc;		\
	__u64 mb_stop;								\
	bool mb_timed;								\
										\
	MB_LAT_SLOT(mb_lc)->lat_base = slot->ops + n

/*
 * Each turn of the outer loop runs the untimed packets before the next due one
 * (MB_LAT_DUE_AT: packets left at it), or the due one alone between the clock reads (one
 * overdue, as after a call left early, is timed at once).
 */
#define MB_XDP_LOOP_LAT(_prog, _pre, ...)					\
	MB_XDP_LOOP_OPEN(_prog, MB_XDP_LAT_BEGIN, _pre)				\
	while (left) {								\
		MB_MAY_GOTO(out);						\
		mb_stop = MB_LAT_DUE_AT(mb_lc);				\
		mb_timed = mb_stop >= left;					\
		if (mb_timed) {							\
			mb_stop = left - 1;					\
			MB_LAT_BEGIN(mb_lc);					\
		}								\
		MB_XDP_LOOP_RUN(mb_stop, __VA_ARGS__)				\
		if (mb_timed)							\
			MB_LAT_RECORD(mb_lc, MB_LAT_SLOT(mb_lc)->lat_base - (left + 1)); \
	}									\
	MB_XDP_LOOP_CLOSE

#endif
