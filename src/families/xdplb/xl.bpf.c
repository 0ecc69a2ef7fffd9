// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * xdp-lb: a layer-4 load balancer shaped like a production one, the program of the kernel's
 * xdp-lb bench (2026) rewritten: a VIP table (hash), a connection table per CPU (an LRU hash
 * each, in an array of maps indexed by CPU), a consistent-hash ring per VIP for flows the
 * table does not know, the reals, per-CPU stats. A packet to a VIP leaves encapsulated
 * (IPIP, IP6IP6 or IPv4 in IPv6) towards its real with XDP_TX; anything else is passed to
 * the stack or dropped (fragments, IPv4 options).
 *
 * The op loop (drivers/xdp_loop.bpf.h) runs the balancer on the packet test_run hands it,
 * then undoes what it did (strips the encapsulation, restores the Ethernet header) before the
 * next packet, except after the last, whose output test_run returns for user space to check.
 * Its timed twin mb_xl_lb_lat (drivers/xdp_loop_lat.bpf.h), loaded in its place with
 * --latency, runs the same packet code and times one packet in MB_LAT_EVERY on its own.
 * Scenarios vary the source between packets (xl_flow_mask: random sources in a space of that
 * size) and make a call's flows new (xl_cold: the source XORed with a value of the call).
 */
#include "drivers/xdp_loop_lat.bpf.h"
#include <bpf/bpf_endian.h>

#define XL_INLINE static __always_inline
#include "util/jhash.h"
#include "xl_shared.h"

#define XL_RET_MISS	0x100	/* xl_process(): the packet missed the connection table */
#define XL_SRC_OFF_V4	(14 + 12)	/* the source address, behind the Ethernet header */
#define XL_SRC_OFF_V6	(14 + 8)

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, struct xl_vip);
	__type(value, struct xl_vip_meta);
} xl_vips SEC(".maps");

struct xl_lru_map {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(struct xl_flow));
	__uint(value_size, sizeof(struct xl_lru_val));
};

/* Each CPU's connection table, made by user space (drivers' mb_cpu_maps_create). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct xl_lru_map);
} xl_lru_cpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, XL_RINGS);
	__type(key, __u32);
	__type(value, __u32);
} xl_rings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, XL_MAX_REALS);
	__type(key, __u32);
	__type(value, struct xl_real);
} xl_reals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XL_STATS);
	__type(key, __u32);
	__type(value, struct xl_stat_val);
} xl_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XL_MAX_REALS);
	__type(key, __u32);
	__type(value, struct xl_stat_val);
} xl_real_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xl_ctl);
} xl_ctl SEC(".maps");

/* The VIP whose misses are counted per real (a production balancer's debugging aid). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xl_vip);
} xl_miss_vip SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XL_MAX_REALS);
	__type(key, __u32);
	__type(value, __u32);
} xl_miss_reals SEC(".maps");

/* Knobs user space sets between calls: in .bss, so the verifier assumes nothing of them. */
volatile __u32 xl_flow_mask;	/* nonzero: each packet a random source in this mask */
volatile __u32 xl_cold;		/* nonzero: each call's flows new (its source XORed) */
volatile __u32 xl_want;		/* the scenario's verdict: a packet given another is an error */
__u32 xl_gen;			/* calls made cold so far */

/* ---- the ring's hash: the kernel's jhash (util/jhash.h) over two or four words ---- */

static __always_inline __u32 xl_hash2(__u32 w0, __u32 w1, __u32 seed)
{
	__u32 a = MB_JHASH_INIT + 8 + seed, b = a, c = a;

	a += w0;
	b += w1;
	MB_JHASH_FINAL(a, b, c);
	return c;
}

static __always_inline __u32 xl_hash4(const __u32 *w, __u32 seed)
{
	__u32 a = MB_JHASH_INIT + 16 + seed, b = a, c = a;

	a += w[0];
	b += w[1];
	c += w[2];
	MB_JHASH_MIX(a, b, c);
	a += w[3];
	MB_JHASH_FINAL(a, b, c);
	return c;
}

/* ---- stats ---- */

static __always_inline struct xl_stat_val *xl_stat(__u32 key)
{
	return bpf_map_lookup_elem(&xl_stats, &key);
}

