/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * reuseport-select: what its sk_reuseport program (rp_select.bpf.c) and user space
 * (rp_select.c) share through the program's .bss. The includer provides __u64 (vmlinux.h
 * on the BPF side, <linux/types.h> in user space).
 */
#ifndef MB_RP_SHARED_H
#define MB_RP_SHARED_H

/* The most sockets a group holds (--nr_entries); the program's per-socket counts. */
#define MB_RP_SOCKS_MAX	4096

/* What the program counted, cumulative; one producer writes through it at a time. */
struct mb_rp_stats {
	__u64 runs;		/* program runs: selections asked for */
	__u64 selected;		/* bpf_sk_select_reuseport() returned 0 */
	__u64 errors;		/* it returned an error (last_err says which) */
	__u64 select_ns;	/* the helper's span: a clock read, the call */
	__u64 clock_ns;		/* an empty span: two clock reads back to back */
	__s64 last_err;
	__u32 last_index;	/* the slot the last run selected */
	__u32 last_hash;	/* its ctx->hash */
};

#endif
