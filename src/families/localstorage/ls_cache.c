// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The kernel's local storage cache benches (bench_local_storage.c), their names, options and
 * Summary line kept: local-storage-cache-seq-get and -int-get get the producer's task storage
 * in --nr_maps task storage maps in turn, 10000 gets per getpgid() call (ls_cache.bpf.c); the
 * hashmap control looks random keys up in --nr_maps full hash maps of 4M entries instead. The
 * kernel fires its program from fentry on getpgid, which not every kernel allows: here the
 * trigger runner's attach point (src/drivers/trigger.h) fires it, and the result says which.
 *
 * The inner maps are made from user space with BTF (local storage needs it) and put into the
 * program's array of maps; the first is the template the program is verified against, so no
 * template map is made (a 4M-entry hash template would cost 335 MB for nothing).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/bench.h"
#include "core/runner.h"
#include "drivers/map_create.h"
#include "drivers/map_fill.h"
#include "drivers/map_report.h"
#include "drivers/trigger.h"
#include "ls_cache.h"
#include "ls_cache.skel.h"
#include "ls_inner.h"
#include "ls_shared.h"
#include "maps/maps.h"
#include "sys/meminfo.h"
#include "sys/probe.h"
#include "util/json.h"
#include "util/log.h"

#define LS_KEY_VALUE_SIZE	4	/* int key, int value: the kernel's */

struct ls_cache_args {
	uint32_t nr_maps;
	uint32_t nr_keys;
};

static const struct mb_opt ls_get_opts[] = {
	MB_OPT_U32_DEF("nr_maps", struct ls_cache_args, nr_maps, "1000", 1, LS_MAX_MAPS, "N",
		       "task storage maps the gets go through in turn (a task caches 16)"),
	MB_OPT_END,
};

static const struct mb_opt ls_control_opts[] = {
	MB_OPT_U32_DEF("nr_maps", struct ls_cache_args, nr_maps, "1", 1, LS_MAX_MAPS, "N",
		       "hash maps of 4194304 entries, each full (the kernel's default, 1000, needs 335 GB: mapbench's is 1, as the kernel's run script)"),
	MB_OPT_U32_DEF("hashmap_nr_keys_used", struct ls_cache_args, nr_keys, "1000", 1,
		       LS_HASH_ENTRIES, "N", "keys the random lookups are drawn from"),
	MB_OPT_END,
};

static const struct mb_counter_desc ls_cache_counters[] = {
	[LS_COUNTER_IMPORTANT] = { "important_hits", "gets",
				   "gets on map 0 (the kernel's important_hits)" },
	{ NULL, NULL, NULL },
};

struct ls_cache_state {
	struct ls_cache_bpf *skel;
	struct mb_trigger trig;
	struct ls_inner inner;	/* fds until they sit in ls_maps; ids to see them freed */
	uint64_t create_ns;
	uint64_t fill_ns;
};

static enum ls_cache_op op_of(const struct mb_run *run)
{
	if (run->bench == &mb_bench_ls_cache_int_get)
		return LS_OP_INT;
	return run->bench == &mb_bench_ls_cache_hashmap_control ? LS_OP_HASH : LS_OP_SEQ;
}

static int ls_cache_validate(struct mb_run *run)
{
	const struct ls_cache_args *args = run->args;
	uint64_t each = mb_htab_prealloc_bytes(LS_HASH_ENTRIES, LS_KEY_VALUE_SIZE,
					       LS_KEY_VALUE_SIZE);
	uint64_t avail;

	if (run->nr_producers != 1)
		return mb_run_usage(run, "-p/--producers %d: benchmark doesn't support multi-producer! (must be 1, as the kernel's)",
				    run->nr_producers);
	if (op_of(run) != LS_OP_HASH || mb_mem_available(&avail))
		return 0;
	if (each * args->nr_maps > avail)
		return mb_run_usage(run, "--nr_maps %u: %u hash maps of %u entries need %.1f GB (%.1f MB each); this machine has %.1f GB available: at most %llu",
				    args->nr_maps, args->nr_maps, LS_HASH_ENTRIES,
				    (double)each * args->nr_maps / 1e9, (double)each / 1e6,
				    (double)avail / 1e9, (unsigned long long)(avail / each));
	return 0;
}

