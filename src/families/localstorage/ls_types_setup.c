// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The per-type benches' set-up: --nr_maps storage maps of the type, made from user space with
 * a minimal BTF (drivers/map_create), in the BPF object's outer array; the first of them is
 * the outer map's template, so libbpf makes no map of its own for it. Only the op's program
 * (of the loop kind) and the type's fill program are loaded.
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

/*
 * Storage maps of @type alive on the machine: they share the owners' 16 cache slots with
 * ours (a slot is given to each new map, round robin by least use), so they move the cliff
 * of the curve. -1 when the kernel does not let us walk the map ids.
 */
int ls_live_storage_maps(int type)
{
	__u32 id = 0;
	int n = 0;

	while (!bpf_map_get_next_id(id, &id)) {
		struct bpf_map_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_map_get_fd_by_id(id);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && (int)info.type == type)
			n++;
		close(fd);
	}
	return errno == ENOENT ? n : -1;
}

static int make_inner(struct mb_run *run, struct ls_types *st, const struct ls_types_args *a)
{
	struct mb_map_desc d = {
		.type = mb_storage_type_by_name(ls_storage_type((enum mb_owner_kind)a->storage)),
		.name = "mb_ls_types",
		.key_size = 4,
		.value_size = LS_VALUE_SIZE,
		.flags = BPF_F_NO_PREALLOC,
	};
	int err;

	st->other_maps = ls_live_storage_maps(d.type->type);
	err = mb_map_desc_add_btf(&d);
	if (err)
		return mb_run_fail(run, err, "cannot load the BTF of the %s maps: %s",
				   d.type->name, strerror(-err));
	st->inner_fd = malloc(sizeof(int) * a->nr_maps);
	if (!st->inner_fd)
		err = mb_run_fail(run, -ENOMEM, "out of memory");
	for (uint32_t i = 0; !err && i < a->nr_maps; i++) {
		int fd = mb_run_map_create(run, &d, NULL);

		if (fd < 0)
			err = fd;
		else
			st->inner_fd[st->nr_inner++] = fd;
	}
	mb_map_desc_put_btf(&d);
	return err;
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
	mb_loop_prepare(skel->skeleton, run->loop.kind);
	pick_programs(st, s);
	skel->rodata->mb_ls_nr_maps = a->nr_maps;
	bpf_map__set_max_entries(skel->maps.mb_ls_outer, a->nr_maps);
	err = bpf_map__set_inner_map_fd(skel->maps.mb_ls_outer, st->inner_fd[0]);
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

static int fill_outer(struct mb_run *run, struct ls_types *st)
{
	int outer = bpf_map__fd(st->skel->maps.mb_ls_outer);

	for (uint32_t i = 0; i < st->nr_inner; i++)
		if (bpf_map_update_elem(outer, &i, &st->inner_fd[i], BPF_ANY))
			return mb_run_fail(run, -errno, "cannot put storage map %u into the outer array: %s",
					   i, strerror(errno));
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
		err = fill_outer(run, st);
	if (!err)
		err = open_owner(run, st, a);
	run->runner = "kernel-loop";
	return err;
}

void ls_types_teardown(struct mb_run *run)
{
	struct ls_types *st = run->priv;
	__u32 *ids;
	int left;

	if (!st)
		return;
	ids = calloc(st->nr_inner + 1, sizeof(*ids));
	for (uint32_t i = 0; ids && i < st->nr_inner; i++)
		ids[i] = mb_map_id(st->inner_fd[i]);
	ls_get_bpf__destroy(st->skel);
	for (uint32_t i = 0; i < st->nr_inner; i++)
		close(st->inner_fd[i]);
	left = ids ? mb_map_ids_wait_gone(ids, st->nr_inner, LS_FREE_WAIT_NS) : 0;
	if (left)
		mb_run_warn(run, "%d of the run's %u storage maps were still being freed %.0f s after it: a run right after this one may find their cache slots taken",
			    left, st->nr_inner, LS_FREE_WAIT_NS / 1e9);
	free(ids);
	if (st->cgrp_fd >= 0)
		close(st->cgrp_fd);
	free(st->inner_fd);
	free(st->rt);
	free(st);
	run->priv = NULL;
}
