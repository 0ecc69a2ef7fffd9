// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-get and local-storage-create-delete: a task's or a cgroup's local storage,
 * timed in the kernel by the call-free op loop over --nr_maps storage maps (the owner's cache
 * holds 16 of them). One op of get is one get that must hit (each producer's first pass made
 * the storages); one op of create-delete is a get with F_CREATE and a delete on the same owner
 * and map: deleting the owner's last storage frees its bpf_local_storage too, so each op
 * creates and frees both. Socket and inode storage are listed and skipped with the reason.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/bench.h"
#include "drivers/kloop.h"
#include "sys/lsm.h"
#include "util/json.h"
#include "ls_get.skel.h"
#include "ls_storage.h"
#include "ls_types.h"
#include "ls_types_shared.h"
#include "drivers/slots.h"

static const struct mb_opt ls_types_opts[] = {
	MB_OPT_ENUM_DEF("storage", struct ls_types_args, storage, "task", ls_storage_names,
			"Whose storage: task (the producer thread's), cgrp (its cgroup v2's); sk and inode are skipped with the reason"),
	MB_OPT_U32_DEF("nr_maps", struct ls_types_args, nr_maps, "1", 1, LS_MAX_MAPS, "N",
		       "Storage maps per owner, taken in turn by the ops (the owner's cache holds 16)"),
	MB_OPT_END,
};

static int cd_validate(struct mb_run *run)
{
	const struct ls_types_args *a = run->args;

	if (a->storage == MB_OWNER_CGRP && run->nr_producers > 1)
		return mb_run_usage(run, "-p %d: must be 1 with --storage cgrp (the producers would create and delete one cgroup's storages)",
				    run->nr_producers);
	return 0;
}

/* The types this loop cannot reach: one sentence each. */
static int skip_type(struct mb_run *run, enum mb_owner_kind s)
{
	char lsm[512];

	if (s == MB_OWNER_SOCK)
		return mb_run_skip(run, "--storage sk: a socket's storage needs a socket in the program's context, which the raw_tp op loop has not: use local-storage-sk-get or local-storage-sk-create-delete (the same ops, run in tp_btf/sock_recv_length)");
	mb_explain_bpf_lsm(lsm, sizeof(lsm));
	return mb_run_skip(run, "--storage inode: the kernel gives bpf_inode_storage_get to LSM programs only, not to the raw_tp op loop; %s",
			   lsm);
}

static int types_setup(struct mb_run *run, enum ls_op op)
{
	const struct ls_types_args *a = run->args;

	if (a->storage == MB_OWNER_SOCK || a->storage == MB_OWNER_INODE)
		return skip_type(run, (enum mb_owner_kind)a->storage);
	return ls_types_setup(run, op);
}

static int get_setup(struct mb_run *run)
{
	return types_setup(run, LS_OP_GET);
}

static int cd_setup(struct mb_run *run)
{
	return types_setup(run, LS_OP_CREATE_DELETE);
}

static int ls_producer(struct mb_run *run, struct mb_producer *p)
{
	struct ls_types *st = run->priv;
	struct mb_kloop_cfg cfg = {
		.prog_fd = st->op_fd,
		.slots = st->skel->bss->mb_slots,
	};
	int err = ls_types_first_pass(run, p);

	return err ? err : mb_kloop_produce(run, p, &cfg);
}

/* The round trip as the result records it; false when a producer did not do its own. */
static bool round_trip_json(struct mb_run *run, const struct ls_types *st)
{
	const struct ls_types_args *a = run->args;
	struct mb_json *rt = mb_json_object();
	uint32_t checked = st->main_checked;
	char by[PATH_MAX + 64];
	bool all = true;

	for (int i = 0; i < run->nr_producers; i++) {
		checked += st->rt[i].checked;
		all = all && st->rt[i].done;
	}
	if (a->storage == MB_OWNER_CGRP)
		snprintf(by, sizeof(by), "an fd of the cgroup v2 folder %s", st->cgrp_path);
	else if (st->pidfd_thread)
		snprintf(by, sizeof(by), "a pidfd of the producer thread, %s", st->task_how);
	else
		snprintf(by, sizeof(by), "a pidfd of the main thread, %s", st->task_how);
	mb_json_set_str(rt, "written_by", "BPF: the fill program (raw_tp, test_run on the owner's thread), get with F_CREATE");
	mb_json_set_str(rt, "read_by", by);
	mb_json_set_num(rt, "values_checked", checked);
	mb_json_set_bool(rt, "equal", checked > 0 && (all || st->main_checked));
	mb_json_set(mb_run_extra(run), "round_trip", rt);
	return checked > 0 && (all || st->main_checked);
}

