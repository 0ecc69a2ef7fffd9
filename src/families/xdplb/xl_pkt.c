// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The scenarios' packets, and what the balancer must make of them: Ethernet, then IPv4 or
 * IPv6 (IPv4 options, fragments as a scenario asks), then TCP or UDP, then 16 bytes of
 * payload; after the balancer, a new Ethernet header to the router and an outer IPv4 or IPv6
 * header to the real in front of the packet as it came. Pure: the unit tests check them.
 */
#include <string.h>
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#include "xl.h"

#define PAYLOAD		"mapbench-xdp-lb!"	/* 16 bytes */
#define PAYLOAD_LEN	16

const __u8 xl_lb_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x1b, 0x01 };
const __u8 xl_client_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0xc1, 0x01 };
const __u8 xl_router_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x7e, 0x01 };
const __u8 xl_tunnel_v4[4] = { 192, 168, 1, 2 };
const __u8 xl_tunnel_v6[16] = { 0xfd, 0, [15] = 2 };

static void put_eth(__u8 *p, const __u8 *dst, const __u8 *src, __u16 proto)
{
	struct ethhdr eth;

	memcpy(eth.h_dest, dst, ETH_ALEN);
	memcpy(eth.h_source, src, ETH_ALEN);
	eth.h_proto = htons(proto);
	memcpy(p, &eth, sizeof(eth));
}

/* TCP or UDP header and the payload at @p; their length. */
static __u32 put_l4(const struct xl_scenario *s, __u8 *p)
{
	__u32 n = 0;

	if (s->proto == XL_PROTO_TCP) {
		struct tcphdr th = { .source = htons(s->sport), .dest = htons(s->dport),
				     .doff = 5, .syn = s->syn, .rst = s->rst,
				     .window = htons(8192) };

		memcpy(p, &th, sizeof(th));
		n = sizeof(th);
	} else if (s->proto == XL_PROTO_UDP) {
		struct udphdr uh = { .source = htons(s->sport), .dest = htons(s->dport),
				     .len = htons(sizeof(uh) + PAYLOAD_LEN) };

		memcpy(p, &uh, sizeof(uh));
		n = sizeof(uh);
	}
	memcpy(p + n, PAYLOAD, PAYLOAD_LEN);
	return n + PAYLOAD_LEN;
}

static __u32 put_ipv6(const struct xl_scenario *s, __u8 *p)
{
	struct ipv6hdr ip6 = { .version = 6, .hop_limit = 64 };
	__u32 n = sizeof(ip6);

	ip6.nexthdr = s->frag ? XL_PROTO_FRAGMENT : s->proto;
	memcpy(&ip6.saddr, s->src, 16);
	memcpy(&ip6.daddr, s->vip, 16);
	if (s->frag) {
		/* A fragment header: the next header, then offset 0, no more fragments. */
		memset(p + n, 0, 8);
		p[n] = s->proto;
		n += 8;
	}
	n += put_l4(s, p + n);
	ip6.payload_len = htons((__u16)(n - sizeof(ip6)));
	memcpy(p, &ip6, sizeof(ip6));
	return n;
}

static __u32 put_ipv4(const struct xl_scenario *s, __u8 *p)
{
	struct iphdr ip = { .version = 4, .ihl = s->ip_opts ? 6 : 5, .ttl = 64,
			    .protocol = s->proto };
	__u32 n = sizeof(ip);

	memcpy(&ip.saddr, s->src, 4);
	memcpy(&ip.daddr, s->vip, 4);
	if (s->frag)
		ip.frag_off = htons(0x2000);	/* more fragments */
	if (s->ip_opts) {
		memset(p + n, 1, 4);		/* four NOPs */
		n += 4;
	}
	n += put_l4(s, p + n);
	ip.tot_len = htons((__u16)n);
	/* The checksum of the first 20 bytes: the balancer looks no further than IHL. */
	ip.check = xl_ip_csum((const __u16 *)&ip);
	memcpy(p, &ip, sizeof(ip));
	return n;
}

