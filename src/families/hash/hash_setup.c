// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Hash family: the setup a run measures on. Creates the measured map(s) (timed apart from the
 * load), loads only the programs the run uses, fills the maps with drivers/map_fill.h (in key
 * order, or with --fill_order bucket in bucket order where the kernel lets programs read the
 * map's hash seed; in parallel for large maps), refills or empties the producers' ranges
 * between rounds, and tears it all down.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "maps/map_mmap.h"
#include "drivers/map_report.h"
#include "hash.h"
#include "drivers/user_latency.h"
#include "core/env.h"
#include "hash.skel.h"
#include "util/json.h"
#include "util/log.h"
#include "sys/probe.h"
#include "core/runner.h"

/* ---- map creation ---- */

static struct mb_map_desc leaf_desc(const struct hash_args *a, const char *name)
{
	return (struct mb_map_desc){
		.type = hash_leaf_type(a), .name = name, .key_size = a->key_size,
		.value_size = a->value_size, .max_entries = a->max_entries, .flags = a->map_flags,
	};
}

/* The leaf map, or for map-in-map the outer map and every CPU's inner leaf map. */
static int create_maps(struct mb_run *run, struct hash_state *st)
{
	const struct hash_args *a = run->args;
	struct mb_map_desc leaf = leaf_desc(a, "mb_hash"), inner = leaf_desc(a, "mb_hash_inner");
	struct mb_map_desc outer = { .type = a->map_type, .name = "mb_hash_outer" };

	if (!st->mim) {
		st->map_fd = mb_run_map_create(run, &leaf, NULL);
		return st->map_fd < 0 ? st->map_fd : 0;
	}
	return mb_cpu_maps_create(run, &st->mim_maps, &outer, &inner);
}

int hash_user_fd(const struct hash_state *st, int cpu)
{
	if (!st->mim)
		return st->map_fd;
	if (cpu < 0 || cpu >= st->mim_maps.nr_outer || st->mim_maps.inner_fd[cpu] < 0) {
		/* Not an online CPU at setup: the first inner map. */
		for (cpu = 0; cpu < st->mim_maps.nr_outer && st->mim_maps.inner_fd[cpu] < 0; cpu++)
			;
	}
	return st->mim_maps.inner_fd[cpu];
}

/* ---- fill, empty, check ---- */

/* Keys first.. (@count of them) of the map, in the kernel: the inner maps' by their key. */
static struct mb_fill fill_req(const struct hash_state *st, uint32_t first, uint32_t count)
{
	return (struct mb_fill){
		.fd = st->mim ? st->mim_maps.outer_fd : st->map_fd, .outer = st->mim,
		.e = &st->entries, .first = first, .count = count, .method = MB_FILL_KERNEL,
		.noexist = true, .filler = st->filler,
	};
}

/* @op on the map, or on every inner map: the keys that failed in all. */
static int range_all(const struct hash_state *st,
		     int (*op)(const struct mb_fill *f, struct mb_fill_result *r),
		     struct mb_fill *f, uint64_t *failed)
{
	struct mb_fill_result r;
	int err = 0;

	*failed = 0;
	for (int c = 0; c < (st->mim ? st->mim_maps.nr_outer : 1) && !err; c++) {
		if (st->mim && st->mim_maps.inner_fd[c] < 0)
			continue;
		f->inner_key = (uint32_t)c;
		err = op(f, &r);
		*failed += r.failed;
	}
	return err;
}

int hash_refill_range(struct hash_state *st, int idx, int cpu)
{
	const struct hash_stream *s = &st->streams[idx];
	struct mb_fill f = fill_req(st, s->base, s->range);
	uint64_t failed;
	int err;

	f.slot = idx;
	f.on_cpu = cpu >= 0;
	f.cpu = cpu;
	if (st->op == HASH_INSERT) {
		/* Keys an LRU evicted meanwhile are already gone: count them. */
		err = range_all(st, mb_map_empty, &f, &failed);
		if (!err && failed && !st->mim)
			__atomic_add_fetch(&st->evicted, failed, __ATOMIC_RELAXED);
	} else {
		/* Map-in-map: other CPUs' inner maps still hold the keys (EEXIST is fine). */
		err = range_all(st, mb_map_fill, &f, &failed);
	}
	return err;
}

/* The fill's programs: those of the set-up fill, the refills and the LRU check. */
static int open_filler(struct mb_run *run, struct hash_state *st)
{
	struct mb_fill f = fill_req(st, st->fill_base, st->fill_count);
	unsigned int ops = 0;
	char why[1024];

	if ((hash_op_fills(st->op) && !st->leaf->array) || st->op == HASH_DELETE)
		ops |= MB_FILL_OPS(MB_FILL_OP_FILL);
	if (st->op == HASH_INSERT)
		ops |= MB_FILL_OPS(MB_FILL_OP_EMPTY);
	if (st->leaf->lru && hash_op_fills(st->op))
		ops |= MB_FILL_OPS(MB_FILL_OP_CHECK);
	if (!ops)
		return 0;
	f.order = st->bucket_fill ? MB_ORDER_BUCKET : MB_ORDER_KEY;
	st->filler = mb_filler_open(&f, ops);
	if (!st->filler) {
		mb_explain_load_error(-errno, "cannot load the fill programs", why, sizeof(why));
		return mb_run_fail(run, -errno, "%s", why);
	}
	st->bucket_filled = mb_filler_order(st->filler) == MB_ORDER_BUCKET;
	return 0;
}

/* Load only what this run uses: one op program. */
static void choose_programs(struct hash_state *st, const struct hash_args *a)
{
	struct hash_bpf *skel = st->skel;
	struct bpf_program *prog;
	struct bpf_program *ops[HASH_OP_NR][2] = {
		[HASH_LOOKUP] = { skel->progs.mb_hash_lookup, skel->progs.mb_hash_lookup_mim },
		[HASH_MISS] = { skel->progs.mb_hash_miss, skel->progs.mb_hash_miss_mim },
		[HASH_UPDATE] = { skel->progs.mb_hash_update, skel->progs.mb_hash_update_mim },
		[HASH_INSERT] = { skel->progs.mb_hash_insert, skel->progs.mb_hash_insert_mim },
		[HASH_DELETE] = { skel->progs.mb_hash_delete, skel->progs.mb_hash_delete_mim },
		[HASH_MIXED] = { skel->progs.mb_hash_mixed, skel->progs.mb_hash_mixed_mim },
		[HASH_KB_LOOKUP] = { skel->progs.mb_hml_lookup, NULL },
		[HASH_KB_FULL] = { skel->progs.mb_fu_update, NULL },
	};
	int m = st->mim;

	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, false);
	st->op_prog = a->path == HASH_PATH_KERNEL ? ops[st->op][m] : NULL;
	if (st->op_prog)
		bpf_program__set_autoload(st->op_prog, true);
}

