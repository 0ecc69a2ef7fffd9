/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The cgroupmaps family's producer for a program whose context is a packet (cgroup_skb, tc):
 * BPF_PROG_TEST_RUN calls of a program that runs its own may_goto loop of *@iters ops and
 * counts into its slot (struct mb_slot: ops, kernel_ns, calls, hits, ...), sized to --call_us
 * of in-kernel time as the drivers' loop sizes its calls, with the drivers' empty-loop
 * reference between them. One producer: the count of ops comes in the program's .bss.
 */
#ifndef MB_FAMILIES_CG_PKT_H
#define MB_FAMILIES_CG_PKT_H

#include <stdint.h>
#include <linux/types.h>

#include "core/bench.h"
#include "drivers/kloop_shared.h"

struct cg_pkt_cfg {
	int prog_fd;
	struct mb_slot *slot;	/* the program's counters */
	__u64 *iters;		/* where the program reads its count of ops (its .bss) */
	uint32_t retval;	/* what the program returns */
	/*
	 * After each call, with the slot's counters in @c: a check of the call's @done ops that
	 * may set @c's hits and errors. NULL: the slot's counts stand.
	 */
	void (*after)(void *ctx, uint64_t done, struct mb_counters *c);
	void *ctx;
};

/* The producer's body: calls until the run stops. 0, or a negative errno. */
int cg_pkt_produce(struct mb_run *run, struct mb_producer *p, const struct cg_pkt_cfg *cfg);

#endif
