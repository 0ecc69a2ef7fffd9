// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Perf buffer producers (pb-libbpf, pb-custom): one bpf_perf_event_output() of the staging
 * record per op into the current CPU's buffer, as the kernel's perfbuf_bench does.
 */
#include "rb_common.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} mb_pb SEC(".maps");

static __always_inline int pb_output_cb(__u32 index, struct mb_loop_ctx *lc, void *ctx)
{
	struct rb_staging *st;

	rb_stamp(lc);
	st = rb_staged(lc);
	return rb_made(lc, !bpf_perf_event_output(ctx, &mb_pb, BPF_F_CURRENT_CPU, st,
						  rb_rec_size));
}

MB_LOOP_PROG_CTX(mb_pb_output, pb_output_cb)