static __always_inline void xl_add(void *map, __u32 key, __u64 bytes)
{
	struct xl_stat_val *v = bpf_map_lookup_elem(map, &key);

	if (v) {
		v->v1++;
		v->v2 += bytes;
	}
}

static __always_inline int xl_verdict(int action)
{
	struct xl_stat_val *v = xl_stat(action == XDP_TX ? XL_STAT_TX :
					action == XDP_PASS ? XL_STAT_PASS : XL_STAT_DROP);

	if (v)
		v->v1++;
	return action;
}

/* New flows this second beyond XL_NEW_CONN_MAX: a flood, whose flows are not remembered. */
static __always_inline bool xl_flood(void)
{
	struct xl_stat_val *v = xl_stat(XL_STAT_NEW_CONN);
	__u64 now;

	if (!v)
		return true;
	now = bpf_ktime_get_ns();
	if (now - v->v2 > 1000000000ULL) {
		v->v1 = 1;
		v->v2 = now;
		return false;
	}
	return ++v->v1 > XL_NEW_CONN_MAX;
}

/* ---- where a packet goes ---- */

/* The connection table's real for @flow, or NULL (a UDP flow silent for too long too). */
static __always_inline struct xl_real *xl_known(void *lru, struct xl_flow *flow, __u32 *pos)
{
	struct xl_lru_val *v = bpf_map_lookup_elem(lru, flow);
	__u32 key;

	if (!v)
		return NULL;
	if (flow->proto == XL_PROTO_UDP) {
		__u64 now = bpf_ktime_get_ns();

		if (now - v->atime > XL_UDP_TIMEOUT_NS)
			return NULL;
		v->atime = now;
	}
	key = v->pos;
	*pos = key;
	return bpf_map_lookup_elem(&xl_reals, &key);
}

/* The ring's real for @flow, remembered in the table unless the VIP, a flood or RST say not. */
static __always_inline struct xl_real *xl_ring(void *lru, struct xl_flow *flow,
					       const struct xl_vip_meta *meta, bool v6, bool rst,
					       __u32 *pos)
{
	bool flood = xl_flood();
	__u32 hash, key, *real;
	struct xl_real *r;

	if (v6)
		hash = xl_hash2(xl_hash4(flow->srcv6, XL_MAX_VIPS), flow->ports, XL_RING_SIZE);
	else
		hash = xl_hash2(flow->src, flow->ports, XL_RING_SIZE);
	key = XL_RING_SIZE * meta->vip_num + hash % XL_RING_SIZE;
	real = bpf_map_lookup_elem(&xl_rings, &key);
	if (!real)
		return NULL;
	key = *real;
	r = bpf_map_lookup_elem(&xl_reals, &key);
	if (!r)
		return NULL;
	if (!(meta->flags & XL_F_LRU_BYPASS) && !flood && !rst) {
		struct xl_lru_val v = { .pos = key };

		if (flow->proto == XL_PROTO_UDP)
			v.atime = bpf_ktime_get_ns();
		bpf_map_update_elem(lru, flow, &v, BPF_ANY);
	}
	*pos = key;
	return r;
}

/* A miss of the VIP user space named, counted per real. */
static __always_inline void xl_count_miss(const struct xl_vip *vip, __u32 pos)
{
	__u32 zero = 0, *n;
	struct xl_vip *want = bpf_map_lookup_elem(&xl_miss_vip, &zero);

	if (!want || want->port != vip->port || want->proto != vip->proto)
		return;
	for (int i = 0; i < 4; i++)
		if (want->vipv6[i] != vip->vipv6[i])
			return;
	n = bpf_map_lookup_elem(&xl_miss_reals, &pos);
	if (n)
		*n += 1;
}

/* ---- encapsulation ---- */

/*
 * Room for an outer header of @hdr bytes in front, and the new Ethernet header: from the old
 * one's destination (the balancer) to @mac. The old header is read before the new one is
 * written, since the two overlap. Returns the outer header, or NULL.
 */
