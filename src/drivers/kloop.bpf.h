/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The in-kernel op loop (docs/methodology.md). A raw_tp program, run by
 * bpf_prog_test_run_opts() on the producer's CPU, runs one operation per iteration and times
 * the loop with bpf_ktime_get_ns(). MB_LOOP_PROG makes two programs from one callback:
 *
 *  - _prog: a loop bounded by the may_goto instruction (kernel >= 6.9). The callback is inlined
 *    into the loop body, so an op costs no call and return (a call and return cost ~8 ns where
 *    the kernel puts a return thunk on every ret).
 *  - _prog##_bl: the bpf_loop() fallback for kernels without may_goto. The verifier inlines
 *    bpf_loop only when its call site has a single constant callback, so one program per op.
 *
 * User space loads one of the two (loop_kind.c) and checks the translated program
 * (loop_evidence.c). With --latency it loads a third, _prog##_lat, the may_goto loop timing one
 * op in MB_LAT_EVERY (kloop_lat.bpf.h). MB_LOOP_PROG_CTX and MB_LOOP_PROG_PRE (below) give the
 * callback the program's context, or a value computed once per call before the loop.
 */
#ifndef MB_KLOOP_BPF_H
#define MB_KLOOP_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "kloop_shared.h"
#include "may_goto.bpf.h"
#include "slots.bpf.h"

/*
 * State a callback sees. The may_goto loop keeps it in .bss (mb_loop_ctxs): the verifier
 * then knows none of its values, so the loop's states converge, and the program's stack holds
 * only the op's own variables. bpf_loop wants its context on the stack: there keep it at 48
 * bytes, since a raw_tp program whose stack, rounded up to 16 bytes, reaches 64 gets a
 * private stack from the verifier, and then every call (the callback's, a helper's) saves and
 * restores the private frame pointer.
 */
struct mb_loop_ctx_slot mb_loop_ctxs[MB_MAX_SLOTS];

