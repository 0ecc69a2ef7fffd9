// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * xdpmaps family: the programs. One map of each type (user space makes the one a run needs
 * and hands it over with bpf_map__reuse_fd; the others are not created), and per type:
 *
 *  - a lookup, bpf_map_lookup_elem, in the drivers' in-kernel op loop (raw_tp). The verifier
 *    allows it on devmap, devmap_hash and xskmap, not on cpumap (bpf_redirect_map only).
 *    A devmap's value is the device's ifindex, compared with the one user space wrote.
 *  - a redirect, bpf_redirect_map, in an XDP program run by BPF_PROG_TEST_RUN: the helper
 *    looks the entry up and records the target for the driver's xdp_do_redirect(); the
 *    program returns XDP_PASS, so no frame is sent. The loop is the drivers' written out
 *    (four ops a may_goto check; an XDP program's context is its packet), its count of ops
 *    in .bss, one producer, slot 0.
 *
 *  - live (xdp-redirect-map --live): one bpf_redirect_map per run of the program, whose value
 *    it returns, run by BPF_PROG_TEST_RUN with BPF_F_TEST_XDP_LIVE_FRAMES: the kernel then
 *    does the redirect, and the frame goes out of the veth the entry names to its peer,
 *    whose XDP program (mb_xm_rx, on both ends) counts it and drops it.
 *
 * A devmap or cpumap may be used by programs of one type only (the kernel records the first
 * program's type in the map): a run loads either the lookups or the redirects, never both.
 */
#include "drivers/kloop.bpf.h"
#include "xm_shared.h"

/* The entries' keys, and the value each holds (a devmap's ifindex), set after load. */
__u32 mb_xm_keys[XM_MAX_ENTRIES];
__u32 mb_xm_want[XM_MAX_ENTRIES];
__u32 mb_xm_nr_keys;
__u64 mb_xm_iters;

#define XM_MAP(_name, _type)							\
struct {									\
	__uint(type, _type);							\
	__uint(max_entries, 1);							\
	__uint(key_size, 4);							\
	__uint(value_size, 4);							\
} _name SEC(".maps")

XM_MAP(mb_xm_devmap, BPF_MAP_TYPE_DEVMAP);
XM_MAP(mb_xm_devmap_hash, BPF_MAP_TYPE_DEVMAP_HASH);
XM_MAP(mb_xm_cpumap, BPF_MAP_TYPE_CPUMAP);
XM_MAP(mb_xm_xskmap, BPF_MAP_TYPE_XSKMAP);

/* The entry of the next op: the producer's cursor goes round the keys (no divide). */
static __always_inline __u32 xm_next(struct mb_loop_ctx *lc)
{
	__u64 c = lc->cursor;

	lc->cursor = c + 1 >= mb_xm_nr_keys ? 0 : c + 1;
	return (__u32)c & (XM_MAX_ENTRIES - 1);
}

/* A devmap's entry: found, and naming the device user space put there. */
#define XM_LOOKUP_DEV(_fn, _map)						\
static __always_inline int _fn(__u32 index, struct mb_loop_ctx *lc)		\
{										\
	__u32 i = xm_next(lc), key = mb_xm_keys[i];				\
	struct bpf_devmap_val *v = bpf_map_lookup_elem(&_map, &key);		\
										\
	if (!v)									\
		lc->misses++;							\
	else if (v->ifindex == mb_xm_want[i])					\
		lc->hits++;							\
	else									\
		lc->errors++;							\
	return 0;								\
}

XM_LOOKUP_DEV(xm_lookup_devmap, mb_xm_devmap)
XM_LOOKUP_DEV(xm_lookup_devmap_hash, mb_xm_devmap_hash)

/* An xskmap's entry: a socket, whose fields a program may not compare with an fd. */
static __always_inline int xm_lookup_xskmap(__u32 index, struct mb_loop_ctx *lc)
{
	__u32 key = mb_xm_keys[xm_next(lc)];

	if (bpf_map_lookup_elem(&mb_xm_xskmap, &key))
		lc->hits++;
	else
		lc->misses++;
	return 0;
}

MB_LOOP_PROG(mb_xm_lookup_devmap, xm_lookup_devmap)
MB_LOOP_PROG(mb_xm_lookup_devmap_hash, xm_lookup_devmap_hash)
MB_LOOP_PROG(mb_xm_lookup_xskmap, xm_lookup_xskmap)

/* One redirect: XDP_REDIRECT when the entry is there, the flags' low bits (0) when not. */
#define XM_REDIRECT_OP(_map, lc)						\
	do {									\
		__u32 key = mb_xm_keys[xm_next(lc)];				\
										\
		if (bpf_redirect_map(&_map, key, 0) == XDP_REDIRECT)		\
			(lc)->hits++;						\
		else								\
			(lc)->misses++;						\
	} while (0)

#define XM_REDIRECT_PROG(_prog, _map)						\
SEC("xdp")									\
int _prog(struct xdp_md *xdp)							\
{										\
	struct mb_loop_ctx *lc = &mb_loop_ctxs[0].lc;				\
	struct mb_slot *slot = &mb_slots[0];					\
	__u64 n = mb_xm_iters, left = n;					\
										\
	lc->hits = 0;								\
	lc->misses = 0;								\
	lc->cursor = slot->cursor;						\
	slot->start_ns = bpf_ktime_get_ns();					\
	while (left >= 4) {							\
		MB_MAY_GOTO(out);						\
		XM_REDIRECT_OP(_map, lc);					\
		XM_REDIRECT_OP(_map, lc);					\
		XM_REDIRECT_OP(_map, lc);					\
		XM_REDIRECT_OP(_map, lc);					\
		left -= 4;							\
	}									\
	while (left) {								\
		MB_MAY_GOTO(out);						\
		XM_REDIRECT_OP(_map, lc);					\
		left--;								\
	}									\
out:										\
	slot = &mb_slots[0];							\
	slot->kernel_ns += bpf_ktime_get_ns() - slot->start_ns;		\
	slot->calls++;								\
	slot->ops += n - left;							\
	slot->hits += lc->hits;							\
	slot->misses += lc->misses;						\
	slot->cursor = lc->cursor;						\
	return XDP_PASS;							\
}

/* One redirect a run; the frame's fate is the kernel's (slot 0, one producer). */
#define XM_LIVE_PROG(_prog, _map)						\
SEC("xdp")									\
int _prog(struct xdp_md *xdp)							\
{										\
	struct mb_slot *slot = &mb_slots[0];					\
	__u64 c = slot->cursor;							\
	__u32 key = mb_xm_keys[c & (XM_MAX_ENTRIES - 1)];			\
	long r;									\
										\
	slot->cursor = c + 1 >= mb_xm_nr_keys ? 0 : c + 1;			\
	slot->ops++;								\
	r = bpf_redirect_map(&_map, key, 0);					\
	if (r == XDP_REDIRECT)							\
		slot->hits++;							\
	else									\
		slot->misses++;							\
	return r;								\
}

XM_LIVE_PROG(mb_xm_live_devmap, mb_xm_devmap)
XM_LIVE_PROG(mb_xm_live_devmap_hash, mb_xm_devmap_hash)

/*
 * Frames that came out of the peer veth: test_run's, whose Ethernet header is all zeros,
 * counted and dropped; the stack's own (IPv6 neighbour discovery once a device is up) passed.
 */
__u64 mb_xm_rx_frames;

SEC("xdp")
int mb_xm_rx(struct xdp_md *xdp)
{
	void *data = (void *)(long)xdp->data, *end = (void *)(long)xdp->data_end;
	__u32 *w = data;

	if (data + 14 > end || w[0] || w[1] || w[2] || *(__u16 *)(data + 12))
		return XDP_PASS;
	__sync_fetch_and_add(&mb_xm_rx_frames, 1);
	return XDP_DROP;
}

XM_REDIRECT_PROG(mb_xm_redirect_devmap, mb_xm_devmap)
XM_REDIRECT_PROG(mb_xm_redirect_devmap_hash, mb_xm_devmap_hash)
XM_REDIRECT_PROG(mb_xm_redirect_cpumap, mb_xm_cpumap)
XM_REDIRECT_PROG(mb_xm_redirect_xskmap, mb_xm_xskmap)