static __always_inline void *xl_push(struct xdp_md *xdp, int hdr, __u16 proto, const __u8 *mac)
{
	void *data, *end;
	struct ethhdr *eth, *old;

	if (bpf_xdp_adjust_head(xdp, -hdr))
		return NULL;
	data = (void *)(long)xdp->data;
	end = (void *)(long)xdp->data_end;
	eth = data;
	old = data + hdr;
	if ((void *)(old + 1) > end)
		return NULL;
	__builtin_memcpy(eth->h_source, old->h_dest, 6);
	__builtin_memcpy(eth->h_dest, mac, 6);
	eth->h_proto = bpf_htons(proto);
	return eth + 1;
}

static __always_inline int xl_encap4(struct xdp_md *xdp, const struct xl_flow *flow,
				     const struct xl_real *r, __u16 len, const __u8 *mac)
{
	struct iphdr *ip = xl_push(xdp, sizeof(*ip), XL_ETH_P_IP, mac);

	if (!ip || (void *)(ip + 1) > (void *)(long)xdp->data_end)
		return -1;
	__builtin_memset(ip, 0, sizeof(*ip));
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = XL_PROTO_IPIP;
	ip->tot_len = bpf_htons(len + sizeof(*ip));
	xl_encap_src_v4((const __u8 *)&flow->src, (const __u8 *)&flow->port16[0],
			(__u8 *)&ip->saddr);
	ip->daddr = r->dst;
	ip->check = xl_ip_csum((const __u16 *)ip);
	return 0;
}

static __always_inline int xl_encap6(struct xdp_md *xdp, const struct xl_flow *flow,
				     const struct xl_real *r, __u8 next, __u16 len,
				     const __u8 *mac)
{
	struct ipv6hdr *ip6 = xl_push(xdp, sizeof(*ip6), XL_ETH_P_IPV6, mac);

	if (!ip6 || (void *)(ip6 + 1) > (void *)(long)xdp->data_end)
		return -1;
	__builtin_memset(ip6, 0, sizeof(*ip6));
	ip6->version = 6;
	ip6->nexthdr = next;
	ip6->payload_len = bpf_htons(len);
	ip6->hop_limit = 64;
	xl_encap_src_v6((const __u8 *)flow->srcv6, (const __u8 *)&flow->port16[0],
			(__u8 *)&ip6->saddr);
	__builtin_memcpy(&ip6->daddr, r->dstv6, 16);
	return 0;
}

/* ---- one packet ---- */

/* The headers up to the ports: the flow, the VIP key and the payload's length. */
struct xl_parsed {
	struct xl_flow flow;
	struct xl_vip vip;
	__u16 len;
	bool v6, syn, rst;
};

