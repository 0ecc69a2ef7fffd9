// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Tail calls through a prog_array against a direct BPF-to-BPF call doing the same work. A
 * tail call never returns to its caller, so each op calls a subprogram that tail-calls: the
 * target's return value becomes the subprogram's (x86-64 allows tail calls from subprograms
 * with bpf2bpf calls). With a constant key the x86-64 JIT may emit a direct jump, patched when
 * the slot changes; a key read from memory (mb_tc_key) takes the indirect path. User space runs
 * TC_OPS_PER_CALL ops per call (tailcall_shared.h says why).
 */
#include "drivers/kloop.bpf.h"
#include "tailcall_shared.h"

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} mb_tc_progs SEC(".maps");

struct tc_count mb_tc_counts[MB_MAX_SLOTS];

/* TC_SLOT_HIT, in writable memory: the verifier cannot take it for a constant key. */
__u32 mb_tc_key = TC_SLOT_HIT;

/*
 * @v, hidden from the compiler: clang otherwise sees that a subprogram always returns one
 * constant and folds it into the caller, so the check of what the op returned is compiled out.
 */
static __always_inline int tc_opaque(int v)
{
	asm volatile("" : "+r"(v));
	return v;
}

static __always_inline struct tc_count *tc_count_of(__u64 *ctx)
{
	return &mb_tc_counts[ctx[MB_ARG_SLOT] & (MB_MAX_SLOTS - 1)];
}

/* The tail call's target: the op's work (a count) and a return. */
SEC("raw_tp")
int mb_tc_target(__u64 *ctx)
{
	tc_count_of(ctx)->target++;
	return TC_RET_TARGET;
}

/* The direct callee: the same work as the target, reached by a call and left by a return. */
static __noinline int tc_direct(__u64 *ctx)
{
	tc_count_of(ctx)->target++;
	return tc_opaque(TC_RET_TARGET);
}

/* Tail-calls the target; returns only when the tail call falls through. */
static __noinline int tc_via_hit(__u64 *ctx)
{
	bpf_tail_call(ctx, &mb_tc_progs, TC_SLOT_HIT);
	tc_count_of(ctx)->fell++;
	return tc_opaque(TC_RET_FELL);
}

/* The same tail call with a key the verifier does not know. */
static __noinline int tc_via_var(__u64 *ctx)
{
	bpf_tail_call(ctx, &mb_tc_progs, *(volatile __u32 *)&mb_tc_key);
	tc_count_of(ctx)->fell++;
	return tc_opaque(TC_RET_FELL);
}

/* Tail-calls the empty slot: falls through, and counts that it did. */
static __noinline int tc_via_empty(__u64 *ctx)
{
	bpf_tail_call(ctx, &mb_tc_progs, TC_SLOT_EMPTY);
	tc_count_of(ctx)->fell++;
	return tc_opaque(TC_RET_FELL);
}

/* An op is a hit when its callee returned what the case expects. */
static __always_inline int tc_account(struct mb_loop_ctx *lc, int ret, int want)
{
	if (ret == want)
		lc->hits++;
	else
		lc->misses++;
	return 0;
}

static __always_inline int tail_cb(__u32 index, struct mb_loop_ctx *lc, void *ctx)
{
	return tc_account(lc, tc_via_hit(ctx), TC_RET_TARGET);
}

static __always_inline int var_cb(__u32 index, struct mb_loop_ctx *lc, void *ctx)
{
	return tc_account(lc, tc_via_var(ctx), TC_RET_TARGET);
}

static __always_inline int miss_cb(__u32 index, struct mb_loop_ctx *lc, void *ctx)
{
	return tc_account(lc, tc_via_empty(ctx), TC_RET_FELL);
}

static __always_inline int direct_cb(__u32 index, struct mb_loop_ctx *lc, void *ctx)
{
	return tc_account(lc, tc_direct(ctx), TC_RET_TARGET);
}

/* The same loop of TC_OPS_PER_CALL with an empty op: the per-call cost the others include. */
static __always_inline int empty_cb(__u32 index, struct mb_loop_ctx *lc, void *ctx)
{
	lc->hits++;
	return 0;
}

MB_LOOP_PROG_CTX(mb_tc_tail, tail_cb)
MB_LOOP_PROG_CTX(mb_tc_var, var_cb)
MB_LOOP_PROG_CTX(mb_tc_miss, miss_cb)
MB_LOOP_PROG_CTX(mb_tc_direct, direct_cb)
MB_LOOP_PROG_CTX(mb_tc_empty, empty_cb)