static void describe(struct mb_run *run, const struct ls_types *st)
{
	const struct ls_types_args *a = run->args;
	struct mb_json *x = mb_run_extra(run);
	char owner[PATH_MAX + 32];

	if (a->storage == MB_OWNER_CGRP)
		snprintf(owner, sizeof(owner), "its cgroup v2 %s", st->cgrp_path);
	else
		snprintf(owner, sizeof(owner), "current task");
	mb_json_set_str(x, "storage", ls_storage_type((enum mb_owner_kind)a->storage));
	mb_json_set_num(x, "nr_maps", a->nr_maps);
	mb_json_set_str(x, "owner", owner);
	mb_json_set_str(x, "op", st->op == LS_OP_GET ? "get (hit)" :
			"create+delete pair (get with F_CREATE, then delete)");
	if (st->other_maps >= 0)
		mb_json_set_num(x, "other_storage_maps", st->other_maps);
	mb_json_set_str(x, "program", "raw_tp, run by BPF_PROG_TEST_RUN; owner from bpf_get_current_task_btf() once per call");
}

/* Every op must have hit: a NULL get (or a failed delete) is an error, and fails the run. */
static void ls_finish(struct mb_run *run)
{
	struct ls_types *st = run->priv;
	struct mb_json *chk = mb_json_object();
	uint64_t ops, hits, errors;
	struct mb_slot sum;

	mb_slots_sum(st->skel->bss->mb_slots, run->nr_producers, &sum);
	ops = sum.ops;
	hits = sum.hits;
	errors = sum.errors;
	describe(run, st);
	mb_json_set_num(chk, "ops", (double)ops);
	mb_json_set_num(chk, "hits", (double)hits);
	mb_json_set_num(chk, "errors", (double)errors);
	mb_json_set(mb_run_extra(run), "ops_checked", chk);
	if (!round_trip_json(run, st))
		mb_run_fail(run, -EIO, "the round trip (BPF writes, user space reads) was not done");
	else if (errors || hits != ops || !ops)
		mb_run_fail(run, -EIO, "%llu ops, %llu hits, %llu errors read back from the program: every op must hit",
			    (unsigned long long)ops, (unsigned long long)hits,
			    (unsigned long long)errors);
}

const struct mb_bench mb_bench_ls_get = {
	.name = "local-storage-get",
	.family = "localstorage",
	.desc = "task or cgroup local storage: one get (hit) per op over --nr_maps maps, in-kernel loop",
	.opts = ls_types_opts,
	.args_size = sizeof(struct ls_types_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = ls_storage_types,
	.instrument = &mb_kloop_instrument,
	.text = &ls_types_text,
	.setup = get_setup,
	.producer = ls_producer,
	.finish = ls_finish,
	.teardown = ls_types_teardown,
};

const struct mb_bench mb_bench_ls_create_delete = {
	.name = "local-storage-create-delete",
	.family = "localstorage",
	.desc = "task or cgroup local storage: one create+delete pair per op (get with F_CREATE, delete), in-kernel loop",
	.opts = ls_types_opts,
	.args_size = sizeof(struct ls_types_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = ls_storage_types,
	.instrument = &mb_kloop_instrument,
	.text = &ls_types_text,
	.validate = cd_validate,
	.setup = cd_setup,
	.producer = ls_producer,
	.finish = ls_finish,
	.teardown = ls_types_teardown,
};