/* ---- setup ---- */

/* The mb_hash_idx array of the key streams, mapped into user space. */
static int map_index_array(struct mb_run *run, struct hash_state *st)
{
	int fd = bpf_map__fd(st->skel->maps.mb_hash_idx);
	void *mem;

	if (st->args->path != HASH_PATH_KERNEL || st->src != MB_HASH_SRC_ARRAY)
		return 0;
	/* Array elements are 8-byte aligned: one __u64 per index. */
	mem = mb_map_mmap(fd, (size_t)st->idx_entries * 8, PROT_READ | PROT_WRITE, &st->idx_bytes);
	if (!mem)
		return mb_run_fail(run, -errno, "cannot map the key index array: %s",
				   strerror(errno));
	st->idx = mem;
	return 0;
}

/* Precomputed key indices for the in-kernel op (zipf draws, shuffled ranges). */
static int write_streams(struct mb_run *run, struct hash_state *st)
{
	const struct hash_args *a = run->args;
	uint32_t *tmp;
	int err = 0;

	if (a->path != HASH_PATH_KERNEL || st->src != MB_HASH_SRC_ARRAY)
		return 0;
	tmp = malloc(sizeof(uint32_t) * st->idx_stride);
	if (!tmp)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	for (int p = 0; p < st->nr_producers && !err; p++) {
		uint32_t len = hash_stream_len(st->op, &st->streams[p]);

		err = hash_stream_indices(st->op, &st->streams[p], &a->key_dist, tmp, len);
		for (uint32_t i = 0; !err && i < len; i++)
			st->idx[(size_t)p * st->idx_stride + i] = tmp[i];
	}
	free(tmp);
	if (err)
		return mb_run_fail(run, err, "cannot build the producers' key streams");
	return 0;
}

