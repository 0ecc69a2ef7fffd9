/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Layout shared by stacktrace.bpf.c and the stacktrace family's user space. */
#ifndef MB_ST_SHARED_H
#define MB_ST_SHARED_H

/* bpf_get_stackid()'s flags (linux/bpf.h; vmlinux.h has them too, user space has both). */
#define MB_ST_SKIP_MASK		0xffULL		/* BPF_F_SKIP_FIELD_MASK */
#define MB_ST_USER_STACK	(1ULL << 8)	/* BPF_F_USER_STACK */
#define MB_ST_REUSE_STACKID	(1ULL << 10)	/* BPF_F_REUSE_STACKID */

/* The most distinct stacks one run cycles through (--stacks): frames skipped, 0..N-1. */
#define MB_ST_STACKS_MAX	16

/* The program's own counter (lc->counter[0]): calls that failed with -ENOMEM. */
#define MB_ST_ENOMEM		0

#endif
