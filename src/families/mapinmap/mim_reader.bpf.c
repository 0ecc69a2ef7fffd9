// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * map-in-map-replace's reader: a program that looks up the outer map's slots, and an entry of
 * the inner map each one holds, in a loop for mb_mim_hold_ns, all of it in one RCU read-side
 * section (a raw_tp program run by BPF_PROG_TEST_RUN holds rcu_read_lock() for its whole run).
 * An update that waits for a grace period waits for the run under way to end.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* The template the verifier sees; user space puts the bench's outer map here (reuse_fd). */
struct mim_inner_tmpl {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct mim_inner_tmpl);
} mb_mim_outer SEC(".maps");

const volatile __u32 mb_mim_slots = 1;		/* the outer map's slots (keys 0..n-1) */
const volatile __u64 mb_mim_hold_ns = 100000;	/* how long one run reads */

/* Totals over the runs, read by user space through the mmapped .bss. */
__u64 mb_mim_runs, mb_mim_lookups, mb_mim_found;

struct mim_read_ctx {
	__u64 end;
	__u64 lookups;
	__u64 found;
	__u32 slot;
};

static int read_one(__u32 index, void *data)
{
	struct mim_read_ctx *c = data;
	__u32 slot = c->slot, key = 0;
	void *inner;

	inner = bpf_map_lookup_elem(&mb_mim_outer, &slot);
	if (inner) {
		/* Touch the inner map too, as a program that uses it does. */
		bpf_map_lookup_elem(inner, &key);
		c->found++;
	}
	c->lookups++;
	c->slot = slot + 1 >= mb_mim_slots ? 0 : slot + 1;
	return bpf_ktime_get_ns() >= c->end;
}

SEC("raw_tp")
int mb_mim_reader(void *ctx)
{
	struct mim_read_ctx c = { .end = bpf_ktime_get_ns() + mb_mim_hold_ns };

	bpf_loop(1 << 23, read_one, &c, 0);
	__sync_fetch_and_add(&mb_mim_lookups, c.lookups);
	__sync_fetch_and_add(&mb_mim_found, c.found);
	/* Last: user space that sees a run counted sees its lookups. */
	__sync_fetch_and_add(&mb_mim_runs, 1);
	return 0;
}