/* Fill every map, in parallel on the online CPUs; an LRU map is checked for evictions. */
static int fill_maps(struct mb_run *run, struct hash_state *st, uint64_t *fill_ns)
{
	const struct hash_args *a = run->args;
	struct mb_fill f = fill_req(st, st->fill_base, st->fill_count);
	uint64_t t0 = mb_now_ns(), failed;
	int err;

	*fill_ns = 0;
	if (!hash_op_fills(st->op) || st->leaf->array)
		return 0;
	f.order = st->bucket_filled ? MB_ORDER_BUCKET : MB_ORDER_KEY;
	f.cpus = &run->env->online;
	err = range_all(st, mb_map_fill, &f, &failed);
	*fill_ns = mb_now_ns() - t0;
	if (err)
		return mb_run_fail(run, err, "cannot run the fill program: %s", strerror(-err));
	if (failed)
		return mb_run_fail(run, -ENOSPC, "the %s map refused %llu of the %u keys of the fill",
				   st->leaf->name, (unsigned long long)failed, st->fill_count);
	if (!st->leaf->lru)
		return 0;
	/* An LRU map evicts silently: check that every key stayed. */
	f.order = MB_ORDER_KEY;
	f.cpus = NULL;
	err = range_all(st, mb_map_check, &f, &failed);
	if (err)
		return mb_run_fail(run, err, "cannot run the check program: %s", strerror(-err));
	if (failed)
		return mb_run_fail(run, -ENOSPC, "the %s map evicted %llu of the %u keys while being filled to %u entries: an LRU map evicts before it is full (each CPU holds up to 128 free nodes); raise --max_entries or leave it out (the default adds %d per possible CPU)",
				   st->leaf->name, (unsigned long long)failed, a->nr_entries,
				   a->max_entries, HASH_LRU_SLACK_PER_CPU);
	return 0;
}

/* Open the object, size it for this run, hand it the maps and load the programs it needs. */
static int load_object(struct mb_run *run, struct hash_state *st)
{
	const struct hash_args *a = run->args;
	struct hash_bpf *skel;
	uint32_t streams = 1;
	int err;

	st->skel = skel = hash_bpf__open();
	if (!skel)
		return -errno;
	mb_loop_prepare(skel->skeleton, &run->loop);
	skel->rodata->mb_hash_src = (__u32)st->src;
	skel->rodata->mb_hml_nr_entries = a->nr_entries;
	skel->rodata->mb_fu_key = a->max_entries;
	choose_programs(st, a);
	st->idx_stride = 1;
	if (a->path == HASH_PATH_KERNEL && st->src == MB_HASH_SRC_ARRAY) {
		for (int p = 0; p < st->nr_producers; p++) {
			uint32_t len = hash_stream_len(st->op, &st->streams[p]);

			if (len > st->idx_stride)
				st->idx_stride = len;
		}
		streams = st->idx_stride * (uint32_t)st->nr_producers;
	}
	st->idx_entries = streams;
	bpf_map__set_max_entries(skel->maps.mb_hash_idx, st->idx_entries);
	if (st->mim) {
		bpf_map__set_autocreate(skel->maps.mb_hash_map, false);
		err = bpf_map__reuse_fd(skel->maps.mb_hash_outer, st->mim_maps.outer_fd);
	} else {
		bpf_map__set_autocreate(skel->maps.mb_hash_outer, false);
		err = bpf_map__reuse_fd(skel->maps.mb_hash_map, st->map_fd);
	}
	return err ? err : hash_bpf__load(skel);
}

