/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The per-storage-type benches (local-storage-get, local-storage-create-delete): one op loop
 * per owner type over --nr_maps storage maps. ls_get.c holds the benches, ls_types_setup.c
 * the maps and programs, ls_types_owner.c the owners' fds and the round trip, ls_types_text.c
 * their lines.
 */
#ifndef MB_LS_TYPES_H
#define MB_LS_TYPES_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "ls_inner.h"

struct mb_run;
struct mb_producer;
struct mb_text_style;

enum ls_op {
	LS_OP_GET,		/* a get (hit) */
	LS_OP_CREATE_DELETE,	/* a get with F_CREATE and a delete: a create+delete pair */
};

struct ls_types_args {
	int storage;		/* enum mb_owner_kind (ls_storage.h) */
	uint32_t nr_maps;
};

/* What the first pass and its round trip did, per producer (written by it alone). */
struct ls_round_trip {
	uint32_t checked;	/* values read back and equal to what BPF wrote */
	bool done;
};

struct ls_types {
	struct ls_get_bpf *skel;
	enum ls_op op;
	struct ls_inner inner;		/* the storage maps (ls_inner.h) */
	int other_maps;			/* storage maps of the type alive before ours; -1: unknown */
	int op_fd, fill_fd;
	int cgrp_fd;			/* the process's cgroup v2 folder (cgrp), else -1 */
	char cgrp_path[PATH_MAX];
	bool pidfd_thread;		/* the kernel takes PIDFD_THREAD */
	char task_how[160];		/* how a task's pidfd is opened (drivers/owners) */
	uint32_t main_checked;		/* without it: values read back on the main thread */
	struct ls_round_trip *rt;	/* [nr_producers] */
};

int ls_types_setup(struct mb_run *run, enum ls_op op);
void ls_types_teardown(struct mb_run *run);

/*
 * On producer @p's thread, before timing: make the storages of its owner in every map (the
 * fill program), read them back through the owner's fd and, for create+delete, delete them
 * from user space. 0, or a negative error reported on @run.
 */
int ls_types_first_pass(struct mb_run *run, struct mb_producer *p);
/*
 * In set-up, on the main thread: how a task's pidfd is opened here (st->task_how). Where the
 * kernel refuses PIDFD_THREAD, a producer thread's storage cannot be read from user space:
 * then the main thread's storages are made and read back through its pidfd instead.
 * 0 or a negative error reported on @run.
 */
int ls_types_task_owner(struct mb_run *run);

extern const struct mb_text_style ls_types_text;

#endif