/* xorshift64*: a few cycles, unlike the bpf_get_prandom_u32() helper call. */
static __always_inline __u64 mb_rand(struct mb_loop_ctx *lc)
{
	__u64 x = lc->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	lc->rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [0, n) by multiply-shift: no divide in the loop. */
static __always_inline __u32 mb_rand_below(struct mb_loop_ctx *lc, __u32 n)
{
	return (__u32)(((mb_rand(lc) >> 32) * (__u64)n) >> 32);
}

/* Loads the slot's state into @lc; false when the slot index is out of range. */
static __always_inline bool mb_loop_begin(__u64 *ctx, struct mb_loop_ctx *lc)
{
	__u64 idx = ctx[MB_ARG_SLOT];
	struct mb_slot *slot;

	if (idx >= MB_MAX_SLOTS)
		return false;
	slot = &mb_slots[idx];
	lc->slot = idx;
	lc->ret = 0;
	lc->hits = slot->hits;
	lc->misses = slot->misses;
	lc->errors = slot->errors;
	for (int i = 0; i < MB_LOOP_COUNTERS; i++)
		lc->counter[i] = slot->counter[i];
	lc->cursor = slot->cursor;
	lc->rng = slot->rng;
	lc->arg = slot->arg;
	return true;
}

/*
 * The slot of @lc, found again after the loop rather than kept across it: a pointer kept
 * across the loop and its calls ends up spilled to the stack, with its neighbours.
 */
static __always_inline struct mb_slot *mb_loop_slot(struct mb_loop_ctx *lc)
{
	return &mb_slots[lc->slot & (MB_MAX_SLOTS - 1)];
}

/* Starts the call's clock; the start time and @iters wait in the slot, off the BPF stack. */
static __always_inline void mb_loop_start(struct mb_loop_ctx *lc, __u64 iters)
{
	struct mb_slot *slot = mb_loop_slot(lc);

	slot->call_iters = iters;
	slot->start_ns = bpf_ktime_get_ns();
}

/* The number of the iteration that runs while @left are still to come after it. */
static __always_inline __u32 mb_loop_index(struct mb_loop_ctx *lc, __u64 left)
{
	return (__u32)(mb_loop_slot(lc)->call_iters - left - 1);
}

/* Stores @lc back and accounts one call of @n iterations. Returns the program's value. */
static __always_inline int mb_loop_end(struct mb_loop_ctx *lc, long n)
{
	__u64 now = bpf_ktime_get_ns();
	struct mb_slot *slot = mb_loop_slot(lc);

	slot->kernel_ns += now - slot->start_ns;
	slot->calls++;
	if (n > 0)
		slot->ops += n;
	else if (n < 0)
		lc->errors++;
	slot->hits = lc->hits;
	/* Nothing else writes the slot during the call: its low halves are still the start. */
	slot->misses += (__u32)(lc->misses - (__u32)slot->misses);
	slot->errors += (__u32)(lc->errors - (__u32)slot->errors);
	for (int i = 0; i < MB_LOOP_COUNTERS; i++)
		slot->counter[i] += (__u32)(lc->counter[i] - (__u32)slot->counter[i]);
	slot->cursor = lc->cursor;
	slot->rng = lc->rng;
	return lc->ret;
}

/*
 * Hides where @p points from the compiler for one iteration, at no cost: clang-14 otherwise
 * hoists the address of every field the op uses out of the loop, and spills them all to the
 * stack (pushing it over the private-stack threshold).
 */
#define MB_OPAQUE(p) asm volatile("" : "+r"(p))

#include "kloop_lat.bpf.h"

/*
 * One op of the call-free loop: @_call, an expression of the loop's lc and left (and the
 * program's ctx), runs it; leaves through @done when it is true (the callback stops the loop).
 */
#define MB_LOOP_STEP_CALL(_call, lc, left, done)			\
	do {									\
		(left)--;							\
		MB_OPAQUE(lc);							\
		if (_call)							\
			goto done;						\
	} while (0)

#define MB_LOOP_STEP(_callback, lc, left, done)				\
	MB_LOOP_STEP_CALL(_callback(mb_loop_index(lc, left), lc), lc, left, done)

/*
 * The call-free loop. @left counts down from a value the verifier does not know, so the loop
 * state converges; the verifier's budget (may_goto) ends the loop early only on a call far
 * longer than any mapbench makes (user space sizes calls to --call_us). Four ops share one
 * budget check: the check keeps a counter on the stack, and its load and store cost more than
 * an empty op.
 */
#define MB_LOOP_MAY_GOTO_PRE_CALL(_prog, _pre_decl, _call)			\
SEC("raw_tp")									\
int _prog(__u64 *ctx)								\
{										\
	__u64 left = ctx[MB_ARG_ITERS];						\
	struct mb_loop_ctx *lc =						\
		&mb_loop_ctxs[ctx[MB_ARG_SLOT] & (MB_MAX_SLOTS - 1)].lc;	\
										\
	if (!mb_loop_begin(ctx, lc))						\
		return MB_RET_BAD_ARGS;						\
	_pre_decl;								\
	mb_loop_start(lc, left);						\
	while (left >= 4) {							\
		MB_MAY_GOTO(out);						\
		MB_LOOP_STEP_CALL(_call, lc, left, out);		\
		MB_LOOP_STEP_CALL(_call, lc, left, out);		\
		MB_LOOP_STEP_CALL(_call, lc, left, out);		\
		MB_LOOP_STEP_CALL(_call, lc, left, out);		\
	}									\
	while (left) {								\
		MB_MAY_GOTO(out);						\
		MB_LOOP_STEP_CALL(_call, lc, left, out);		\
	}									\
out:										\
	return mb_loop_end(lc, (long)(mb_loop_slot(lc)->call_iters - left));	\
}										\
MB_LOOP_MAY_GOTO_LAT(_prog##_lat, _pre_decl, _call)

#define MB_LOOP_MAY_GOTO_CALL(_prog, _call)					\
	MB_LOOP_MAY_GOTO_PRE_CALL(_prog, , _call)

#define MB_LOOP_MAY_GOTO(_prog, _callback)					\
	MB_LOOP_MAY_GOTO_CALL(_prog, _callback(mb_loop_index(lc, left), lc))

#define MB_LOOP_BPF_LOOP(_prog, _callback)					\
SEC("raw_tp")									\
int _prog(__u64 *ctx)								\
{										\
	struct mb_loop_ctx lc = {};						\
	long n;									\
										\
	if (!mb_loop_begin(ctx, &lc))						\
		return MB_RET_BAD_ARGS;						\
	mb_loop_start(&lc, ctx[MB_ARG_ITERS]);					\
	n = bpf_loop(ctx[MB_ARG_ITERS], _callback, &lc, 0);			\
	return mb_loop_end(&lc, n);						\
}

/* Both programs of one op: user space keeps the one the loop kind asks for. */
#define MB_LOOP_PROG(_prog, _callback)						\
	MB_LOOP_MAY_GOTO(_prog, _callback)					\
	MB_LOOP_BPF_LOOP(_prog##_bl, _callback)

/*
 * For ops that need the program's context (bpf_perf_event_output): the callback is
 * _callback(index, lc, ctx). bpf_loop hands its callback a pointer to the caller's stack,
 * where the context pointer waits beside the loop state (the stack grows by 8 bytes there).
 */
struct mb_loop_ctx_prog {
	struct mb_loop_ctx lc;
	void *prog_ctx;
};

#define MB_LOOP_BPF_LOOP_CTX(_prog, _callback)					\
static int _prog##_cb(__u32 index, void *data)					\
{										\
	struct mb_loop_ctx_prog *c = data;					\
										\
	return _callback(index, &c->lc, c->prog_ctx);				\
}										\
										\
SEC("raw_tp")									\
int _prog(__u64 *ctx)								\
{										\
	struct mb_loop_ctx_prog c = { .prog_ctx = ctx };			\
	long n;									\
										\
	if (!mb_loop_begin(ctx, &c.lc))						\
		return MB_RET_BAD_ARGS;						\
	mb_loop_start(&c.lc, ctx[MB_ARG_ITERS]);				\
	n = bpf_loop(ctx[MB_ARG_ITERS], _prog##_cb, &c, 0);			\
	return mb_loop_end(&c.lc, n);						\
}

#define MB_LOOP_PROG_CTX(_prog, _callback)					\
	MB_LOOP_MAY_GOTO_CALL(_prog, _callback(mb_loop_index(lc, left), lc, ctx)) \
	MB_LOOP_BPF_LOOP_CTX(_prog##_bl, _callback)

/*
 * For ops that need a value computed once per call, before the loop and its clock: the
 * trusted current task from bpf_get_current_task_btf(), its cgroup. @_pre, an expression of
 * type @_type (of the program's ctx), is evaluated after the slot's state is loaded; the
 * callback is _callback(index, lc, pre). The may_goto loop keeps the value in a register (or
 * its spill slot) across the loop, so no op pays the helper call that computes it. bpf_loop
 * hands its callback a stack pointer: there the value waits beside a pointer to the loop
 * state, which stays in .bss as the may_goto loop's does (16 bytes of stack, not the state's
 * 48 and 8 more, which would reach the private-stack threshold). The verifier keeps the type
 * of a pointer spilled to the stack, so a trusted pointer stays trusted in the callback.
 */
#define MB_LOOP_BPF_LOOP_PRE(_prog, _type, _pre, _callback)			\
struct _prog##_pctx {								\
	struct mb_loop_ctx *lc;							\
	_type pre;								\
};										\
										\
static int _prog##_cb(__u32 index, void *data)					\
{										\
	struct _prog##_pctx *c = data;						\
										\
	return _callback(index, c->lc, c->pre);					\
}										\
										\
SEC("raw_tp")									\
int _prog(__u64 *ctx)								\
{										\
	struct _prog##_pctx c = {						\
		.lc = &mb_loop_ctxs[ctx[MB_ARG_SLOT] & (MB_MAX_SLOTS - 1)].lc,	\
	};									\
	long n;									\
										\
	if (!mb_loop_begin(ctx, c.lc))						\
		return MB_RET_BAD_ARGS;						\
	c.pre = (_pre);								\
	mb_loop_start(c.lc, ctx[MB_ARG_ITERS]);					\
	n = bpf_loop(ctx[MB_ARG_ITERS], _prog##_cb, &c, 0);			\
	return mb_loop_end(c.lc, n);						\
}

#define MB_LOOP_PROG_PRE(_prog, _type, _pre, _callback)			\
	MB_LOOP_MAY_GOTO_PRE_CALL(_prog, _type mb_pre = (_pre),		\
				  _callback(mb_loop_index(lc, left), lc, mb_pre))	\
	MB_LOOP_BPF_LOOP_PRE(_prog##_bl, _type, _pre, _callback)

#endif
