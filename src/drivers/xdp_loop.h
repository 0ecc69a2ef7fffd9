/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * User side of the XDP op loop (xdp_loop.bpf.h): one BPF_PROG_TEST_RUN call of an XDP
 * program on a packet, its iterations written into the producer's slot before the call. As
 * struct mb_kloop_cfg's call hook it puts XDP programs on the op loop's producer path
 * (mb_kloop_produce): the same call sizing, reference, samples and linearity check as the
 * raw_tp programs.
 */
#ifndef MB_XDP_LOOP_H
#define MB_XDP_LOOP_H

#include <stdint.h>

struct mb_kloop_cfg;
struct mb_slot;

/* The packet a call hands the program (the cfg's call_ctx). */
struct mb_xdp_packet {
	const void *data;
	uint32_t len;
};

/* One call and what came out of it (mb_xdp_loop_run). */
struct mb_xdp_call {
	const struct mb_xdp_packet *in;
	void *out;		/* the packet after the call (NULL: not asked for) ... */
	uint32_t out_cap;	/* ... in this many bytes */
	uint32_t out_len;	/* set: its length */
	uint32_t retval;	/* set: the program's return value (the last packet's verdict) */
	uint64_t ops;		/* set: iterations the slot counted for the call */
};

/*
 * Run @prog_fd once with @iters iterations in slot @slot of @slots (the calling thread must
 * be registered to it: thread_slots.h). 0; -ENOENT where the program counted no call (the
 * thread is no producer's); or the call's -errno.
 */
int mb_xdp_loop_run(int prog_fd, struct mb_slot *slots, int slot, uint64_t iters,
		    struct mb_xdp_call *call);

/*
 * struct mb_kloop_cfg's call hook: cfg->call_ctx is a struct mb_xdp_packet. MB_RET_OK, or
 * MB_RET_BAD_ARGS where the program found no slot, or -errno; the program's verdict is not
 * a return value of the loop (XDP_DROP is 1): the op counts what it means in the slot.
 */
int mb_xdp_loop_call(const struct mb_kloop_cfg *cfg, int slot, uint64_t iters, int cpu);

#endif
