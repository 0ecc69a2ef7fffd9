// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The 24 scenarios of the kernel's xdp-lb bench, by its names, in its order: the addresses,
 * ports, flags and connection-table patterns its scenarios define, written out as data.
 */
#include <string.h>
#include <linux/bpf.h>

#include "xl.h"

#define V4(a, b, c, d)		{ a, b, c, d }
#define W(w)			((w) >> 24) & 0xff, ((w) >> 16) & 0xff, ((w) >> 8) & 0xff, (w) & 0xff
#define V6(w0, w1, w2, w3)	{ W(w0), W(w1), W(w2), W(w3) }

/* Sent encapsulated: in IPv4, or in IPv6 (a client on IPv6, or a real reached over it). */
#define TX4	.action = XDP_TX
#define TX6	.action = XDP_TX, .v6 = true, .outer_v6 = true
#define TX46	.action = XDP_TX, .outer_v6 = true
#define TCP	.proto = XL_PROTO_TCP
#define UDP	.proto = XL_PROTO_UDP

const struct xl_scenario xl_scenarios[XL_NR_SCENARIOS] = {
	/* One flow */
	{ "tcp-v4-lru-hit", "IPv4 TCP, flow in the LRU, IPIP encap", TX4, TCP,
	  .vip = V4(10, 10, 1, 1), .dport = 80, .src = V4(10, 10, 2, 1), .sport = 12345,
	  .known = true, .miss = XL_MISS_NONE },
	{ "tcp-v4-ch", "IPv4 TCP, consistent hash (VIP bypasses the LRU), IPIP encap", TX4, TCP,
	  .vip = V4(10, 10, 1, 2), .dport = 80, .src = V4(10, 10, 2, 2), .sport = 54321,
	  .vip_flags = XL_F_LRU_BYPASS, .vip_num = 1, .miss = XL_MISS_ALL },
	{ "tcp-v6-lru-hit", "IPv6 TCP, flow in the LRU, IP6IP6 encap", TX6, TCP,
	  .vip = V6(0xfd000100, 0, 0, 1), .dport = 80, .src = V6(0xfd000200, 0, 0, 1),
	  .sport = 12345, .vip_num = 10, .known = true, .miss = XL_MISS_NONE },
	{ "tcp-v6-ch", "IPv6 TCP, consistent hash (VIP bypasses the LRU), IP6IP6 encap", TX6, TCP,
	  .vip = V6(0xfd000100, 0, 0, 2), .dport = 80, .src = V6(0xfd000200, 0, 0, 2),
	  .sport = 54321, .vip_flags = XL_F_LRU_BYPASS, .vip_num = 12, .miss = XL_MISS_ALL },
	{ "udp-v4-lru-hit", "IPv4 UDP, flow in the LRU, IPIP encap", TX4, UDP,
	  .vip = V4(10, 10, 1, 1), .dport = 443, .src = V4(10, 10, 3, 1), .sport = 11111,
	  .vip_num = 2, .known = true, .miss = XL_MISS_NONE },
	{ "udp-v6-lru-hit", "IPv6 UDP, flow in the LRU, IP6IP6 encap", TX6, UDP,
	  .vip = V6(0xfd000100, 0, 0, 1), .dport = 443, .src = V6(0xfd000200, 0, 0, 3),
	  .sport = 22222, .vip_num = 14, .known = true, .miss = XL_MISS_NONE },
	{ "tcp-v4v6-lru-hit", "IPv4 TCP, flow in the LRU, IPv4-in-IPv6 encap", TX46, TCP,
	  .vip = V4(10, 10, 1, 4), .dport = 80, .src = V4(10, 10, 2, 4), .sport = 12347,
	  .vip_num = 13, .known = true, .miss = XL_MISS_NONE },
	/* 4096 sources */
	{ "tcp-v4-lru-diverse", "IPv4 TCP, 4K flows, warm LRU", TX4, TCP,
	  .vip = V4(10, 10, 1, 1), .dport = 80, .src = V4(10, 10, 2, 1), .sport = 12345,
	  .known = true, .flow_mask = 0xFFF, .miss = XL_MISS_NONE },
	{ "tcp-v4-ch-diverse", "IPv4 TCP, 4K flows, consistent hash (LRU bypass)", TX4, TCP,
	  .vip = V4(10, 10, 1, 2), .dport = 80, .src = V4(10, 10, 2, 2), .sport = 54321,
	  .vip_flags = XL_F_LRU_BYPASS, .vip_num = 1, .flow_mask = 0xFFF, .miss = XL_MISS_ALL },
	{ "tcp-v6-lru-diverse", "IPv6 TCP, 4K flows, warm LRU", TX6, TCP,
	  .vip = V6(0xfd000100, 0, 0, 1), .dport = 80, .src = V6(0xfd000200, 0, 0, 1),
	  .sport = 12345, .vip_num = 10, .known = true, .flow_mask = 0xFFF,
	  .miss = XL_MISS_NONE },
	{ "tcp-v6-ch-diverse", "IPv6 TCP, 4K flows, consistent hash (LRU bypass)", TX6, TCP,
	  .vip = V6(0xfd000100, 0, 0, 2), .dport = 80, .src = V6(0xfd000200, 0, 0, 2),
	  .sport = 54321, .vip_flags = XL_F_LRU_BYPASS, .vip_num = 12, .flow_mask = 0xFFF,
	  .miss = XL_MISS_ALL },
	{ "udp-v4-lru-diverse", "IPv4 UDP, 4K flows, warm LRU", TX4, UDP,
	  .vip = V4(10, 10, 1, 1), .dport = 443, .src = V4(10, 10, 3, 1), .sport = 11111,
	  .vip_num = 2, .known = true, .flow_mask = 0xFFF, .miss = XL_MISS_NONE },
	/* The LRU under stress */
	{ "tcp-v4-lru-miss", "IPv4 TCP, 16M flows: LRU misses, consistent hash", TX4, TCP,
	  .vip = V4(10, 10, 1, 1), .dport = 80, .src = V4(10, 10, 2, 1), .sport = 12345,
	  .flow_mask = 0xFFFFFF, .cold = true, .miss = XL_MISS_FIRST },
	{ "udp-v4-lru-miss", "IPv4 UDP, 16M flows: LRU misses, consistent hash", TX4, UDP,
	  .vip = V4(10, 10, 1, 1), .dport = 443, .src = V4(10, 10, 3, 1), .sport = 11111,
	  .vip_num = 2, .flow_mask = 0xFFFFFF, .cold = true, .miss = XL_MISS_FIRST },
	{ "tcp-v4-lru-warmup", "IPv4 TCP, 4K new flows per call of 6500 packets: ~50 % misses",
	  TX4, TCP, .vip = V4(10, 10, 1, 1), .dport = 80, .src = V4(10, 10, 2, 1),
	  .sport = 12345, .flow_mask = 0xFFF, .cold = true, .fixed_iters = 6500,
	  .miss = XL_MISS_FIRST },
	/* TCP flags */
	{ "tcp-v4-syn", "IPv4 TCP SYN: no LRU lookup, consistent hash and LRU insert", TX4, TCP,
	  .vip = V4(10, 10, 1, 1), .dport = 80, .src = V4(10, 10, 8, 2), .sport = 60001,
	  .syn = true, .miss = XL_MISS_ALL },
	{ "tcp-v4-rst-miss", "IPv4 TCP RST on new flows: consistent hash, no LRU insert", TX4,
	  TCP, .vip = V4(10, 10, 1, 1), .dport = 80, .src = V4(10, 10, 8, 1), .sport = 60000,
	  .flow_mask = 0xFFFFFF, .cold = true, .rst = true, .miss = XL_MISS_ALL },
	/* Early exits */
	{ "pass-v4-no-vip", "IPv4 TCP to no VIP: XDP_PASS", .action = XDP_PASS, TCP,
	  .vip = V4(10, 10, 9, 9), .dport = 80, .src = V4(10, 10, 4, 1), .sport = 33333 },
	{ "pass-v6-no-vip", "IPv6 TCP to no VIP: XDP_PASS", .action = XDP_PASS, .v6 = true, TCP,
	  .vip = V6(0xfd009900, 0, 0, 1), .dport = 80, .src = V6(0xfd000400, 0, 0, 1),
	  .sport = 33333 },
	{ "pass-v4-icmp", "IPv4 ICMP, neither TCP nor UDP: XDP_PASS", .action = XDP_PASS,
	  .proto = XL_PROTO_ICMP, .vip = V4(10, 10, 1, 1), .src = V4(10, 10, 6, 1) },
	{ "pass-non-ip", "ARP, not IP: the earliest XDP_PASS", .action = XDP_PASS,
	  .eth_proto = XL_ETH_P_ARP },
	{ "drop-v4-frag", "IPv4 fragment: XDP_DROP", .action = XDP_DROP, TCP,
	  .vip = V4(10, 10, 1, 1), .dport = 80, .src = V4(10, 10, 5, 1), .sport = 44444,
	  .frag = true },
	{ "drop-v4-options", "IPv4 with options (IHL 6): XDP_DROP", .action = XDP_DROP, TCP,
	  .vip = V4(10, 10, 1, 1), .dport = 80, .src = V4(10, 10, 7, 1), .sport = 55555,
	  .ip_opts = true },
	{ "drop-v6-frag", "IPv6 fragment header: XDP_DROP", .action = XDP_DROP, .v6 = true, TCP,
	  .vip = V6(0xfd000100, 0, 0, 1), .dport = 80, .src = V6(0xfd000500, 0, 0, 1),
	  .sport = 44444, .frag = true },
};

const struct xl_scenario *xl_scenario_find(const char *name)
{
	for (int i = 0; i < XL_NR_SCENARIOS; i++)
		if (!strcmp(xl_scenarios[i].name, name))
			return &xl_scenarios[i];
	return NULL;
}

void xl_scenarios_print(FILE *f)
{
	for (int i = 0; i < XL_NR_SCENARIOS; i++)
		fprintf(f, "%-20s %s\n", xl_scenarios[i].name, xl_scenarios[i].desc);
}
