// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-in-map-replace: the time of each BPF_MAP_UPDATE_ELEM that replaces an inner map of an
 * array_of_maps or hash_of_maps, as a distribution over many replacements, beside inserts into
 * empty slots, deletes, a plain array update of an fd-sized value, and replacements while a
 * program reads the outer map. Each update is checked (the slot reads back the new inner
 * map's id) before a figure is reported. Users measured 15.5 ms per update while the kernel
 * waited with synchronize_rcu() and 88 us once it waited with synchronize_rcu_expedited()
 * (commit ff34657aa72a, 6.19); the bench counts which wait this kernel makes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "core/bench.h"
#include "core/env.h"
#include "core/run.h"
#include "drivers/map_create.h"
#include "maps/maps.h"
#include "mim.h"
#include "util/cpuset.h"
#include "util/sysfile.h"

#define MIM_MAX_SLOTS		65536
#define MIM_MAX_INNER		1048576
#define MIM_MAX_UPDATES		1000000
#define MIM_MAX_READER_US	100000

extern const struct mb_text_style mim_text;	/* mim_text.c */

static const struct mb_opt mim_opts[] = {
	MB_OPT_ENUM_DEF("map_type", struct mim_args, map_type, "array_of_maps", mim_outer_names,
			"The outer map"),
	MB_OPT_ENUM_DEF("inner_type", struct mim_args, inner_type, "array", mim_inner_names,
			"The inner maps (4-byte keys, 8-byte values)"),
	MB_OPT_U32_DEF("max_entries", struct mim_args, max_entries, "64", 1, MIM_MAX_SLOTS, "N",
		       "Slots of the outer map; the updates go round them"),
	MB_OPT_U32_DEF("inner_entries", struct mim_args, inner_entries, "1", 1, MIM_MAX_INNER, "N",
		       "Entries of each inner map (created empty, outside the timed update)"),
	MB_OPT_U32_DEF("nr_updates", struct mim_args, nr_updates, "1000", 1, MIM_MAX_UPDATES, "N",
		       "Timed calls per case (control, grace-period, replace, insert, delete, replace-reader)"),
	MB_OPT_U32_DEF("reader_us", struct mim_args, reader_us, "200", 0, MIM_MAX_READER_US, "US",
		       "replace-reader: how long each run of the reading program holds the RCU read lock (0: no such case)"),
	MB_OPT_U32_DEF("max_case_ms", struct mim_args, max_case_ms, "2000", 1, 600000, "MS",
		       "A case stops after this long, with the updates it made (a grace period of milliseconds makes 1000 updates long)"),
	MB_OPT_END,
};

/*
 * The updater's CPU: the first of --prod-affinity, else the first online CPU. The reader's:
 * the first other online CPU (-1: none).
 */
static void pick_cpus(const struct mb_run *run, struct mim_state *st)
{
	const struct mb_env *env = run->env;
	const struct mb_cpuset *prod = env->prod_cpus.count ? &env->prod_cpus : &env->online;
	int cpu = -1;

	st->cpu_updater = mb_cpuset_next(prod, 0);
	do
		cpu = mb_cpuset_next(&env->online, cpu + 1);
	while (cpu >= 0 && cpu == st->cpu_updater);
	st->cpu_reader = cpu;
}

static int read_knob(const char *path)
{
	char buf[32];

	if (!mb_read_first_line(path, buf, sizeof(buf)) || !buf[0])
		return -1;
	return atoi(buf);
}

static int create_outer(struct mb_run *run, struct mim_state *st)
{
	const struct mim_args *a = run->args;
	struct mb_map_desc d = {
		.type = mb_map_type_by_name(mim_outer_names[a->map_type]), .name = "mb_mim_outer",
		.key_size = 4, .value_size = 4, .max_entries = a->max_entries,
	};
	struct mb_map_desc c = {
		.type = mb_map_type_by_name("array"), .name = "mb_mim_control", .key_size = 4,
		.value_size = 4, .max_entries = a->max_entries,
	};
	int tmpl = mim_inner_create(st, a);

	if (tmpl < 0)
		return mb_run_fail(run, tmpl, "cannot create the %s inner map template: %s",
				   mim_inner_names[a->inner_type], strerror(-tmpl));
	d.inner_fd = tmpl;
	st->outer_fd = mb_run_map_create(run, &d, NULL);
	close(tmpl);	/* the outer map keeps what it needs of it */
	if (st->outer_fd < 0)
		return st->outer_fd;
	st->control_fd = mb_run_map_create(run, &c, NULL);
	return st->control_fd < 0 ? st->control_fd : 0;
}

static int mim_setup(struct mb_run *run)
{
	const struct mim_args *a = run->args;
	struct mim_state *st = calloc(1, sizeof(*st));
	int err;

	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	run->runner = "syscall";
	st->outer_fd = st->control_fd = -1;
	st->outer_type = mb_map_type_by_name(mim_outer_names[a->map_type])->type;
	st->inner_type = mb_map_type_by_name(mim_inner_names[a->inner_type])->type;
	st->rcu_expedited = read_knob("/sys/kernel/rcu_expedited");
	st->rcu_normal = read_knob("/sys/kernel/rcu_normal");
	st->slot_id = calloc(a->max_entries, sizeof(*st->slot_id));
	for (int c = 0; c < MIM_NR_CASES; c++)
		st->res[c].ns = calloc(a->nr_updates, sizeof(double));
	for (int c = 0; c < MIM_NR_CASES; c++)
		if (!st->res[c].ns || !st->slot_id)
			return mb_run_fail(run, -ENOMEM, "out of memory for %u updates",
					   a->nr_updates);
	err = create_outer(run, st);
	if (err)
		return err;
	err = mim_fill(run);
	if (err)
		return err;
	pick_cpus(run, st);
	mim_gp_open(st);
	if (!a->reader_us)
		snprintf(st->reader_why, sizeof(st->reader_why), "--reader_us 0");
	else if (st->cpu_reader < 0)
		snprintf(st->reader_why, sizeof(st->reader_why),
			 "one online CPU: the reader needs a CPU of its own");
	else
		return mim_reader_open(run, st, a->reader_us);
	return 0;
}

static int mim_run_once(struct mb_run *run)
{
	struct mim_state *st = run->priv;
	int err = 0;

	mim_gp_target_self(st);
	for (int c = 0; c < MIM_NR_CASES && !err && !mb_interrupted(); c++) {
		if (c == MIM_INSERT || (c == MIM_READER && !st->reader))
			continue;	/* insert runs with delete; no reader: no such case */
		err = mim_case_run(run, c);
	}
	if (err)
		return err;
	err = mim_report(run);
	if (!err)
		mb_run_partial(run, NULL);	/* the text's lines, now that they are checked */
	return err;
}

static void mim_teardown(struct mb_run *run)
{
	struct mim_state *st = run->priv;

	if (!st)
		return;
	mim_reader_close(st->reader);
	mim_gp_close(st);
	if (st->outer_fd >= 0)
		close(st->outer_fd);
	if (st->control_fd >= 0)
		close(st->control_fd);
	for (int c = 0; c < MIM_NR_CASES; c++)
		free(st->res[c].ns);
	free(st->slot_id);
	free(st);
	run->priv = NULL;
}

const struct mb_bench mb_bench_map_in_map_replace = {
	.name = "map-in-map-replace",
	.family = "mapinmap",
	.desc = "time of each update that replaces an inner map of an array_of_maps or hash_of_maps (distribution), beside insert, delete and a plain array update; which RCU grace-period wait it makes",
	.opts = mim_opts,
	.args_size = sizeof(struct mim_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,
	.map_types = mim_outer_names,
	.text = &mim_text,
	.setup = mim_setup,
	.run_once = mim_run_once,
	.teardown = mim_teardown,
};
