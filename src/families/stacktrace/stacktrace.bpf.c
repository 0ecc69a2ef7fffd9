// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * stack-trace-get-stackid: one op is one bpf_get_stackid() call into a
 * BPF_MAP_TYPE_STACK_TRACE. The raw_tp program runs in the producer's bpf(BPF_PROG_TEST_RUN)
 * syscall, so the kernel stack it records is that syscall's path, and the user stack
 * (BPF_F_USER_STACK) is the producer thread's, walked by frame pointers.
 *
 * The op cycles the skip field of its flags through 0..mb_st_stacks-1: each skip is another
 * trace (the same path, cut at another frame), so the ops hash mb_st_stacks distinct traces
 * into the map's buckets. Where two share a bucket, the call fails with -EEXIST (a miss), or
 * with BPF_F_REUSE_STACKID replaces the bucket's trace: that takes a free element, and once
 * max_entries traces are stored none is left, so the call fails with -ENOMEM (counted in
 * counter[MB_ST_ENOMEM]). Any other failure is an error.
 */
#include "drivers/kloop.bpf.h"
#include "st_shared.h"

#define MB_ENOMEM	12	/* vmlinux.h has no errno values */
#define MB_EEXIST	17

/* Flags of every call (user stack, reuse) and the distinct skips; set before load. */
const volatile __u64 mb_st_flags = 0;
const volatile __u32 mb_st_stacks = 1;
/*
 * Frames every call skips first: 1 for the kernel stack, whose first frame is the call site
 * in this program, one of five (the loop's four unrolled steps and its tail), so that one
 * path is one trace; 0 for the user stack.
 */
const volatile __u32 mb_st_skip0 = 1;

/* value_size (frames kept * 8) and max_entries (buckets) are set before load. */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1);
	__uint(key_size, 4);
	__uint(value_size, 8);
} mb_st_map SEC(".maps");

/* The cursor carries the skip across calls: no divide in the loop. */
static __always_inline int st_get_stackid(__u32 index, struct mb_loop_ctx *lc, void *ctx)
{
	__u64 skip = lc->cursor;
	long id;

	lc->cursor = skip + 1 >= mb_st_stacks ? 0 : skip + 1;
	skip = (skip + mb_st_skip0) & MB_ST_SKIP_MASK;
	id = bpf_get_stackid(ctx, &mb_st_map, mb_st_flags | skip);
	if (id >= 0)
		lc->hits++;
	else if (id == -MB_EEXIST)
		lc->misses++;
	else if (id == -MB_ENOMEM)	/* reuse with no free element left: the map is full */
		lc->counter[MB_ST_ENOMEM]++;
	else
		lc->errors++;
	return 0;
}

MB_LOOP_PROG_CTX(mb_st_get_stackid, st_get_stackid)
