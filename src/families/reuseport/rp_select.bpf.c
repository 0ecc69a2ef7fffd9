// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * reuseport-select: an sk_reuseport program, attached to the group with
 * SO_ATTACH_REUSEPORT_EBPF, that picks socket ctx->hash % n of the run's reuseport_sockarray
 * with bpf_sk_select_reuseport() for every datagram or SYN the group receives. It times the
 * helper between two clock reads, and an empty pair of reads beside it (the clock's own cost,
 * for user space to take out), and counts each slot it selected, so user space can check that
 * the socket that received was the one selected.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "rp_shared.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* The sockets in the array, set before load. */
const volatile __u32 mb_rp_n = 1;

struct {
	__uint(type, BPF_MAP_TYPE_REUSEPORT_SOCKARRAY);
	__uint(max_entries, 1);		/* the run's map replaces it (bpf_map__reuse_fd) */
	__type(key, __u32);
	__type(value, __u64);
} mb_rp_socks SEC(".maps");

struct mb_rp_stats mb_rp_st;
__u64 mb_rp_per_slot[MB_RP_SOCKS_MAX];	/* selections of each slot */

SEC("sk_reuseport")
int mb_rp_select(struct sk_reuseport_md *ctx)
{
	__u32 n = mb_rp_n ? mb_rp_n : 1;
	__u32 index = ctx->hash % n;
	__u64 t0, t1, t2;
	long err;

	t0 = bpf_ktime_get_ns();
	t1 = bpf_ktime_get_ns();
	err = bpf_sk_select_reuseport(ctx, &mb_rp_socks, &index, 0);
	t2 = bpf_ktime_get_ns();
	mb_rp_st.runs++;
	mb_rp_st.clock_ns += t1 - t0;
	mb_rp_st.select_ns += t2 - t1;
	mb_rp_st.last_hash = ctx->hash;
	mb_rp_st.last_index = index;
	if (err) {
		mb_rp_st.errors++;
		mb_rp_st.last_err = err;
		/* SK_PASS without a selection: the kernel would pick by its own hash. */
		return SK_DROP;
	}
	mb_rp_st.selected++;
	if (index < MB_RP_SOCKS_MAX)
		mb_rp_per_slot[index]++;
	return SK_PASS;
}
