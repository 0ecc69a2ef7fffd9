// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * stacktrace family: bpf_get_stackid() into a BPF_MAP_TYPE_STACK_TRACE, one call per op, in
 * the in-kernel op loop. This file: the options and the descriptor, on top of the family's
 * files: st_walk.c (the map walked from user space), st_run.c (set-up, producer, checks);
 * st_text.c writes the lines.
 *
 * Which stack: the op loop is a raw_tp program run by the producer's BPF_PROG_TEST_RUN, so
 * the kernel stack is that syscall's path (a fixed depth), and --user takes the producer's
 * user stack instead. --depth is the frames the map keeps (its value_size / 8), which also
 * bounds the kernel's walk. --stacks cycles the skip field of the flags, so the ops hash that
 * many distinct traces into the map's buckets: with fewer buckets than traces they collide.
 */
#include "stacktrace.h"
#include "drivers/kloop.h"
#include "maps/map_opts.h"

/* Buckets are preallocated with their traces: 64 Ki of 127 frames is 66 MiB. */
#define ST_ENTRIES_MAX	(1u << 16)
/* kernel.perf_event_max_stack's default: the map refuses a longer value. */
#define ST_DEPTH_MAX	127

static const struct mb_opt st_opts[] = {
	MB_OPT_MAX_ENTRIES(struct st_args, max_entries, "1024", ST_ENTRIES_MAX,
			   "stack ids (buckets: rounded up to a power of two); fewer than --stacks makes traces collide"),
	MB_OPT_U32_DEF("depth", struct st_args, depth, "127", 1, ST_DEPTH_MAX, "N",
		       "Frames kept per trace (value_size / 8); the kernel walks no more than that"),
	MB_OPT_U32_DEF("stacks", struct st_args, stacks, "1", 1, MB_ST_STACKS_MAX, "N",
		       "Distinct traces the calls cycle through: the same stack with 0..N-1 more frames skipped"),
	MB_OPT_FLAG_DEF("user", struct st_args, user,
			"The producer thread's user stack (BPF_F_USER_STACK) instead of the kernel's"),
	MB_OPT_FLAG_DEF("reuse", struct st_args, reuse,
			"BPF_F_REUSE_STACKID: a trace that collides replaces the bucket's, instead of -EEXIST"),
	MB_OPT_END,
};

static const struct mb_counter_desc st_counters[] = {
	[MB_ST_ENOMEM] = { "enomem", "ops",
			   "calls that failed with -ENOMEM: with --reuse, a collision once every element holds a trace" },
	{ NULL, NULL, NULL },
};

const struct mb_bench mb_bench_stack_trace_get_stackid = {
	.name = "stack-trace-get-stackid",
	.family = "stacktrace",
	.desc = "bpf_get_stackid() into a stack trace map: by frames kept, traces and buckets, with or without BPF_F_REUSE_STACKID",
	.opts = st_opts,
	.args_size = sizeof(struct st_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = MB_MAP_TYPES("stack_trace"),
	.instrument = &mb_kloop_instrument,
	.text = &st_text,
	.counters = st_counters,
	.setup = st_setup,
	.producer = st_producer,
	.finish = st_finish,
	.teardown = st_teardown,
};
