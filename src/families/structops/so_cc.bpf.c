// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * struct-ops-register: the smallest tcp_congestion_ops a kernel registers, the three members
 * it requires (ssthresh, cong_avoid, undo_cwnd), each doing nothing of interest: the bench
 * times registering and unregistering it, never a connection using it. Its name is a
 * placeholder that user space replaces before load with one of the run's own.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("struct_ops/mb_so_ssthresh")
__u32 BPF_PROG(mb_so_ssthresh, struct sock *sk)
{
	return 2;
}

SEC("struct_ops/mb_so_cong_avoid")
void BPF_PROG(mb_so_cong_avoid, struct sock *sk, __u32 ack, __u32 acked)
{
}

SEC("struct_ops/mb_so_undo_cwnd")
__u32 BPF_PROG(mb_so_undo_cwnd, struct sock *sk)
{
	return 2;
}

SEC(".struct_ops")
struct tcp_congestion_ops mb_so_cc = {
	.ssthresh = (void *)mb_so_ssthresh,
	.cong_avoid = (void *)mb_so_cong_avoid,
	.undo_cwnd = (void *)mb_so_undo_cwnd,
	.name = "mb_so_placehold",	/* MB_SO_PLACEHOLDER in so.h */
};
