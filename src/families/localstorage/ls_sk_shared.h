/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Shared by ls_sk.bpf.c and the socket benches' user space (ls_sk.c). The includer provides
 * __u32/__u64; LS_VALUE and LS_MAX_MAPS are the per-type benches' (ls_types_shared.h).
 */
#ifndef MB_LS_SK_SHARED_H
#define MB_LS_SK_SHARED_H

/* The trigger ops (trigger_shared.h: 1..255): what a producer's read of its socket runs. */
enum ls_sk_op {
	LS_SK_OP_FILL = 1,	/* make and write the socket's storage in every map, once */
	LS_SK_OP_GET = 2,	/* LS_SK_GETS gets (hit), timed */
	LS_SK_OP_CD = 3,	/* LS_SK_GETS create+delete pairs, timed */
};

/*
 * Gets per read of the socket: the recv() and the tracepoint around them are outside the
 * clock, but a read costs ~1 us, so 10000 gets (tens of us) keep the clock's and the
 * accounting's ~50 ns per read well under 0.01 ns per get; the kernel's cache benches take
 * 10000 per trigger too.
 */
#define LS_SK_GETS	10000

#endif