static void report_setup(struct mb_run *run, struct hash_state *st, uint64_t create_ns,
			 uint64_t load_ns, uint64_t fill_ns)
{
	const struct hash_args *a = run->args;
	struct mb_json *extra = mb_run_extra(run), *setup, *lru, *mim;

	mb_json_set_num(extra, "setup_ns", (double)(create_ns + fill_ns));
	setup = mb_json_child(extra, "setup");
	mb_json_set_num(setup, "create_ns", (double)create_ns);
	mb_json_set_num(setup, "fill_ns", (double)fill_ns);
	mb_json_set_num(setup, "fill_keys", hash_op_fills(st->op) && !st->leaf->array ?
						    (double)st->fill_count : 0);
	mb_json_set_str(setup, "fill_method", hash_op_fills(st->op) && !st->leaf->array ?
						      mb_fill_method_name(MB_FILL_KERNEL) : "none");
	mb_json_set_str(setup, "fill_order", !hash_op_fills(st->op) || st->leaf->array ? "none" :
					      st->bucket_filled ? "bucket" : "key");
	mb_json_set_num(setup, "load_ns", (double)load_ns);
	mb_json_set_str(extra, "op", hash_op_name(st->op));
	mb_json_set_str(extra, "path", hash_path_names[a->path]);
	mb_json_set_num(extra, "ops_per_iteration", st->ops_per_iter);
	mb_json_set_num(extra, "max_entries", a->max_entries);
	mb_json_set_num(extra, "max_entries_headroom", a->max_entries_headroom);
	/* The entries asked for: matching must not see the head room (extra says it). */
	if (a->max_entries_headroom && run->params)
		mb_json_set_num(run->params, "max_entries",
				a->max_entries - a->max_entries_headroom);
	if (st->leaf->lru) {
		bool common = !(a->map_flags & BPF_F_NO_COMMON_LRU);

		lru = mb_json_child(extra, "lru");
		mb_json_set_bool(lru, "common", common);
		mb_json_set_num(lru, "possible_cpus", hash_possible_cpus());
		mb_json_set(lru, "capacity_per_cpu", common ? mb_json_null() :
				     mb_json_number(hash_lru_cpu_capacity(a->max_entries,
									  hash_possible_cpus())));
	}
	if (st->mim) {
		int n = 0;

		for (int c = 0; c < st->mim_maps.nr_outer; c++)
			n += st->mim_maps.inner_fd[c] >= 0;
		mim = mb_json_child(extra, "map_in_map");
		mb_json_set_str(mim, "outer_type", a->map_type->name);
		mb_json_set_str(mim, "inner_type", st->leaf->name);
		mb_json_set_num(mim, "inner_maps", n);
		mb_json_set_num(setup, "fill_keys", hash_op_fills(st->op) && !st->leaf->array ?
							    (double)st->fill_count * n : 0);
		mb_run_report_map_memory(run, "map", mb_cpu_maps_first(&st->mim_maps),
					 a->max_entries);
		mb_run_report_map_memory(run, "outer", st->mim_maps.outer_fd,
					 (uint64_t)st->mim_maps.nr_outer);
	} else {
		mb_run_report_map_memory(run, "map", st->map_fd, a->max_entries);
	}
}

static void report_streams(struct mb_run *run, struct hash_state *st)
{
	static const char *const src_names[] = { "seq", "random", "array" };
	struct mb_json *arr = mb_json_array();
	const struct hash_args *a = run->args;

	for (int p = 0; p < st->nr_producers; p++) {
		const struct hash_stream *s = &st->streams[p];
		struct mb_json *o = mb_json_object();

		mb_json_set_num(o, "producer", p);
		mb_json_set_num(o, "base", s->base);
		mb_json_set_num(o, "range", s->range);
		mb_json_set_num(o, "start", s->start);
		mb_json_set_str(o, "source", a->path == HASH_PATH_KERNEL ? src_names[st->src] :
					     a->key_dist.kind == MB_DIST_SEQ ? "seq" : "array");
		mb_json_append(arr, o);
	}
	mb_json_set(mb_run_extra(run), "key_streams", arr);
}

