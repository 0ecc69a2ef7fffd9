/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * xdp-lb: the kernel's XDP load-balancer bench (bench_xdp_lb.c, 2026) with its 24 scenarios.
 * xl_scen.c holds the scenarios, xl_pkt.c the packets (pure: built, expected after the
 * balancer, compared), xl_setup.c the maps, the program and the check before timing, xl.c the
 * bench.
 */
#ifndef MB_XL_H
#define MB_XL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>

#define XL_INLINE static inline
#include "xl_shared.h"

#define XL_PKT_MAX	256			/* a scenario's packet */
#define XL_OUT_MAX	(XL_PKT_MAX + 40)	/* with an IPv6 header in front */
/*
 * The real reached over IPv4, and the one over IPv6. Every ring slot names the first: 0, so
 * the rings need no fill (an array starts zeroed); the kernel's bench numbers them 1 and 2.
 */
#define XL_REAL_V4	0
#define XL_REAL_V6	1
#define XL_CHECK_ITERS	64			/* packets of the call checked before timing */
#define XL_DIVERSE_FLOWS 4096			/* sources of a 0xFFF flow mask */

/* The connection-table misses the check's call must see (the kernel's lru_miss_type). */
enum xl_miss {
	XL_MISS_NONE,	/* every packet found its flow */
	XL_MISS_ALL,	/* none did: a SYN, an RST on new flows, a VIP bypassing the table */
	XL_MISS_FIRST,	/* the first, whose flow the call made new (a cold table) */
};

struct xl_scenario {
	const char *name;
	const char *desc;
	int action;		/* XDP_TX, XDP_PASS, XDP_DROP */
	bool v6;		/* the client's packet is IPv6 */
	bool outer_v6;		/* encapsulated in IPv6 (the flow's real has XL_F_IPV6) */
	__u16 eth_proto;	/* 0: IPv4 or IPv6 by @v6 */
	__u8 proto;		/* XL_PROTO_TCP, _UDP, _ICMP */
	__u8 vip[16];		/* IPv4: the first 4 bytes */
	__u8 src[16];
	__u16 dport, sport;
	__u32 vip_flags;	/* XL_F_LRU_BYPASS */
	__u32 vip_num;
	bool known;		/* the flow is in every CPU's table before the run */
	bool frag, syn, rst, ip_opts;
	bool cold;		/* each call's flows new */
	__u32 flow_mask;	/* while timed: random sources under this mask */
	__u32 fixed_iters;	/* packets per call (0: sized like any op loop's call) */
	enum xl_miss miss;
};

#define XL_NR_SCENARIOS		24
#define XL_DEFAULT_SCENARIO	"tcp-v4-lru-hit"

extern const struct xl_scenario xl_scenarios[XL_NR_SCENARIOS];

/* The scenario called @name, or NULL. */
const struct xl_scenario *xl_scenario_find(const char *name);
/* One line each, name and description, as --list-scenarios prints them. */
void xl_scenarios_print(FILE *f);

/* ---- packets (xl_pkt.c) ---- */

extern const __u8 xl_lb_mac[6], xl_client_mac[6], xl_router_mac[6];
extern const __u8 xl_tunnel_v4[4], xl_tunnel_v6[16];

/* A byte range of an output packet that depends on the call (a cold call's sources). */
struct xl_skip {
	__u32 off, len;
};

#define XL_MAX_SKIPS	3

struct xl_expect {
	__u8 data[XL_OUT_MAX];
	__u32 len;			/* 0: dropped, no packet to compare */
	struct xl_skip skip[XL_MAX_SKIPS];
	int nr_skips;
};

/* The scenario's packet into @buf (XL_PKT_MAX bytes). Returns its length. */
__u32 xl_pkt_build(const struct xl_scenario *s, __u8 *buf);
/* What the balancer makes of @in (@len bytes) for @s: its output, and what a call varies. */
void xl_pkt_expect(const struct xl_scenario *s, const __u8 *in, __u32 len, struct xl_expect *e);
/*
 * Compare @got (@len bytes) with @e outside its skipped ranges: -1 when they agree, else the
 * first offset that differs (@len where the lengths differ).
 */
long xl_pkt_diff(const struct xl_expect *e, const __u8 *got, __u32 len);

#endif
