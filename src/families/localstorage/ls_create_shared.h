/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * local-storage-create: what its BPF programs (ls_create.bpf.c) and user space agree on. The
 * includer provides __u64 (vmlinux.h on the BPF side, <linux/types.h> in user space).
 */
#ifndef MB_LS_CREATE_SHARED_H
#define MB_LS_CREATE_SHARED_H

#define MB_LSC_MAX_PRODUCERS	256	/* MB_MAX_PRODUCERS (core/bench.h), checked there */
#define MB_LSC_OTHER		MB_LSC_MAX_PRODUCERS	/* the slot of threads no producer is */
#define MB_LSC_VALUE_SIZE	64	/* the storage's value, as the kernel's bench */

/* A producer's counts, written by the programs that run in its thread. */
struct mb_lsc_slot {
	__u64 creates;		/* get(F_CREATE) returned storage */
	__u64 create_errs;	/* it returned NULL */
} __attribute__((aligned(64)));

#endif
