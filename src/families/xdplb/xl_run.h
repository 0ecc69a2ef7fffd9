/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* xdp-lb's run state: what set-up makes (xl_setup.c) and the bench's hooks use (xl.c). */
#ifndef MB_XL_RUN_H
#define MB_XL_RUN_H

#include "core/bench.h"
#include "drivers/kloop.h"	/* struct mb_slot, before the skeleton */
#include "drivers/map_create.h"
#include "drivers/xdp_loop.h"
#include "xl.h"
#include "xl.skel.h"

struct xl_args {
	const struct xl_scenario *scenario;
	bool list;
};

/* The per-CPU stats the program counted, added up over CPUs. */
struct xl_counts {
	__u64 tx, pass, drop;
	__u64 lru_packets, lru_misses, tcp_misses;
};

/* What the call before timing found (xl_check). */
struct xl_checked {
	__u64 packets;
	__u32 retval;
	__u32 out_len;
	__u64 misses, want_misses;
};

struct xl_state {
	struct xl_bpf *skel;
	struct mb_cpu_maps lru;
	int nr_tables;			/* CPUs with a connection table */
	__u8 pkt[XL_PKT_MAX];
	struct mb_xdp_packet packet;
	struct xl_expect expect;
	struct xl_checked checked;
};

int xl_setup(struct mb_run *run);
/* The check before timing (xl_check.c); then the state the producers start from. */
int xl_check(struct mb_run *run, struct xl_state *st);
void xl_teardown(struct mb_run *run);
/* The program's stats over every CPU. 0 or -errno. */
int xl_counts_read(const struct xl_state *st, struct xl_counts *c);
/* Zero them. 0 or a negative error. */
int xl_counts_reset(const struct xl_state *st);

#endif
