// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The per-type benches' set-up: --nr_maps storage maps of the type (ls_inner.h) in the BPF
 * object's outer array. Only the op's program (of the loop kind) and the type's fill program
 * are loaded.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/bench.h"
#include "core/run.h"
#include "drivers/kloop.h"
#include "drivers/map_create.h"
#include "sys/cgroup2.h"
#include "sys/probe.h"
#include "ls_get.skel.h"
#include "ls_storage.h"
#include "ls_types.h"
#include "ls_types_shared.h"

#define LS_VALUE_SIZE	8	/* a __u64: what the fill program writes and user space reads */

static int make_inner(struct mb_run *run, struct ls_types *st, const struct ls_types_args *a)
{
	struct mb_map_desc d;

	ls_inner_storage_desc(&d, (enum mb_owner_kind)a->storage, "mb_ls_types", LS_VALUE_SIZE);
	st->other_maps = ls_live_storage_maps(d.type->type);
	return ls_inner_make(run, &st->inner, &d, a->nr_maps, NULL);
}

/* The op's program for owner type @s (after mb_loop_prepare: of the loop's kind). */
static struct bpf_program *op_prog(const struct ls_types *st, enum mb_owner_kind s)
{
	const struct ls_get_bpf *skel = st->skel;

	if (st->op == LS_OP_GET)
		return s == MB_OWNER_TASK ? skel->progs.mb_ls_task_get : skel->progs.mb_ls_cgrp_get;
	return s == MB_OWNER_TASK ? skel->progs.mb_ls_task_cd : skel->progs.mb_ls_cgrp_cd;
}

static struct bpf_program *fill_prog(const struct ls_types *st, enum mb_owner_kind s)
{
	return s == MB_OWNER_TASK ? st->skel->progs.mb_ls_task_fill : st->skel->progs.mb_ls_cgrp_fill;
}

/* The programs of the run's type and op: every other one stays unloaded. */
static void pick_programs(struct ls_types *st, enum mb_owner_kind s)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, st->skel->obj)
		bpf_program__set_autoload(prog, prog == op_prog(st, s) || prog == fill_prog(st, s));
}

static int load(struct mb_run *run, struct ls_types *st, const struct ls_types_args *a)
{
	struct ls_get_bpf *skel = ls_get_bpf__open();
	enum mb_owner_kind s = (enum mb_owner_kind)a->storage;
	char why[1024];
	int err;

	if (!skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	st->skel = skel;
	/* Keeps the loop kind's program of each op, and points the skeleton at it. */
	mb_loop_prepare(skel->skeleton, &run->loop);
	pick_programs(st, s);
	skel->rodata->mb_ls_nr_maps = a->nr_maps;
	bpf_map__set_max_entries(skel->maps.mb_ls_outer, a->nr_maps);
	err = ls_inner_template(&st->inner, skel->maps.mb_ls_outer);
	if (!err)
		err = ls_get_bpf__load(skel);
	if (err) {
		mb_explain_load_error(err, "cannot load the BPF programs", why, sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	st->op_fd = bpf_program__fd(op_prog(st, s));
	st->fill_fd = bpf_program__fd(fill_prog(st, s));
	return 0;
}

/* The owner user space reads: the cgroup's folder, or whether a thread's pidfd is there. */
static int open_owner(struct mb_run *run, struct ls_types *st, const struct ls_types_args *a)
{
	char why[PATH_MAX + 128];
	int err;

	if (a->storage != MB_OWNER_CGRP)
		return ls_types_task_owner(run);
	err = mb_cgroup2_self(st->cgrp_path, sizeof(st->cgrp_path), why, sizeof(why));
	if (err)
		return mb_run_skip(run, "--storage cgrp: user space cannot reach this process's cgroup: %s",
				   why);
	st->cgrp_fd = open(st->cgrp_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (st->cgrp_fd < 0)
		return mb_run_fail(run, -errno, "cannot open the cgroup v2 folder %s: %s",
				   st->cgrp_path, strerror(errno));
	return 0;
}

int ls_types_setup(struct mb_run *run, enum ls_op op)
{
	const struct ls_types_args *a = run->args;
	struct ls_types *st = calloc(1, sizeof(*st));
	int err;

	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	st->op = op;
	st->cgrp_fd = -1;
	st->rt = calloc((size_t)run->nr_producers, sizeof(*st->rt));
	if (!st->rt)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	err = make_inner(run, st, a);
	if (!err)
		err = load(run, st, a);
	if (!err)
		err = ls_inner_insert(run, &st->inner, bpf_map__fd(st->skel->maps.mb_ls_outer),
				      "storage");
	if (!err)
		err = open_owner(run, st, a);
	run->runner = "kernel-loop";
	return err;
}

void ls_types_teardown(struct mb_run *run)
{
	struct ls_types *st = run->priv;

	if (!st)
		return;
	ls_get_bpf__destroy(st->skel);
	ls_inner_release(run, &st->inner, "storage");
	if (st->cgrp_fd >= 0)
		close(st->cgrp_fd);
	free(st->rt);
	free(st);
	run->priv = NULL;
}