/* The trigger runner's loader: the program of this bench at attach point @t->attach. */
static int ls_cache_load(struct mb_run *run, struct mb_trigger *t, void *ctx)
{
	static const char *const seq[] = { "ls_seq", NULL }, *const inter[] = { "ls_int", NULL },
			  *const hash[] = { "ls_hash", NULL };
	const struct ls_cache_args *args = run->args;
	enum ls_cache_op op = op_of(run);
	struct ls_cache_state *st = ctx;
	struct ls_cache_bpf *skel = ls_cache_bpf__open();
	int err;

	if (!skel)
		return -errno;
	skel->rodata->ls_nr_maps = args->nr_maps;
	skel->rodata->ls_nr_keys = op == LS_OP_HASH ? args->nr_keys : 1;
	err = bpf_map__set_max_entries(skel->maps.ls_maps, args->nr_maps);
	if (!err)
		err = ls_inner_template(&st->inner, skel->maps.ls_maps);
	if (!err)
		err = mb_trigger_prepare(skel->obj, t->attach,
					 op == LS_OP_SEQ ? seq : op == LS_OP_INT ? inter : hash);
	if (!err)
		err = ls_cache_bpf__load(skel);
	if (!err)
		err = ls_cache_bpf__attach(skel);
	if (err) {
		ls_cache_bpf__destroy(skel);
		return err;
	}
	st->skel = skel;
	t->slots = skel->bss->mb_slots;
	return 0;
}

/* Fill inner map @fd with keys 0..4194303, all of them, as the kernel's control does (its values
 * are the keys, ours zero: in the kernel, where the fill is fast; a lookup reads no value). */
static int fill_control(struct mb_run *run, int fd)
{
	struct mb_entries e = { .type = mb_map_type_by_name("hash"),
				.key_size = LS_KEY_VALUE_SIZE, .value_size = LS_KEY_VALUE_SIZE,
				.key = MB_KEY_INDEX, .value = MB_VALUE_ZERO };
	struct mb_fill f = { .fd = fd, .e = &e, .count = LS_HASH_ENTRIES,
			     .method = MB_FILL_KERNEL, .cpus = &run->env->online };
	struct mb_fill_result r;
	int err = mb_map_fill(&f, &r);

	if (err)
		return mb_run_fail(run, err, "cannot fill the hash map: %s", strerror(-err));
	if (r.failed)
		return mb_run_fail(run, -ENOSPC, "the hash map refused %llu of its %u keys",
				   (unsigned long long)r.failed, LS_HASH_ENTRIES);
	return 0;
}

/* The inner maps: task storage (with BTF), or full 4M-entry hash maps for the control. */
static int make_inner(struct mb_run *run, struct ls_cache_state *st)
{
	static const struct ls_inner_opts fill = { .each = fill_control };
	const struct ls_cache_args *args = run->args;
	bool hash = op_of(run) == LS_OP_HASH;
	struct mb_map_desc d = {
		.type = mb_map_type_by_name("hash"), .name = "mb_ls_hash",
		.key_size = LS_KEY_VALUE_SIZE, .value_size = LS_KEY_VALUE_SIZE,
		.max_entries = LS_HASH_ENTRIES,
	};
	int err;

	if (!hash)
		ls_inner_storage_desc(&d, MB_OWNER_TASK, "mb_ls_task", LS_KEY_VALUE_SIZE);
	err = ls_inner_make(run, &st->inner, &d, args->nr_maps, hash ? &fill : NULL);
	if (hash)
		st->fill_ns = st->inner.make_ns;
	else
		st->create_ns = st->inner.make_ns;
	return err;
}

/* Put the inner maps into ls_maps, which then holds them: their fds are closed. */
static int insert_inner(struct mb_run *run, struct ls_cache_state *st)
{
	int err = ls_inner_insert(run, &st->inner, bpf_map__fd(st->skel->maps.ls_maps), "inner");

	if (!err)
		ls_inner_close_fds(&st->inner);
	return err;
}

