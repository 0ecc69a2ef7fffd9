/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The op loop's layout, shared by its BPF programs (kloop.bpf.h) and user space (kloop.h):
 * the producers' counter slots, the loop's state, a call's arguments and return values. The
 * includer provides __u64 (vmlinux.h on the BPF side, <linux/types.h> in user space).
 */
#ifndef MB_KLOOP_SHARED_H
#define MB_KLOOP_SHARED_H

#define MB_MAX_SLOTS 256	/* one slot per producer; equals MB_MAX_PRODUCERS */
/*
 * A bench's own counters (its .counters) the loop carries: one, since the loop's state
 * (struct mb_loop_ctx) must stay at 48 bytes (kloop.bpf.h says why); at most MB_MAX_COUNTERS.
 */
#define MB_LOOP_COUNTERS 1

/*
 * Per-producer counters of an in-kernel op loop, in the program's .bss (mmapped by user space).
 * Only the producer's own test_run call writes its slot, so no atomics are needed; 128-byte
 * alignment keeps producers off each other's cache lines (and their adjacent-line prefetch).
 */
struct mb_slot {
	__u64 ops;		/* loop iterations run */
	__u64 hits;
	__u64 misses;
	__u64 errors;
	__u64 counter[MB_LOOP_COUNTERS];	/* the bench's own (its .counters) */
	__u64 kernel_ns;	/* bpf_ktime_get_ns() around bpf_loop */
	__u64 calls;
	__u64 cursor;		/* key stream position, carried across calls */
	__u64 rng;		/* per-producer PRNG state */
	__u64 arg;		/* bench-specific per-producer value */
	__u64 start_ns;		/* the running call's start and iterations asked for: kept */
	__u64 call_iters;	/* here, not in registers the BPF stack would have to spill */
} __attribute__((aligned(128)));

/* The op loop's working state (kloop.bpf.h says where it lives, and why). */
struct mb_loop_ctx {
	__u64 hits;
	__u64 cursor;
	__u64 rng;
	__u64 arg;
	__u32 misses;		/* the low halves of the slot's counters: a call adds < 2^32 */
	__u32 errors;
	__u32 counter[MB_LOOP_COUNTERS];
	__u16 slot;
	__u16 ret;		/* program return value when the callback stops the loop */
};

/*
 * One per producer, on cache lines of its own (like mb_slots). Beside the state, what the
 * may_goto loop's timed twin (--latency, kloop_lat.bpf.h) keeps across the op it times and
 * the helper calls after it: here, at a fixed offset from the state's register, rather than
 * on the BPF stack, where it could push the program over the private-stack threshold.
 */
struct mb_loop_ctx_slot {
	struct mb_loop_ctx lc;
	__u64 lat_base;		/* the slot's ops before the call plus the call's iterations */
	__u64 lat_next;		/* the number of the op from which the next one is timed */
	__u64 lat_rng;		/* the gaps' xorshift state (0: not seeded yet) */
	__u64 lat_t0;		/* clock reads around the timed op, and the third */
	__u64 lat_t1;
	__u64 lat_t2;
	__u32 lat_key;		/* the histogram's key, for bpf_map_lookup_elem() */
	__u32 lat_timing;	/* 1 while the timed op runs */
} __attribute__((aligned(128)));

/*
 * --latency: one op in MB_LAT_EVERY, on average, is timed on its own: the gaps between timed
 * ops are drawn from MB_LAT_EVERY / 2 .. 3 * MB_LAT_EVERY / 2 (a power of two, a multiple of
 * the four ops that share one budget check: kloop_lat.bpf.h). Its duration goes to the per-CPU
 * histogram MB_LAT_OP of the map mb_lat_hists, and a clock read with nothing between the same
 * two reads to MB_LAT_TIMER: the timer's own cost, which every timed duration includes.
 */
#define MB_LAT_EVERY	8192
enum mb_lat_hist_key {
	MB_LAT_OP,
	MB_LAT_TIMER,
	MB_LAT_HISTS,
};

/* Context of the raw_tp driver programs (test_run ctx_in). */
enum mb_loop_arg {
	MB_ARG_SLOT,		/* producer index */
	MB_ARG_ITERS,		/* iterations of bpf_loop for this call */
	MB_ARG_NR,
};

/* Program return values (test_run retval); benches add their own from 16. */
enum mb_loop_ret {
	MB_RET_OK = 0,
	MB_RET_BAD_ARGS = 1,	/* slot out of range */
	MB_RET_ERROR = 2,	/* an operation failed: counted in errors, loop stopped */
	MB_RET_BENCH = 16,
};

#endif
