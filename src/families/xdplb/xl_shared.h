/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The load balancer's layout, shared by its XDP program (xl.bpf.c) and user space: the maps'
 * keys and values, the stats' indices, and the addresses the encapsulation writes, which the
 * program computes and user space expects. The includer provides __u8 .. __u64 and __be16 /
 * __be32 (vmlinux.h in BPF, <linux/types.h> in user space) and XL_INLINE.
 */
#ifndef MB_XL_SHARED_H
#define MB_XL_SHARED_H

#define XL_F_IPV6		(1u << 0)	/* a real reached over IPv6 */
#define XL_F_LRU_BYPASS		(1u << 1)	/* a VIP whose flows skip the connection table */

#define XL_RING_SIZE		65537		/* consistent-hash ring slots per VIP */
#define XL_MAX_VIPS		16
#define XL_RINGS		(XL_MAX_VIPS * XL_RING_SIZE)
#define XL_MAX_REALS		512
#define XL_LRU_SIZE		100000		/* each CPU's connection table */
#define XL_NEW_CONN_MAX		100000000	/* new flows per second before a flood: never here */
#define XL_UDP_TIMEOUT_NS	30000000000ULL	/* a UDP flow forgotten after 30 s */
#define XL_KNUTH		2654435761u

#define XL_ETH_P_IP		0x0800
#define XL_ETH_P_IPV6		0x86DD
#define XL_ETH_P_ARP		0x0806
#define XL_PROTO_ICMP		1
#define XL_PROTO_IPIP		4
#define XL_PROTO_TCP		6
#define XL_PROTO_UDP		17
#define XL_PROTO_IPV6		41
#define XL_PROTO_FRAGMENT	44
#define XL_IP_FRAG_MASK		0x3FFF		/* MF and the offset, host order */

/* The per-CPU stats array: 0 .. XL_MAX_VIPS - 1 count each VIP's packets and bytes. */
enum xl_stat {
	XL_STAT_LRU = XL_MAX_VIPS,	/* v1: packets to a VIP, v2: connection-table misses */
	XL_STAT_TX,			/* v1: packets sent back encapsulated */
	XL_STAT_PASS,			/* v1: packets left to the stack */
	XL_STAT_DROP,			/* v1: packets dropped */
	XL_STAT_NEW_CONN,		/* v1: new flows this second, v2: when the second began */
	XL_STAT_TCP_MISS,		/* v1: TCP packets that missed the connection table */
	XL_STATS,
};

/* A flow: the connection table's key. Addresses and ports as on the wire. */
struct xl_flow {
	union {
		__be32 src;
		__be32 srcv6[4];
	};
	union {
		__be32 dst;
		__be32 dstv6[4];
	};
	union {
		__u32 ports;
		__be16 port16[2];	/* source, destination */
	};
	__u8 proto;
	__u8 pad[3];
};

/* A VIP: the VIP table's key. */
struct xl_vip {
	union {
		__be32 vip;
		__be32 vipv6[4];
	};
	__be16 port;
	__u8 proto;
	__u8 pad;
};

struct xl_vip_meta {
	__u32 flags;		/* XL_F_* */
	__u32 vip_num;		/* its ring and its stats index */
};

/* The connection table's value: the real a flow goes to, and UDP's last packet. */
struct xl_lru_val {
	__u32 pos;
	__u64 atime;
};

struct xl_real {
	__be32 dst;
	__be32 dstv6[4];
	__u8 flags;		/* XL_F_IPV6 */
};

struct xl_stat_val {
	__u64 v1;
	__u64 v2;
};

struct xl_ctl {
	__u8 mac[6];		/* the router's: the encapsulated packet's destination */
	__u8 pad[2];
};

/*
 * The outer source of an IPv4-in-IPv4 packet: 172.16.X.Y, X.Y the client address's last two
 * bytes XOR its source port (bytes as on the wire), so that the router's hash spreads flows.
 */
XL_INLINE void xl_encap_src_v4(const __u8 *client, const __u8 *sport, __u8 *out)
{
	out[0] = 172;
	out[1] = 16;
	out[2] = client[2] ^ sport[0];
	out[3] = client[3] ^ sport[1];
}

/*
 * The outer source of an encapsulation in IPv6: 0100::/64 (RFC 6666, discard only), the last
 * four bytes the client address's first four, XOR its source port in the last two.
 */
XL_INLINE void xl_encap_src_v6(const __u8 *client, const __u8 *sport, __u8 *out)
{
	for (int i = 0; i < 12; i++)
		out[i] = i == 0 ? 0x01 : 0;
	out[12] = client[0];
	out[13] = client[1];
	out[14] = client[2] ^ sport[0];
	out[15] = client[3] ^ sport[1];
}

/* The IPv4 header checksum of a 20-byte header @w whose check field is 0. */
XL_INLINE __u16 xl_ip_csum(const __u16 *w)
{
	__u32 sum = 0;

	for (int i = 0; i < 10; i++)
		sum += w[i];
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

#endif