static int ls_cache_setup(struct mb_run *run)
{
	struct ls_cache_state *st = calloc(1, sizeof(*st));
	char why[512];
	int err;

	if (!st)
		return -ENOMEM;
	run->priv = st;
	err = make_inner(run, st);
	if (err)
		return err;
	err = mb_trigger_load(run, &st->trig, ls_cache_load, st);
	if (err == -EPERM) {
		mb_explain_eperm(why, sizeof(why));
		return mb_run_skip(run, "%s", why);
	}
	if (err) {
		mb_explain_load_error(err, "loading the local storage getpgid programs", why,
				      sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	return insert_inner(run, st);
}

static int ls_cache_producer(struct mb_run *run, struct mb_producer *p)
{
	struct ls_cache_state *st = run->priv;

	return mb_trigger_produce(run, p, &st->trig, op_of(run));
}

static void ls_cache_finish(struct mb_run *run)
{
	const struct ls_cache_args *args = run->args;
	struct ls_cache_state *st = run->priv;
	struct mb_json *extra = mb_run_extra(run);
	bool hash = op_of(run) == LS_OP_HASH;

	mb_json_set_str(extra, "inner_map_type", hash ? "hash" : "task_storage");
	mb_json_set_num(extra, "nr_maps", args->nr_maps);
	if (hash) {
		mb_json_set_num(extra, "hashmap_nr_keys_used", args->nr_keys);
		mb_json_set_num(extra, "fill_ms", (double)st->fill_ns / 1e6);
	} else {
		mb_json_set_num(extra, "create_ms", (double)st->create_ns / 1e6);
	}
	mb_json_set_num(extra, "gets_per_call", LS_GETS_PER_RUN);
	mb_json_set_str(extra, "loop", "bpf_loop");
	mb_json_set_str(extra, "op", hash ?
		"one lookup of a random key in hash map i % nr_maps; 10000 per getpgid() call" :
		"one bpf_task_storage_get(F_CREATE) of the producer's task in map i % nr_maps; 10000 per getpgid() call");
	mb_trigger_report(&st->trig, extra);
}

static void ls_cache_teardown(struct mb_run *run)
{
	struct ls_cache_state *st = run->priv;

	if (!st)
		return;
	ls_cache_bpf__destroy(st->skel);
	ls_inner_release(run, &st->inner, "inner");
	free(st);
	run->priv = NULL;
}

/* The map types each bench measures. */
static const char *const mb_bench_ls_cache_seq_get_types[] = { "task_storage", NULL };
static const char *const mb_bench_ls_cache_int_get_types[] = { "task_storage", NULL };
static const char *const mb_bench_ls_cache_hashmap_control_types[] = { "hash", NULL };

#define LS_CACHE_BENCH(_var, _name, _opts, _desc)					\
const struct mb_bench _var = {								\
	.name = _name,									\
	.family = "localstorage",							\
	.desc = _desc,									\
	.opts = _opts,									\
	.args_size = sizeof(struct ls_cache_args),					\
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_OP_CALLS,				\
	.map_types = _var##_types,							\
	.text = &ls_cache_text,								\
	.counters = ls_cache_counters,							\
	/* The kernel's figure: gets per second of the producer's time, trigger and all. */ \
	.headline = { .count = MB_HEADLINE_HITS, .clock = MB_HEADLINE_WALL_RATE },	\
	.validate = ls_cache_validate,							\
	.setup = ls_cache_setup,							\
	.producer = ls_cache_producer,							\
	.finish = ls_cache_finish,							\
	.teardown = ls_cache_teardown,							\
}

LS_CACHE_BENCH(mb_bench_ls_cache_seq_get, "local-storage-cache-seq-get", ls_get_opts,
	       "task storage gets over --nr_maps maps in turn, 10000 per getpgid(), as the kernel's");
LS_CACHE_BENCH(mb_bench_ls_cache_int_get, "local-storage-cache-int-get", ls_get_opts,
	       "the same, map 0 got again after every third map (its important_hits), as the kernel's");
LS_CACHE_BENCH(mb_bench_ls_cache_hashmap_control, "local-storage-cache-hashmap-control",
	       ls_control_opts,
	       "random-key lookups in --nr_maps full 4M-entry hash maps: the control, as the kernel's");