/* What the bench's op and options make of the run: no map is made yet. */
static int plan_state(struct mb_run *run, struct hash_state *st)
{
	struct hash_args *a = run->args;

	st->op = hash_bench_op(run->bench);
	st->args = a;
	st->leaf = hash_leaf_type(a);
	st->mim = a->map_type->map_in_map;
	st->map_fd = -1;
	st->entries = (struct mb_entries){ .type = st->leaf, .key_size = a->key_size,
					   .value_size = a->value_size, .key = MB_KEY_INDEX,
					   .value = MB_VALUE_ZERO };
	st->nr_producers = run->nr_producers;
	st->ops_per_iter = st->op == HASH_MIXED ? 3 : 1;
	st->src = hash_kernel_src(st->op, &a->key_dist);
	st->bucket_fill = a->fill_order == HASH_FILL_BUCKET && !st->leaf->array &&
			  hash_op_fills(st->op);
	/* The kernel benches' keys: 1..nr_entries (lookup), 0..max_entries-1 (full map). */
	st->fill_base = st->op == HASH_KB_LOOKUP ? 1 : 0;
	st->fill_count = st->op == HASH_KB_FULL ? a->max_entries : a->nr_entries;
	if (st->op == HASH_KB_LOOKUP)
		st->fixed_iters = a->nr_loops / a->nr_entries ? a->nr_loops / a->nr_entries : 1;
	else if (st->op == HASH_KB_FULL)
		st->fixed_iters = a->nr_loops;
	if (st->op == HASH_KB_LOOKUP)
		st->ops_per_iter = a->nr_entries;
	run->runner = a->path == HASH_PATH_KERNEL ? "kernel-loop" : "syscall";
	st->streams = calloc((size_t)run->nr_producers, sizeof(*st->streams));
	if (!st->streams)
		return -ENOMEM;
	if (a->path != HASH_PATH_KERNEL) {
		st->cpu = aligned_alloc(128, sizeof(*st->cpu) * (size_t)run->nr_producers);
		st->last_cpu_ns = calloc((size_t)run->nr_producers, sizeof(*st->last_cpu_ns));
		if (!st->cpu || !st->last_cpu_ns)
			return -ENOMEM;
		memset(st->cpu, 0, sizeof(*st->cpu) * (size_t)run->nr_producers);
	}
	/*
	 * --latency: a syscall op timed one in HASH_USER_LAT_EVERY (map-mixed: its three calls), a
	 * batch one in HASH_BATCH_LAT_EVERY, whole: the percentiles are of the call, not per op.
	 */
	if (a->path == HASH_PATH_SYSCALL)
		return mb_user_latency_start(run, HASH_USER_LAT_EVERY, st->op == HASH_MIXED ? 3 : 1,
					     NULL);
	if (a->path == HASH_PATH_BATCH)
		return mb_user_latency_start(run, HASH_BATCH_LAT_EVERY, a->batch_size,
					     "batch calls");
	return 0;
}

int hash_setup(struct mb_run *run)
{
	struct hash_args *a = run->args;
	struct hash_state *st = calloc(1, sizeof(*st));
	uint64_t t0, create_ns, load_ns, fill_ns = 0;
	uint32_t miss_base;
	int err;

	if (!st)
		return -ENOMEM;
	run->priv = st;
	err = plan_state(run, st);
	if (err)
		return err;
	miss_base = st->leaf->array ? a->max_entries : a->nr_entries;
	hash_streams(st->op, a->nr_entries, miss_base, a->seed, run->nr_producers, st->streams);

	/* Create the measured map(s) ourselves: their creation is timed apart from the load. */
	t0 = mb_now_ns();
	err = create_maps(run, st);
	create_ns = mb_now_ns() - t0;
	if (err)
		return err;
	t0 = mb_now_ns();
	err = load_object(run, st);
	if (err) {
		char why[1024];

		mb_explain_load_error(err, "cannot load the BPF programs", why, sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	err = open_filler(run, st);
	load_ns = mb_now_ns() - t0;
	if (!err)
		err = map_index_array(run, st);
	if (err)
		return err;
	for (int i = 0; i < MB_MAX_SLOTS; i++)
		mb_index_key_pattern(&st->skel->bss->mb_hash_keys[i], a->key_size);
	err = fill_maps(run, st, &fill_ns);
	if (!err)
		err = write_streams(run, st);
	if (err)
		return err;
	report_setup(run, st, create_ns, load_ns, fill_ns);
	report_streams(run, st);
	return 0;
}

void hash_teardown(struct mb_run *run)
{
	struct hash_state *st = run->priv;

	if (!st)
		return;
	if (st->idx)
		munmap(st->idx, st->idx_bytes);
	mb_filler_close(st->filler);
	hash_bpf__destroy(st->skel);
	if (st->map_fd >= 0)
		close(st->map_fd);
	mb_cpu_maps_close(&st->mim_maps);
	free(st->streams);
	free(st->cpu);
	free(st->last_cpu_ns);
	free(st);
	run->priv = NULL;
}
