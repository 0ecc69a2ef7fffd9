// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * cgroupmaps family: bpf_current_task_under_cgroup() on a cgroup array of one slot, in the
 * in-kernel op loop. The raw_tp program runs by test_run on the producer's own CPU, so the
 * current task is the producer thread; user space puts a cgroup v2 directory's fd in slot 0
 * and says before load which answer each op must give (1: the producer is in that cgroup,
 * 0: it is not). An op counts its answer: the one due is a hit, the other a miss, a negative
 * one an error; answers of 1 are counted apart (MB_CGA_UNDER), so user space checks both.
 */
#include "drivers/kloop.bpf.h"
#include "cga_shared.h"

/* The answer every op must give, set before load. */
const volatile long mb_cga_want = 1;

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__uint(key_size, 4);
	__uint(value_size, 4);
} mb_cga_map SEC(".maps");

static __always_inline int cga_under(__u32 index, struct mb_loop_ctx *lc)
{
	long r = bpf_current_task_under_cgroup(&mb_cga_map, 0);

	if (r < 0) {
		lc->errors++;
		return 0;
	}
	if (r == 1)
		lc->counter[MB_CGA_UNDER]++;
	if (r == mb_cga_want)
		lc->hits++;
	else
		lc->misses++;
	return 0;
}

MB_LOOP_PROG(mb_cga_under, cga_under)

/*
 * bpf_skb_under_cgroup(): the same question of the packet's socket, in a tc program run by
 * test_run. test_run's packet belongs to a socket it makes for the call, whose cgroup is the
 * calling task's: the producer's. The loop is the drivers' written out (four ops a may_goto
 * check), its count of ops in .bss (a tc program's context is the packet); one producer,
 * slot 0.
 */
__u64 mb_cga_iters;

static __always_inline void cga_skb_op(struct __sk_buff *skb, struct mb_loop_ctx *lc)
{
	long r = bpf_skb_under_cgroup(skb, &mb_cga_map, 0);

	if (r < 0) {
		lc->errors++;
		return;
	}
	if (r == 1)
		lc->counter[MB_CGA_UNDER]++;
	if (r == mb_cga_want)
		lc->hits++;
	else
		lc->misses++;
}

SEC("tc")
int mb_cga_skb_under(struct __sk_buff *skb)
{
	struct mb_loop_ctx *lc = &mb_loop_ctxs[0].lc;
	struct mb_slot *slot = &mb_slots[0];
	__u64 n = mb_cga_iters, left = n;

	lc->hits = 0;
	lc->misses = 0;
	lc->errors = 0;
	lc->counter[MB_CGA_UNDER] = 0;
	slot->start_ns = bpf_ktime_get_ns();
	while (left >= 4) {
		MB_MAY_GOTO(out);
		cga_skb_op(skb, lc);
		cga_skb_op(skb, lc);
		cga_skb_op(skb, lc);
		cga_skb_op(skb, lc);
		left -= 4;
	}
	while (left) {
		MB_MAY_GOTO(out);
		cga_skb_op(skb, lc);
		left--;
	}
out:
	slot = &mb_slots[0];
	slot->kernel_ns += bpf_ktime_get_ns() - slot->start_ns;
	slot->calls++;
	slot->ops += n - left;
	slot->hits += lc->hits;
	slot->misses += lc->misses;
	slot->errors += lc->errors;
	slot->counter[MB_CGA_UNDER] += lc->counter[MB_CGA_UNDER];
	return 0;
}
