/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * User side of the in-kernel op loop (kloop.bpf.h): a producer calls the bench's raw_tp program
 * through BPF_PROG_TEST_RUN on its CPU, sizing each call to about --call_us of in-kernel work,
 * reads its counters from the program's mmapped .bss and publishes them. Between calls it runs
 * the reference (an empty loop, reference.h) to detect noise.
 *
 * A bench that runs the loop sets .instrument = &mb_kloop_instrument: the runner then probes
 * for the loop, picks its kind (run->loop.kind, which set-up passes to mb_loop_prepare()),
 * measures the empty loop after set-up, takes each sample's reference figures and warns about
 * what the loaded program shows.
 */
#ifndef MB_KLOOP_H
#define MB_KLOOP_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>

#include "kloop_shared.h"
#include "core/bench.h"
#include "kloop_call.h"
#include "kloop_step.h"
#include "loop_kind.h"

extern const struct mb_instrument mb_kloop_instrument;

struct mb_kloop_cfg {
	int prog_fd;
	struct mb_slot *slots;		/* the program's mb_slots (skel->bss->mb_slots) */
	uint32_t ops_per_iter;		/* map operations per loop iteration (0 means 1) */
	uint32_t max_iters;		/* cap on iterations per call (0: 1 << 23) */
	uint32_t fixed_iters;		/* run exactly this many per call (0: adapt to --call_us) */
	/*
	 * The op cannot miss (an empty op, building a key): each is a hit, as the kernel's
	 * reporter counts them, so hits and the Iter lines' "hits" are the same figure.
	 */
	bool every_op_hits;
	/*
	 * Called when the program returns >= MB_RET_BENCH (refill or empty a map, for
	 * example). Its wall time is counted as excluded_ns. Return 0 to go on.
	 */
	int (*on_ret)(struct mb_run *run, struct mb_producer *p, uint32_t ret, void *ctx);
	void *ctx;
	/*
	 * How one call is made (NULL: mb_kloop_call, the raw_tp program with its arguments in
	 * the context): a program whose context carries none, such as an XDP program's packet
	 * (xdp_loop.h), and @call_ctx for it. Returns what mb_kloop_call returns.
	 */
	int (*call)(const struct mb_kloop_cfg *cfg, int slot, uint64_t iters, int cpu);
	const void *call_ctx;
};

/* A producer hook body: loops until the run stops. Returns 0 or a negative errno. */
int mb_kloop_produce(struct mb_run *run, struct mb_producer *p, const struct mb_kloop_cfg *cfg);


/*
 * For producers that drive several programs in turn (and so cannot use mb_kloop_produce):
 * the size of the next call, moving at most 2x towards @target_ns of in-kernel time ...
 */
uint64_t mb_kloop_next_iters(uint64_t iters, uint64_t call_ns, uint64_t target_ns, uint64_t max);

/*
 * With --latency, call number @call runs @iters and @call % 4 more (fewer where that would
 * pass @max). The timed op is the first of a step of four ops (kloop_lat.bpf.h), so its
 * number has the residue modulo 4 of the call's first op: calls of a multiple of four ops
 * would time op numbers of one residue only, and work a map does every 2^k ops (an LRU hash
 * refills its free list every 128 updates) four times as often as it happens, or never. The
 * extra ops turn the residue through all four, evenly over every eight calls.
 */
uint64_t mb_kloop_latency_iters(uint64_t iters, uint64_t call, uint64_t max);
/*
 * ... and the interleaved drift reference (kref.h): runs a call when due (@next_ref holds the
 * producer's schedule, start it at 0) and adds its time to @c->ref_ops / ref_ns.
 */
int mb_kloop_reference(struct mb_run *run, struct mb_producer *p, struct mb_counters *c,
		       uint64_t *next_ref);

#endif
