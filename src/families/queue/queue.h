/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The queue family (queue-*): push, pop and peek on queue and stack maps, and on a hash map
 * used as a queue, in the in-kernel op loop or by syscalls. This header holds what the
 * family's files share: the options, the ops, the run state.
 */
#ifndef MB_FAMILIES_QUEUE_H
#define MB_FAMILIES_QUEUE_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>

#include "core/bench.h"
#include "queue_shared.h"

/* The map the ops work on (--map_type). */
enum qu_type {
	QU_QUEUE,	/* BPF_MAP_TYPE_QUEUE: FIFO */
	QU_STACK,	/* BPF_MAP_TYPE_STACK: LIFO */
	QU_HASH,	/* BPF_MAP_TYPE_HASH keyed by a sequence number, as a FIFO */
	QU_TYPE_NR,
};

/* The program an op runs (mb_qu_<type>_<prog>). */
enum qu_prog {
	QU_P_PUSH,
	QU_P_PUSH_EXIST,
	QU_P_POP,
	QU_P_PEEK,
	QU_P_PUSH_POP,
	QU_P_NR,
};

/* A bench: its program and the level the map is held at. */
enum qu_bench {
	QU_PUSH,		/* push onto a map below capacity: from --nr_entries until full */
	QU_POP,			/* pop from a map holding entries: from --nr_entries until empty */
	QU_PEEK,		/* peek at a map holding --nr_entries */
	QU_PUSH_POP,		/* a push then a pop, at --nr_entries */
	QU_PUSH_FULL,		/* push without BPF_EXIST on a full map: -E2BIG */
	QU_PUSH_OVERWRITE,	/* push with BPF_EXIST on a full map: drops the oldest */
	QU_POP_EMPTY,		/* pop on an empty map: -ENOENT */
	QU_PEEK_EMPTY,		/* peek on an empty map: -ENOENT */
	QU_BENCH_NR,
};

enum qu_path {
	QU_PATH_KERNEL,		/* in-kernel op loop */
	QU_PATH_SYSCALL,	/* BPF_MAP_* commands from user space */
};

struct qu_args {
	int map_type;		/* enum qu_type */
	uint32_t max_entries;
	uint32_t nr_entries;	/* the level; the full and empty benches set it */
	uint32_t value_size;
	int path;		/* enum qu_path */
};

/* What a bench does, as data (queue_plan.c). */
struct qu_bench_info {
	enum qu_prog prog;
	bool fails;		/* every op fails the expected way (a full or empty map) */
	const char *op;		/* one op, in words */
};

struct queue_bpf;
struct bpf_program;

struct qu_state {
	enum qu_bench bench;
	const struct qu_args *args;
	uint32_t level;			/* entries the map holds at the start of a round */
	struct queue_bpf *skel;
	struct bpf_program *progs[QU_P_NR];	/* of the run's type; NULL: not loaded */
	int map_fd;
	uint64_t checked;		/* values the round trip checked */
	uint64_t resets;		/* rounds of the run: the map brought back to its level */
	struct mb_counters done;	/* the producer's ops, failures, errors at its end */
	uint64_t cpu_ns;		/* syscall path: the producer's CPU time in its ops */
	uint64_t last_cpu_ns;		/* ... at the sampler's last look */
};

/*
 * The family's files in layers, each using only those above it in this list (queue.c, the
 * options and descriptors, on top).
 */

/* queue_plan.c: what each bench does; the names of --map_type and --path. */
const struct qu_bench_info *qu_info(enum qu_bench b);
extern const char *const qu_type_names[];
extern const char *const qu_path_names[];

/* queue_sys.c: the map's count of entries, tail - head of the programs' state. */
uint64_t qu_level(const struct qu_state *st);
/*
 * From user space (queue_sys.c): push the next sequence number, pop or peek the value due
 * and compare it. 0, or the command's negative errno; -EBADMSG: a value not the one due.
 */
int qu_sys_push(struct qu_state *st, uint64_t flags);
int qu_sys_pop(struct qu_state *st);
int qu_sys_peek(struct qu_state *st);
/* Pop every entry, checking the order; *n: how many. 0, or a negative errno. */
int qu_sys_drain(struct qu_state *st, uint64_t *n);

/* queue_setup.c */
int qu_setup(struct mb_run *run, enum qu_bench b);
void qu_teardown(struct mb_run *run);
/* Push (pop) in the kernel, untimed, until the map holds @level entries. */
int qu_reset(struct qu_state *st, uint32_t level, int cpu);

/* queue_run.c */
int qu_producer(struct mb_run *run, struct mb_producer *p);
void qu_measure(struct mb_run *run, struct mb_sample *s);
void qu_finish(struct mb_run *run);

/* queue_text.c: the lines (the descriptors name it) */
extern const struct mb_text_style qu_text;

#endif
