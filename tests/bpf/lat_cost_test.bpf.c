// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * What --latency's sampling costs the ops it does not time (tests/unit/test_lat_cost.c): one
 * op, a lookup in a hash map of 1024 entries (as the hash family's map-lookup does), in each
 * of the two op loops, plain and timed: the raw_tp loop (MB_LOOP_PROG makes mb_cost_lookup
 * and its twin mb_cost_lookup_lat) and the XDP loop (mb_cost_xdp and mb_cost_xdp_lat).
 */
#include "drivers/kloop.bpf.h"
#include "drivers/xdp_loop_lat.bpf.h"

#define COST_KEYS	1024

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, COST_KEYS);
	__type(key, __u32);
	__type(value, __u64);
} cost_map SEC(".maps");

/* Looks up key @key: a hit where user space filled the map (keys 0 .. COST_KEYS - 1). */
static __always_inline bool cost_lookup(__u32 key)
{
	__u32 k = key & (COST_KEYS - 1);

	return bpf_map_lookup_elem(&cost_map, &k) != NULL;
}

static __always_inline int lookup_cb(__u32 index, struct mb_loop_ctx *lc)
{
	if (cost_lookup(index))
		lc->hits++;
	else
		lc->errors++;
	return 0;
}

MB_LOOP_PROG(mb_cost_lookup, lookup_cb)

#define COST_XDP_OP								\
	{									\
		if (cost_lookup((__u32)left))					\
			slot->hits++;						\
		else								\
			slot->errors++;						\
		mb_ret = XDP_PASS;						\
	}

MB_XDP_LOOP(mb_cost_xdp, , COST_XDP_OP)
MB_XDP_LOOP_LAT(mb_cost_xdp_lat, , COST_XDP_OP)
