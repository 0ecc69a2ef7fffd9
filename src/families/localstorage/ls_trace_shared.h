/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What local-storage-tasks-trace's programs (ls_trace.bpf.c) and user space agree on. The
 * includer provides __u32 (vmlinux.h, or <linux/types.h>).
 */
#ifndef MB_LS_TRACE_SHARED_H
#define MB_LS_TRACE_SHARED_H

#include "drivers/kloop_shared.h"	/* MB_MAX_SLOTS */

#define LS_TRACE_OP_GET		1	/* the trigger op: create, write and delete task storage */
/*
 * The slot the sleepers fire for: the bench has one producer (slot 0), so the last slot is
 * free. Their runs are counted apart (ls_trace_sleeper_gets), atomically: many processes.
 */
#define LS_TRACE_SLEEPER_SLOT	(MB_MAX_SLOTS - 1)

#endif