/* 0 when the packet is the balancer's, else the verdict it gets. */
static __always_inline int xl_parse(struct xdp_md *xdp, struct xl_parsed *p)
{
	void *data = (void *)(long)xdp->data, *end = (void *)(long)xdp->data_end;
	struct ethhdr *eth = data;
	struct udphdr *l4;
	__u8 proto;

	if ((void *)(eth + 1) > end)
		return XDP_DROP;
	if (eth->h_proto == bpf_htons(XL_ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = (void *)(eth + 1);

		if ((void *)(ip6 + 1) > end || ip6->nexthdr == XL_PROTO_FRAGMENT)
			return XDP_DROP;
		p->v6 = true;
		p->len = sizeof(*ip6) + bpf_ntohs(ip6->payload_len);
		proto = ip6->nexthdr;
		__builtin_memcpy(p->flow.srcv6, &ip6->saddr, 16);
		__builtin_memcpy(p->flow.dstv6, &ip6->daddr, 16);
		__builtin_memcpy(p->vip.vipv6, &ip6->daddr, 16);
		l4 = (void *)(ip6 + 1);
	} else if (eth->h_proto == bpf_htons(XL_ETH_P_IP)) {
		struct iphdr *ip = (void *)(eth + 1);

		/* Options and fragments: a production balancer's punt, here a drop. */
		if ((void *)(ip + 1) > end || ip->ihl != 5 ||
		    (ip->frag_off & bpf_htons(XL_IP_FRAG_MASK)))
			return XDP_DROP;
		p->len = bpf_ntohs(ip->tot_len);
		proto = ip->protocol;
		p->flow.src = ip->saddr;
		p->flow.dst = ip->daddr;
		p->vip.vip = ip->daddr;
		l4 = (void *)(ip + 1);
	} else {
		return XDP_PASS;
	}
	if (proto != XL_PROTO_TCP && proto != XL_PROTO_UDP)
		return XDP_PASS;
	/* TCP's ports sit where UDP's do. */
	if ((void *)(l4 + 1) > end)
		return XDP_DROP;
	p->flow.port16[0] = l4->source;
	p->flow.port16[1] = l4->dest;
	if (proto == XL_PROTO_TCP) {
		struct tcphdr *th = (void *)l4;

		if ((void *)(th + 1) > end)
			return XDP_DROP;
		p->syn = th->syn;
		p->rst = th->rst;
	}
	p->flow.proto = proto;
	p->vip.port = l4->dest;
	p->vip.proto = proto;
	return 0;
}

static __always_inline int xl_send(struct xdp_md *xdp, const struct xl_parsed *p,
				   const struct xl_real *r, const __u8 *mac)
{
	if (p->v6)
		return xl_encap6(xdp, &p->flow, r, XL_PROTO_IPV6, p->len, mac);
	if (r->flags & XL_F_IPV6)
		return xl_encap6(xdp, &p->flow, r, XL_PROTO_IPIP, p->len, mac);
	return xl_encap4(xdp, &p->flow, r, p->len, mac);
}

/*
 * The verdict for the packet, with XL_RET_MISS where it missed the connection table. A global
 * function: the verifier checks it once, on its own, rather than again for every state of
 * the loop that calls it (which exceeds its budget); one call per packet, as the kernel's
 * bench makes (its process_packet is not inlined either).
 */
__noinline int xl_process(struct xdp_md *xdp)
{
	struct xl_parsed p = {};
	struct xl_vip_meta *meta;
	struct xl_stat_val *lru_st;
	struct xl_real *r = NULL;
	struct xl_ctl *ctl;
	__u32 pos = 0, cpu, zero = 0;
	int miss = 0, v;
	void *lru;

	v = xl_parse(xdp, &p);
	if (v)
		return xl_verdict(v);
	meta = bpf_map_lookup_elem(&xl_vips, &p.vip);
	if (!meta)
		return xl_verdict(XDP_PASS);
	lru_st = xl_stat(XL_STAT_LRU);
	if (!lru_st)
		return xl_verdict(XDP_DROP);
	lru_st->v1++;
	cpu = bpf_get_smp_processor_id();
	lru = bpf_map_lookup_elem(&xl_lru_cpu, &cpu);
	if (!lru)
		return xl_verdict(XDP_DROP);
	/* A SYN opens a flow, a VIP may bypass the table: both go to the ring. */
	if (!(meta->flags & XL_F_LRU_BYPASS) && !p.syn)
		r = xl_known(lru, &p.flow, &pos);
	if (!r) {
		miss = XL_RET_MISS;
		if (p.flow.proto == XL_PROTO_TCP) {
			struct xl_stat_val *t = xl_stat(XL_STAT_TCP_MISS);

			if (t)
				t->v1++;
		}
		r = xl_ring(lru, &p.flow, meta, p.v6, p.rst, &pos);
		if (!r)
			return xl_verdict(XDP_DROP) | miss;
		xl_count_miss(&p.vip, pos);
		lru_st->v2++;
	}
	ctl = bpf_map_lookup_elem(&xl_ctl, &zero);
	if (!ctl)
		return xl_verdict(XDP_DROP) | miss;
	xl_add(&xl_stats, meta->vip_num, p.len);
	xl_add(&xl_real_stats, pos, p.len);
	if (xl_send(xdp, &p, r, ctl->mac))
		return xl_verdict(XDP_DROP) | miss;
	return xl_verdict(XDP_TX) | miss;
}

/* ---- the loop around it ---- */

/* What one call keeps between its packets: the packet as it came, and how sources vary. */
struct xl_call {
	struct ethhdr eth;
	__u32 src_off;		/* the first 4 bytes of the source address */
	__u32 rnd;		/* xorshift32 state; 0: sources do not vary */
	__u32 cold;		/* XORed into the source: this call's flows are new */
};

static __always_inline void xl_src_xor(struct xdp_md *xdp, __u32 off, __u32 x)
{
	void *data = (void *)(long)xdp->data, *end = (void *)(long)xdp->data_end;
	__u32 *src = data + (off & 0xff);

	if ((void *)(src + 1) <= end)
		*src ^= x;
}

static __always_inline void xl_src_set(struct xdp_md *xdp, __u32 off, __u32 v)
{
	void *data = (void *)(long)xdp->data, *end = (void *)(long)xdp->data_end;
	__u32 *src = data + (off & 0xff);

	if ((void *)(src + 1) <= end)
		*src = v;
}

static __always_inline void xl_begin(struct xdp_md *xdp, struct xl_call *c)
{
	void *data = (void *)(long)xdp->data, *end = (void *)(long)xdp->data_end;
	struct ethhdr *eth = data;

	__builtin_memset(c, 0, sizeof(*c));
	if ((void *)(eth + 1) > end)
		return;
	__builtin_memcpy(&c->eth, eth, sizeof(*eth));
	/* Constants, not offsetof: vmlinux.h's structs would make them CO-RE relocations. */
	c->src_off = eth->h_proto == bpf_htons(XL_ETH_P_IPV6) ? XL_SRC_OFF_V6 : XL_SRC_OFF_V4;
	if (xl_flow_mask)
		c->rnd = bpf_get_prandom_u32() | 1;
	if (xl_cold) {
		xl_gen++;
		c->cold = (xl_gen + bpf_get_smp_processor_id()) * XL_KNUTH;
		xl_src_xor(xdp, c->src_off, c->cold);
	}
}

/* Undo the balancer's work on the packet for the next one. 0, or -1 (the packet is lost). */
static __always_inline int xl_reset(struct xdp_md *xdp, struct xl_call *c, int action)
{
	if (action == XDP_TX) {
		void *data = (void *)(long)xdp->data, *end = (void *)(long)xdp->data_end;
		struct ethhdr *eth = data;
		int hdr;

		if ((void *)(eth + 1) > end)
			return -1;
		hdr = eth->h_proto == bpf_htons(XL_ETH_P_IPV6) ? sizeof(struct ipv6hdr) :
								 sizeof(struct iphdr);
		if (bpf_xdp_adjust_head(xdp, hdr))
			return -1;
		data = (void *)(long)xdp->data;
		end = (void *)(long)xdp->data_end;
		eth = data;
		if ((void *)(eth + 1) > end)
			return -1;
		__builtin_memcpy(eth, &c->eth, sizeof(*eth));
		if (c->rnd) {
			c->rnd ^= c->rnd << 13;
			c->rnd ^= c->rnd >> 17;
			c->rnd ^= c->rnd << 5;
			xl_src_set(xdp, c->src_off, c->rnd & xl_flow_mask);
		}
	}
	if (c->cold)
		xl_src_xor(xdp, c->src_off, c->cold);
	return 0;
}

/* Counts the packet in the producer's slot: its verdict right or wrong, a table miss. */
static __always_inline void xl_account(struct mb_slot *slot, int r)
{
	if ((r & 0xff) == (int)xl_want)
		slot->hits++;
	else
		slot->errors++;
	if (r & XL_RET_MISS)
		slot->counter[0]++;
}

/*
 * One packet: the balancer, its count, and (but after the last) the packet made ready for the
 * next. The plain loop and its timed twin (--latency) run it alike.
 */
#define XL_PACKET							\
	{								\
		int r = xl_process(xdp);				\
									\
		xl_account(slot, r);					\
		mb_ret = r & 0xff;					\
		if (left && xl_reset(xdp, &xc, mb_ret)) {		\
			slot->errors++;					\
			mb_ret = XDP_ABORTED;				\
			goto out;					\
		}							\
	}

MB_XDP_LOOP(mb_xl_lb, struct xl_call xc; xl_begin(xdp, &xc), XL_PACKET)
MB_XDP_LOOP_LAT(mb_xl_lb_lat, struct xl_call xc; xl_begin(xdp, &xc), XL_PACKET)
