/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The in-kernel op loop for an XDP program: the op is one packet of the program's own, and
 * BPF_PROG_TEST_RUN hands it the packet, so no argument can come in through the context as
 * the raw_tp loop's do (kloop.bpf.h). The program finds its producer by thread
 * (thread_slots.bpf.h: each producer registers itself), reads the iterations user space wrote
 * into its slot's call_iters (xdp_loop.h) and times the loop with bpf_ktime_get_ns(), bounded
 * by may_goto; ops, calls and in-kernel ns go to the slot as the raw_tp loop's do, so the
 * producers, the samples and the linearity check of kloop.h read them unchanged.
 *
 * MB_XDP_LOOP(_prog, _pre, op...): @_pre runs once before the clock starts; the op, the rest
 * of the arguments (commas and all), is one iteration: a statement of xdp, slot (its struct
 * mb_slot *) and left (iterations still to come after this one: 0 on the last, whose packet
 * the call returns as test_run's output). It sets mb_ret, the program's return value (the
 * last iteration's verdict), and may leave the loop early with goto out.
 */
#ifndef MB_XDP_LOOP_BPF_H
#define MB_XDP_LOOP_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "kloop_shared.h"
#include "may_goto.bpf.h"
#include "slots.bpf.h"
#include "thread_slots.bpf.h"

/*
 * The program's frame, shared with its timed twin (xdp_loop_lat.bpf.h): MB_XDP_LOOP_OPEN
 * finds the slot, runs @_begin (the twin's set-up, on the locals mb_idx, slot and n) and
 * @_pre, and starts the clock; MB_XDP_LOOP_CLOSE stops it and counts the call. Between them,
 * MB_XDP_LOOP_RUN(stop, op...) runs packets while more than @stop are left: the plain loop
 * runs them all (stop 0), the twin stops before each packet it times.
 */
#define MB_XDP_LOOP_OPEN(_prog, _begin, _pre)					\
SEC("xdp")									\
int _prog(struct xdp_md *xdp)							\
{										\
	int mb_idx = mb_thread_slot();						\
	struct mb_slot *slot;							\
	__u64 left, n;								\
	int mb_ret = XDP_ABORTED;						\
										\
	if (mb_idx < 0)								\
		return XDP_ABORTED;	/* no call counted: user space sees it */ \
	slot = &mb_slots[mb_idx & (MB_MAX_SLOTS - 1)];				\
	n = slot->call_iters;							\
	left = n;								\
	_begin;									\
	_pre;									\
	slot->start_ns = bpf_ktime_get_ns();

#define MB_XDP_LOOP_RUN(_stop, ...)						\
	while (left > (_stop)) {						\
		MB_MAY_GOTO(out);						\
		left--;								\
		__VA_ARGS__;							\
	}

#define MB_XDP_LOOP_CLOSE							\
out:										\
	slot = &mb_slots[mb_idx & (MB_MAX_SLOTS - 1)];				\
	slot->kernel_ns += bpf_ktime_get_ns() - slot->start_ns;		\
	slot->calls++;								\
	slot->ops += n - left;							\
	return mb_ret;								\
}

#define MB_XDP_LOOP(_prog, _pre, ...)						\
	MB_XDP_LOOP_OPEN(_prog, , _pre)						\
	MB_XDP_LOOP_RUN(0, __VA_ARGS__)						\
	MB_XDP_LOOP_CLOSE

#endif