__u32 xl_pkt_build(const struct xl_scenario *s, __u8 *buf)
{
	__u16 proto = s->eth_proto ? s->eth_proto : s->v6 ? XL_ETH_P_IPV6 : XL_ETH_P_IP;
	__u32 n = sizeof(struct ethhdr);

	memset(buf, 0, XL_PKT_MAX);
	put_eth(buf, xl_lb_mac, xl_client_mac, proto);
	if (proto == XL_ETH_P_IPV6)
		n += put_ipv6(s, buf + n);
	else if (proto == XL_ETH_P_IP)
		n += put_ipv4(s, buf + n);
	else {
		memcpy(buf + n, PAYLOAD, PAYLOAD_LEN);
		n += PAYLOAD_LEN;
	}
	return n;
}

static void skip(struct xl_expect *e, __u32 off, __u32 len)
{
	if (e->nr_skips < XL_MAX_SKIPS)
		e->skip[e->nr_skips++] = (struct xl_skip){ off, len };
}

/* The outer header of @s's packet at @p, the client's @inner bytes behind it; its length. */
static __u32 put_outer(const struct xl_scenario *s, const __u8 *in, __u32 inner, __u8 *p)
{
	const __u8 *client = in + ETH_HLEN + (s->v6 ? offsetof(struct ipv6hdr, saddr) :
						   offsetof(struct iphdr, saddr));
	const __u8 *sport = in + ETH_HLEN + (s->v6 ? sizeof(struct ipv6hdr) : sizeof(struct iphdr));

	if (s->outer_v6) {
		struct ipv6hdr ip6 = { .version = 6, .hop_limit = 64,
				       .nexthdr = s->v6 ? XL_PROTO_IPV6 : XL_PROTO_IPIP,
				       .payload_len = htons((__u16)inner) };

		xl_encap_src_v6(client, sport, (__u8 *)&ip6.saddr);
		memcpy(&ip6.daddr, xl_tunnel_v6, 16);
		memcpy(p, &ip6, sizeof(ip6));
		return sizeof(ip6);
	} else {
		struct iphdr ip = { .version = 4, .ihl = 5, .ttl = 64, .protocol = XL_PROTO_IPIP,
				    .tot_len = htons((__u16)(inner + sizeof(ip))) };

		xl_encap_src_v4(client, sport, (__u8 *)&ip.saddr);
		memcpy(&ip.daddr, xl_tunnel_v4, 4);
		ip.check = xl_ip_csum((const __u16 *)&ip);
		memcpy(p, &ip, sizeof(ip));
		return sizeof(ip);
	}
}

void xl_pkt_expect(const struct xl_scenario *s, const __u8 *in, __u32 len, struct xl_expect *e)
{
	__u32 inner = len - ETH_HLEN, outer, src_off;

	memset(e, 0, sizeof(*e));
	if (s->action == XDP_DROP)
		return;
	if (s->action != XDP_TX) {
		memcpy(e->data, in, len);
		e->len = len;
		return;
	}
	put_eth(e->data, xl_router_mac, xl_lb_mac, s->outer_v6 ? XL_ETH_P_IPV6 : XL_ETH_P_IP);
	outer = put_outer(s, in, inner, e->data + ETH_HLEN);
	memcpy(e->data + ETH_HLEN + outer, in + ETH_HLEN, inner);
	e->len = ETH_HLEN + outer + inner;
	if (!s->cold)
		return;
	/* A cold call's source is its own: the client's, the outer one made of it, its sum. */
	src_off = s->v6 ? offsetof(struct ipv6hdr, saddr) : offsetof(struct iphdr, saddr);
	skip(e, ETH_HLEN + outer + src_off, 4);
	if (s->outer_v6) {
		skip(e, ETH_HLEN + offsetof(struct ipv6hdr, saddr), 16);
	} else {
		skip(e, ETH_HLEN + offsetof(struct iphdr, saddr), 4);
		skip(e, ETH_HLEN + offsetof(struct iphdr, check), 2);
	}
}

static bool skipped(const struct xl_expect *e, __u32 off)
{
	for (int i = 0; i < e->nr_skips; i++)
		if (off >= e->skip[i].off && off < e->skip[i].off + e->skip[i].len)
			return true;
	return false;
}

long xl_pkt_diff(const struct xl_expect *e, const __u8 *got, __u32 len)
{
	for (__u32 i = 0; i < len && i < e->len; i++)
		if (got[i] != e->data[i] && !skipped(e, i))
			return (long)i;
	return len == e->len ? -1 : (long)(len < e->len ? len : e->len);
}
