/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The sockmap family: sockmap and sockhash maps holding real sockets, both ends of loopback
 * TCP pairs the bench makes (sys/tcp_pair.h). sockmap-update, -lookup and -delete time one
 * BPF_MAP_*_ELEM syscall an op from user space, on a map held at --nr_entries sockets;
 * the sockmap bench (sm_stream*.c) is the kernel bench's of that name.
 */
#ifndef MB_FAMILIES_SOCKMAP_H
#define MB_FAMILIES_SOCKMAP_H

#include <stdint.h>

#include "core/bench.h"
#include "sys/tcp_pair.h"

enum sm_op {
	SM_UPDATE,	/* a socket into a free key (BPF_NOEXIST), then deleted again, untimed */
	SM_LOOKUP,	/* a key of the level: the socket's cookie, compared with the one due */
	SM_DELETE,	/* a socket out of its key, put there untimed */
};

enum sm_type { SM_SOCKMAP, SM_SOCKHASH };	/* as sm_type_names */

struct sm_args {
	int map_type;		/* index into sm_type_names */
	uint32_t nr_entries;	/* the level: sockets the map holds outside the timed ops */
	uint32_t batch;		/* update, delete: the spare sockets a round moves in or out */
	int path;		/* lookup: SM_PATH_* */
};

enum sm_path { SM_PATH_SYSCALL, SM_PATH_KERNEL };	/* as sm_path_names */

#define SM_VERIFIED	0	/* counter[]: ops whose effect was read back */

extern const char *const sm_type_names[];
extern const char *const sm_path_names[];

struct sml_bpf;

struct sm_state {
	const struct sm_args *args;
	enum sm_op op;
	int map_fd;			/* -1: none */
	struct mb_tcp_pairs tp;
	uint32_t nr_socks;		/* level + spares: socket i is tp.fd[i], key i */
	uint64_t *cookie;		/* [nr_socks] */
	uint32_t cursor;		/* lookup: the next key */
	uint64_t rounds;		/* update, delete: rounds of --batch ops */
	uint64_t fill_ns;		/* set-up: the time the level's updates took */
	struct mb_counters done;	/* the producer's counts at its end */
	int err;			/* the producer's failure, for finish */
	struct sml_bpf *skel;		/* lookup --path kernel: the program */
};

/* sm_setup.c */
int sm_validate(struct mb_run *run, enum sm_op op);
int sm_setup(struct mb_run *run, enum sm_op op);
void sm_teardown(struct mb_run *run);

/* sm_run.c */
int sm_producer(struct mb_run *run, struct mb_producer *p);
void sm_finish(struct mb_run *run);

/* sm_kern.c: lookup --path kernel, from a tc program's own loop. */
int sm_kern_open(struct mb_run *run, struct sm_state *st);
void sm_kern_close(struct sm_state *st);
int sm_kern_produce(struct mb_run *run, struct mb_producer *p);

/* sm_ops.c: the syscalls, 0 or -errno; -EBADMSG: a lookup gave another socket's cookie. */
int sm_insert(const struct sm_state *st, uint32_t key);
int sm_remove(const struct sm_state *st, uint32_t key);
int sm_check(const struct sm_state *st, uint32_t key);
/* 0 when @key holds nothing, -EEXIST when it holds something, or -errno. */
int sm_check_absent(const struct sm_state *st, uint32_t key);

#endif
