// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The reference of every in-kernel bench: the op loop with an empty op. Its cost per op is the
 * loop's own (run->loop_overhead_ns, what --net subtracts), and calls of it between a bench's
 * calls show whether the machine's speed moved (kref.h). bpf-noop runs the same program.
 */
#include "kloop.bpf.h"

static __always_inline int noop_cb(__u32 index, void *ctx)
{
	return 0;
}

MB_LOOP_PROG(mb_noop, noop_cb)
