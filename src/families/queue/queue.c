// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Queue family: push, pop and peek on BPF_MAP_TYPE_QUEUE and BPF_MAP_TYPE_STACK, and on a
 * hash map used as a queue (--map_type hash: keys are sequence numbers, a head and a tail
 * counter say which to pop and which to push), timed in the in-kernel op loop or by syscalls
 * (--path). This file: the options and the descriptors, on top of the family's layers
 * (lowest first): queue_plan.c (what each bench does, the names), queue_sys.c (the syscall
 * ops), queue_setup.c (maps, programs, the round trip, the fill, the resets), queue_run.c
 * (the producer, the check of the ops, the run's figures); queue_text.c writes the lines.
 *
 * One producer: the map's level is kept by one thread, rounds refill or drain it, and each
 * op checks the value it takes against the one due, which two producers would interleave.
 */
#include <errno.h>

#include "queue.h"
#include "drivers/kloop.h"
#include "maps/map_opts.h"

/* A queue of 2^24 entries of 4 KiB would be 64 GiB: the product is checked in validate. */
#define QU_ENTRIES_MAX		(1u << 24)
#define QU_MAP_BYTES_MAX	(1ull << 30)

#define QU_OPTS_COMMON								\
	MB_OPT_ENUM_DEF("map_type", struct qu_args, map_type, "queue", qu_type_names,	\
			"Map: queue (FIFO), stack (LIFO), or hash: a hash map used as a queue (key: a sequence number; pop takes the head key, push adds the tail key)"), \
	MB_OPT_MAX_ENTRIES(struct qu_args, max_entries, "10000", QU_ENTRIES_MAX,	\
			   "entries the map holds at most"),			\
	MB_OPT_VALUE_SIZE(struct qu_args, value_size, "8", 8, MB_QU_VALUE_MAX,	\
			  "the first 8 bytes carry the sequence number each op checks"), \
	MB_OPT_ENUM_DEF("path", struct qu_args, path, "kernel", qu_path_names,	\
			"Where the ops run: the in-kernel loop, or BPF_MAP_* syscalls from user space")

static const struct mb_opt qu_opts[] = {
	QU_OPTS_COMMON,
	MB_OPT_NR_ENTRIES(struct qu_args, nr_entries, NULL, 0, QU_ENTRIES_MAX,
			  "the level the ops start from, at most --max_entries (push: below it; pop, peek: 1 or more); by default half of --max_entries"),
	MB_OPT_END,
};

/* The full and empty benches: the level is theirs. */
static const struct mb_opt qu_edge_opts[] = {
	QU_OPTS_COMMON,
	MB_OPT_END,
};

static const struct mb_counter_desc qu_counters[] = {
	[MB_QU_MISMATCH] = { "mismatches", "ops",
			     "popped or peeked values that were not the one due (FIFO or LIFO)" },
	{ NULL, NULL, NULL },
};

static const struct mb_metric_desc qu_metrics[] = {
	{ "op_ns", "ns/op" },
	{ NULL },
};

static int qu_validate(struct mb_run *run, enum qu_bench b)
{
	struct qu_args *a = run->args;
	uint32_t max = a->max_entries;

	if ((uint64_t)max * a->value_size > QU_MAP_BYTES_MAX)
		return mb_run_bad_num(run, "max_entries", max, "1..%llu with --value_size %u (at most 1 GiB of values)",
				      QU_MAP_BYTES_MAX / a->value_size, a->value_size);
	switch (b) {
	case QU_PUSH_FULL:
	case QU_PUSH_OVERWRITE:
		a->nr_entries = max;
		return 0;
	case QU_POP_EMPTY:
	case QU_PEEK_EMPTY:
		a->nr_entries = 0;
		return 0;
	default:
		break;
	}
	/* Half full by default; a pop or a peek needs one entry even in a map of one. */
	if (!mb_run_opt_given(run, "nr_entries"))
		a->nr_entries = b == QU_PUSH || b == QU_PUSH_POP ? max / 2 : (max + 1) / 2;
	switch (b) {
	case QU_PUSH:
	case QU_PUSH_POP:
		if (a->nr_entries >= max)
			return mb_run_bad_num(run, "nr_entries", a->nr_entries,
					      "0..%u (below --max_entries %u: a push must fit)",
					      max - 1, max);
		return 0;
	default:
		if (a->nr_entries < 1 || a->nr_entries > max)
			return mb_run_bad_num(run, "nr_entries", a->nr_entries,
					      "1..%u (--max_entries %u; %s needs an entry)", max,
					      max, b == QU_POP ? "a pop" : "a peek");
		return 0;
	}
}

#define QU_BENCH(_var, _name, _b, _opts, _desc)					\
static int _var##_validate(struct mb_run *run) { return qu_validate(run, _b); }	\
static int _var##_setup(struct mb_run *run) { return qu_setup(run, _b); }	\
const struct mb_bench _var = {							\
	.name = _name,								\
	.family = "queue",							\
	.desc = _desc,								\
	.opts = _opts,								\
	.args_size = sizeof(struct qu_args),					\
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,			\
	.map_types = qu_type_names,						\
	.instrument = &mb_kloop_instrument,					\
	.text = &qu_text,							\
	.metrics = qu_metrics,							\
	.counters = qu_counters,						\
	.validate = _var##_validate,						\
	.setup = _var##_setup,							\
	.producer = qu_producer,						\
	.measure = qu_measure,							\
	.finish = qu_finish,							\
	.teardown = qu_teardown,						\
}

QU_BENCH(mb_bench_queue_push, "queue-push", QU_PUSH, qu_opts,
	 "push onto a queue, stack or hash-as-queue below capacity (drained back between rounds)");
QU_BENCH(mb_bench_queue_pop, "queue-pop", QU_POP, qu_opts,
	 "pop from a queue, stack or hash-as-queue, each value checked (refilled between rounds)");
QU_BENCH(mb_bench_queue_peek, "queue-peek", QU_PEEK, qu_opts,
	 "peek at the head (queue, hash) or top (stack) of a map holding --nr_entries");
QU_BENCH(mb_bench_queue_push_pop, "queue-push-pop", QU_PUSH_POP, qu_opts,
	 "a push then a pop: one op, the level stays at --nr_entries");
QU_BENCH(mb_bench_queue_push_full, "queue-push-full", QU_PUSH_FULL, qu_edge_opts,
	 "push without BPF_EXIST on a full map: every op fails with -E2BIG");
QU_BENCH(mb_bench_queue_push_overwrite, "queue-push-overwrite", QU_PUSH_OVERWRITE, qu_edge_opts,
	 "push with BPF_EXIST on a full map: every op drops the oldest entry");
QU_BENCH(mb_bench_queue_pop_empty, "queue-pop-empty", QU_POP_EMPTY, qu_edge_opts,
	 "pop on an empty map: every op fails with -ENOENT");
QU_BENCH(mb_bench_queue_peek_empty, "queue-peek-empty", QU_PEEK_EMPTY, qu_edge_opts,
	 "peek on an empty map: every op fails with -ENOENT");

