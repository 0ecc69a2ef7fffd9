// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-syscall: local storage from user space, one bpf_map_{lookup,update,delete}_elem
 * syscall per op, keyed by an fd of the owner (task: a pidfd of the producer's own thread; sk:
 * a UDP socket; cgrp: a fresh cgroup v2 directory; inode: a file in a temporary directory). The
 * map is made from user space with a minimal BTF; each producer has its own owner; before any
 * timing each producer writes a value and reads it back through a second fd of its owner (and,
 * for task storage, from BPF), so the fd is known to name it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ls_sys.h"
#include "ls_storage.h"
#include "core/run.h"
#include "ls_sys.skel.h"

static const struct mb_opt ls_sys_opts[] = {
	MB_OPT_ENUM_DEF("storage", struct ls_sys_args, storage, "task", ls_storage_names,
			"the storage type, and so the owner: task (a pidfd of the producer's thread), sk (a UDP socket), cgrp (a fresh cgroup v2 directory), inode (a file)"),
	MB_OPT_ENUM_DEF("op", struct ls_sys_args, op, "lookup", ls_sys_op_names,
			"one op: a lookup or an update of the owner's value, or a delete of it (put back by an update that is not timed)"),
	MB_OPT_U32_DEF("value_size", struct ls_sys_args, value_size, "4", 4, LS_SYS_MAX_VALUE, "BYTES",
		       "the value's size"),
	MB_OPT_END,
};

/* Task storage: the syscall program that reads the current task's value (the BPF leg). */
static void load_bpf(struct mb_run *run, struct ls_sys_state *st)
{
	struct ls_sys_bpf *skel = ls_sys_bpf__open();
	int err = skel ? 0 : -errno;

	if (!err)
		err = bpf_map__reuse_fd(skel->maps.mb_ls_sys_task, st->map.fd[0]);
	if (!err)
		err = ls_sys_bpf__load(skel);
	if (err) {
		mb_run_warn(run, "the round trip is read back by user space only: the syscall program that reads task storage did not load (%s)",
			    strerror(-err));
		ls_sys_bpf__destroy(skel);
		return;
	}
	st->skel = skel;
	st->bpf_prog_fd = bpf_program__fd(skel->progs.mb_ls_sys_task_read);
}

/* One clock read, the median of many: each timed delete holds one. */
static double clock_read_ns(void)
{
	uint64_t best = UINT64_MAX;

	for (int r = 0; r < 16; r++) {
		uint64_t t0 = mb_now_ns(), t1;

		for (int i = 0; i < 64; i++)
			t1 = mb_now_ns();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	return (double)best / 64;
}

/*
 * Task owners are the producers themselves, each opening its pidfd: asked here once, so a
 * kernel without pidfds skips, and one without PIDFD_THREAD is said.
 */
static int probe_pidfd(struct mb_run *run)
{
	struct mb_owner o;
	int err = mb_owner_self(&o);

	if (err)
		return mb_run_skip(run, "task storage is keyed from user space by a pidfd, which this kernel does not open: %s",
				   strerror(-err));
	if (!o.pidfd_thread)
		mb_run_warn(run, "this kernel refuses pidfds of threads (PIDFD_THREAD, Linux 6.9+): each producer keys the process's pidfd, so all of them reach the main thread's storage");
	mb_owner_destroy(&o);
	return 0;
}

/* Owners other than tasks: made here, one per producer (a task owner is its producer). */
static int make_owners(struct mb_run *run, struct ls_sys_state *st)
{
	enum mb_owner_kind kind = (enum mb_owner_kind)st->args->storage;
	char why[512];
	int err = kind == MB_OWNER_TASK ? probe_pidfd(run) : 0;

	if (err)
		return err;
	err = mb_owner_site_open(&st->site, kind, why, sizeof(why));

	if (err && kind == MB_OWNER_CGRP)
		return mb_run_skip(run, "cgroup storage needs a cgroup v2 directory to key it by: %s",
				   why);
	if (err)
		return mb_run_fail(run, err, "cannot make the %s owners: %s",
				   mb_owner_kind_name(kind), why);
	for (int i = 0; kind != MB_OWNER_TASK && i < st->nr_producers; i++) {
		err = mb_owner_make(&st->site, &st->prod[i].owner);
		if (err)
			return mb_run_fail(run, err, "cannot make producer %d's %s: %s", i,
					   mb_owner_kind_name(kind), strerror(-err));
	}
	return 0;
}

static int ls_sys_setup(struct mb_run *run)
{
	struct ls_sys_state *st = calloc(1, sizeof(*st));
	struct mb_map_desc d;
	int err;

	if (!st)
		return -ENOMEM;
	run->priv = st;
	run->runner = "syscall";
	st->args = run->args;
	st->bpf_prog_fd = -1;
	st->nr_producers = run->nr_producers;
	st->prod = calloc((size_t)run->nr_producers, sizeof(*st->prod));
	if (!st->prod)
		return -ENOMEM;
	for (int i = 0; i < run->nr_producers; i++)
		st->prod[i].owner.fd = -1;
	ls_inner_storage_desc(&d, (enum mb_owner_kind)st->args->storage, "mb_ls_sys",
			      st->args->value_size);
	err = ls_inner_make(run, &st->map, &d, 1, &(struct ls_inner_opts){ .skip_missing = true });
	if (!err)
		err = make_owners(run, st);
	if (err)
		return err;
	if (st->args->storage == MB_OWNER_TASK)
		load_bpf(run, st);
	if (st->args->op == LS_SYS_DELETE)
		st->clock_read_ns = clock_read_ns();
	return 0;
}

static void ls_sys_teardown(struct mb_run *run)
{
	struct ls_sys_state *st = run->priv;

	if (!st)
		return;
	for (int i = 0; st->prod && i < st->nr_producers; i++)
		mb_owner_destroy(&st->prod[i].owner);
	mb_owner_site_close(&st->site);
	ls_sys_bpf__destroy(st->skel);
	ls_inner_close(&st->map);
	free(st->prod);
	free(st);
	run->priv = NULL;
}

const struct mb_bench mb_bench_ls_syscall = {
	.name = "local-storage-syscall",
	.family = "localstorage",
	.desc = "local storage from user space: one lookup, update or delete syscall keyed by an owner's fd (pidfd, socket, cgroup dir, file)",
	.opts = ls_sys_opts,
	.args_size = sizeof(struct ls_sys_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = ls_storage_types,
	.text = &ls_sys_text,
	.headline = { .clock = MB_HEADLINE_WALL_RATE },
	.setup = ls_sys_setup,
	.producer = ls_sys_producer,
	.measure = ls_sys_measure,
	.finish = ls_sys_finish,
	.teardown = ls_sys_teardown,
};
