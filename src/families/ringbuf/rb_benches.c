// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* rb-libbpf, rb-custom, pb-libbpf, pb-custom: the kernel bench's names, options and lines. */
#include "rb.h"

#define RB_BENCH(_var, _name, _kind, _validate, _desc)					\
static int _var##_setup(struct mb_run *run)						\
{											\
	return rb_setup(run, _kind);							\
}											\
											\
const struct mb_bench _var = {								\
	.name = _name,									\
	.family = "ringbuf",								\
	.desc = _desc,									\
	.opts = rb_opts,								\
	.args_size = sizeof(struct rb_args),						\
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_CONSUMERS,				\
	.map_types = (_kind) == PB_LIBBPF || (_kind) == PB_CUSTOM ?			\
		     MB_MAP_TYPES("perf_event_array") : MB_MAP_TYPES("ringbuf"),		\
	/* Records a consumer took, over the wall clock it took them in. */		\
	.headline = { .count = MB_HEADLINE_HITS, .clock = MB_HEADLINE_WALL_RATE },	\
	/* A submit wakes the consumer: interrupts on the producer's CPU, not its time. */	\
	.lost_cpu = MB_LOST_CPU_KERNEL,							\
	.instrument = &mb_kloop_instrument,						\
	.text = &rb_text,								\
	.metrics = rb_metrics,								\
	.validate = _validate,								\
	.setup = _var##_setup,								\
	.producer = rb_produce,								\
	.consumer = rb_consume,								\
	.default_consumers = rb_default_consumers,					\
	.measure = rb_live_measure,							\
	.finish = rb_finish,								\
	.teardown = rb_teardown,							\
}

RB_BENCH(mb_bench_rb_libbpf, "rb-libbpf", RB_LIBBPF, rb_validate,
	 "BPF ring buffer: BPF producers, one consumer with libbpf's ring_buffer__poll()");
RB_BENCH(mb_bench_rb_custom, "rb-custom", RB_CUSTOM, rb_validate,
	 "BPF ring buffer: BPF producers, one consumer reading the mapped ring itself");
RB_BENCH(mb_bench_pb_libbpf, "pb-libbpf", PB_LIBBPF, pb_validate,
	 "perf buffer: BPF producers, one consumer with libbpf's perf_buffer__poll()");
RB_BENCH(mb_bench_pb_custom, "pb-custom", PB_CUSTOM, pb_validate,
	 "perf buffer: BPF producers, one consumer reading the mapped perf rings itself");
