// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-owners: the owner lifecycle with local storage attached. Each producer makes
 * and destroys owners (threads, UDP sockets, cgroup v2 directories, files) in turn with no
 * storage, with one and with --nr_maps storages attached by syscall updates between the two,
 * and times the making and the destroying: the difference from no storage is the storage's
 * share of an owner's life.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ls_owner.h"
#include "ls_storage.h"
#include "util/json.h"

static const struct mb_opt ls_owner_opts[] = {
	MB_OPT_ENUM_DEF("storage", struct ls_owner_args, storage, "task", ls_storage_names,
			"the storage type, and so the owner: task (a thread), sk (a UDP socket), cgrp (a cgroup v2 directory), inode (a file)"),
	MB_OPT_U32_DEF("nr_maps", struct ls_owner_args, nr_maps, "16", 2, 1000, "N",
		       "storage maps of the most loaded owners (the others: none and one)"),
	MB_OPT_END,
};

/* One owner made and destroyed before the run: where owners of the kind cannot be, a skip. */
static int sites_open(struct mb_run *run, struct ls_owner_state *st)
{
	enum mb_owner_kind kind = (enum mb_owner_kind)st->args->storage;
	struct mb_owner o;
	char why[512];
	int err;

	for (int i = 0; i < st->nr_producers; i++) {
		err = mb_owner_site_open(&st->prod[i].site, kind, why, sizeof(why));
		if (err && kind == MB_OWNER_CGRP)
			return mb_run_skip(run, "cgroup storage needs cgroup v2 directories for owners: %s",
					   why);
		if (err)
			return mb_run_fail(run, err, "cannot make the %s owners: %s",
					   mb_owner_kind_name(kind), why);
	}
	err = mb_owner_make(&st->prod[0].site, &o);
	if (err)
		return mb_run_fail(run, err, "cannot make a %s: %s", mb_owner_kind_name(kind),
				   strerror(-err));
	st->owner_how = o.how;
	mb_owner_destroy(&o);
	return 0;
}

static void add_extra(struct mb_run *run, const struct ls_owner_state *st)
{
	struct mb_json *x = mb_run_extra(run);

	mb_json_set_str(x, "storage", ls_storage_type((enum mb_owner_kind)st->args->storage));
	mb_json_set_str(x, "owner", mb_owner_kind_name((enum mb_owner_kind)st->args->storage));
	mb_json_set_str(x, "owner_fd", st->owner_how);
	mb_json_set_str(x, "attach", "bpf_map_update_elem syscall per map (BPF_NOEXIST), not timed");
	mb_json_set_str(x, "timed", "the owner's making and its destruction (fd closed, thread joined, directory or file removed)");
	mb_json_set_num(x, "nr_maps", st->nr_maps);
}

static int ls_owner_setup(struct mb_run *run)
{
	struct ls_owner_state *st = calloc(1, sizeof(*st));
	struct mb_map_desc d;
	int err;

	if (!st)
		return -ENOMEM;
	run->priv = st;
	run->runner = "syscall";
	st->args = run->args;
	st->nr_maps = st->args->nr_maps;
	st->nr_producers = run->nr_producers;
	st->prod = calloc((size_t)run->nr_producers, sizeof(*st->prod));
	if (!st->prod)
		return -ENOMEM;
	ls_inner_storage_desc(&d, (enum mb_owner_kind)st->args->storage, "mb_ls_sys", 4);
	err = ls_inner_make(run, &st->maps, &d, st->nr_maps,
			    &(struct ls_inner_opts){ .skip_missing = true });
	if (!err)
		err = sites_open(run, st);
	if (!err)
		add_extra(run, st);
	return err;
}

static void ls_owner_teardown(struct mb_run *run)
{
	struct ls_owner_state *st = run->priv;

	if (!st)
		return;
	for (int i = 0; st->prod && i < st->nr_producers; i++)
		mb_owner_site_close(&st->prod[i].site);
	ls_inner_close(&st->maps);
	free(st->prod);
	free(st);
	run->priv = NULL;
}

const struct mb_bench mb_bench_ls_owners = {
	.name = "local-storage-owners",
	.family = "localstorage",
	.desc = "owners (threads, sockets, cgroup dirs, files) made and destroyed with 0, 1 and --nr_maps storages attached: ns per owner",
	.opts = ls_owner_opts,
	.args_size = sizeof(struct ls_owner_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = ls_storage_types,
	.text = &ls_owner_text,
	.metrics = ls_owner_metrics,
	.headline = { .clock = MB_HEADLINE_WALL_RATE },
	.setup = ls_owner_setup,
	.producer = ls_owner_producer,
	.measure = ls_owner_measure,
	.finish = ls_owner_finish,
	.teardown = ls_owner_teardown,
};
