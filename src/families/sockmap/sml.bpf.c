// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * sockmap-lookup --path kernel: bpf_map_lookup_elem() on a sockmap or sockhash from a BPF
 * program, in the program's own may_goto loop. The lookup hands the program a referenced
 * socket (struct bpf_sock), which it must give back with bpf_sk_release(): a tc program has
 * that helper, and BPF_PROG_TEST_RUN runs it on the producer's thread. Each op looks up the
 * next key of the level, compares the socket's ports with the ones user space read for
 * that key (mb_sml_want), and releases it. User space sets the map's type and sizes before
 * load and gives it the set-up's map (bpf_map__reuse_fd).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "drivers/may_goto.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);	/* or sockhash: set before load */
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} mb_sml_map SEC(".maps");

/* Key i's socket: its local port << 32 | its peer's port as bpf_sock has it (big-endian). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} mb_sml_want SEC(".maps");

__u32 mb_sml_level;		/* keys 0..level-1 hold sockets */
__u64 mb_sml_iters;		/* ops the next call runs */
__u32 mb_sml_cursor;		/* the next key, carried across calls */
__u64 mb_sml_ops, mb_sml_hits, mb_sml_errors, mb_sml_ns, mb_sml_calls;

static __always_inline int sml_op(__u32 key)
{
	struct bpf_sock *sk = bpf_map_lookup_elem(&mb_sml_map, &key);
	__u64 *want;
	int ok;

	if (!sk)
		return 0;
	want = bpf_map_lookup_elem(&mb_sml_want, &key);
	ok = want && *want == (((__u64)sk->src_port << 32) | sk->dst_port);
	bpf_sk_release(sk);
	return ok;
}

SEC("tc")
int mb_sml_lookup(struct __sk_buff *skb)
{
	__u64 n = mb_sml_iters, left = n, hits = 0, t0;
	__u32 key = mb_sml_cursor, level = mb_sml_level;

	if (!level || key >= level)
		return 1;
	t0 = bpf_ktime_get_ns();
	while (left) {
		MB_MAY_GOTO(out);
		hits += sml_op(key);
		if (++key == level)
			key = 0;
		left--;
	}
out:
	mb_sml_ns += bpf_ktime_get_ns() - t0;
	mb_sml_cursor = key;
	mb_sml_ops += n - left;
	mb_sml_hits += hits;
	mb_sml_errors += n - left - hits;
	mb_sml_calls++;
	return 0;
}
