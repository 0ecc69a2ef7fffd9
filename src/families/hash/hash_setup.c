// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Hash family: the setup a run measures on. Creates the measured map(s) (timed apart from the
 * load), loads only the programs the run uses, fills the maps (in key order, or with
 * --fill_order bucket in bucket order where the kernel lets programs read the map's hash seed;
 * in parallel for large maps), refills or
 * empties the producers' ranges between rounds, and tears it all down.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "maps/map_mmap.h"
#include "hash.h"
#include "core/env.h"
#include "hash.skel.h"
#include "util/json.h"
#include "util/log.h"
#include "sys/probe.h"
#include "core/runner.h"

/* ---- map creation ---- */

static int create_leaf(struct mb_run *run, const char *name, int *fd)
{
	const struct hash_args *a = run->args;
	const struct mb_map_type_info *leaf = hash_leaf_type(a);
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = a->map_flags);
	char why[512], what[160];

	*fd = bpf_map_create(leaf->type, name, a->key_size, a->value_size, a->max_entries, &opts);
	if (*fd >= 0)
		return 0;
	snprintf(what, sizeof(what), "cannot create the %s map (%u entries of %u + %u bytes)",
		 leaf->name, a->max_entries, a->key_size, a->value_size);
	mb_explain_map_create(-errno, what, why, sizeof(why));
	return mb_run_fail(run, -errno, "%s", why);
}

/* Every CPU's inner map is a leaf map of the run's --inner_type. */
static int create_inner(struct mb_run *run, int cpu, void *ctx)
{
	int fd, err;

	(void)cpu;
	(void)ctx;
	err = create_leaf(run, "mb_hash_inner", &fd);
	return err ? err : fd;
}

static int create_maps(struct mb_run *run, struct hash_state *st)
{
	const struct hash_args *a = run->args;
	char what[64];

	if (!st->mim)
		return create_leaf(run, "mb_hash", &st->map_fd);
	snprintf(what, sizeof(what), "%s map", a->map_type->name);
	return mb_cpu_maps_create(run, &st->mim_maps, a->map_type->type, "mb_hash_outer", what,
				  create_inner, NULL);
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

int64_t hash_range_call(int prog_fd, uint32_t base, uint32_t count, int slot, int cpu,
			int outer_key)
{
	int64_t failed = 0;

	for (uint32_t done = 0; done < count;) {
		uint32_t n = count - done < HASH_FILL_CHUNK ? count - done : HASH_FILL_CHUNK;
		struct mb_hash_fill_args args = {
			.base = base + done, .count = n, .slot = (__u64)slot,
			.outer_key = (__u64)(outer_key < 0 ? 0 : outer_key),
		};
		LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &args, .ctx_size_in = sizeof(args));

		if (cpu >= 0) {
			opts.flags = BPF_F_TEST_RUN_ON_CPU;
			opts.cpu = (__u32)cpu;
		}
		if (bpf_prog_test_run_opts(prog_fd, &opts))
			return -errno;
		failed += opts.retval;
		done += n;
	}
	return failed;
}

/* Run a fill/empty/check program over @count keys from @base on every map the op uses. */
static int64_t range_all(struct hash_state *st, struct bpf_program *direct,
			 struct bpf_program *mim, uint32_t base, uint32_t count, int slot, int cpu)
{
	int64_t failed = 0, n;

	if (!st->mim)
		return hash_range_call(bpf_program__fd(direct), base, count, slot, cpu, -1);
	for (int c = 0; c < st->mim_maps.nr_outer; c++) {
		if (st->mim_maps.inner_fd[c] < 0)
			continue;
		n = hash_range_call(bpf_program__fd(mim), base, count, slot, cpu, c);
		if (n < 0)
			return n;
		failed += n;
	}
	return failed;
}

int hash_refill_range(struct hash_state *st, int idx, int cpu)
{
	const struct hash_stream *s = &st->streams[idx];
	struct hash_bpf *skel = st->skel;
	int64_t n;

	if (st->op == HASH_INSERT) {
		/* Keys an LRU evicted meanwhile are already gone: count them. */
		n = range_all(st, skel->progs.mb_hash_empty, skel->progs.mb_hash_empty_mim, s->base,
			      s->range, idx, cpu);
		if (n > 0 && !st->mim)
			__atomic_add_fetch(&st->evicted, (uint64_t)n, __ATOMIC_RELAXED);
	} else {
		/* Map-in-map: other CPUs' inner maps still hold the keys (EEXIST is fine). */
		n = range_all(st, skel->progs.mb_hash_fill, skel->progs.mb_hash_fill_mim, s->base,
			      s->range, idx, cpu);
	}
	return n < 0 ? (int)n : 0;
}

/* Load only what this run uses: one op program, and the fill programs it needs. */
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
	if ((hash_op_fills(st->op) && !st->leaf->array) || st->op == HASH_DELETE)
		bpf_program__set_autoload(m ? skel->progs.mb_hash_fill_mim :
					      skel->progs.mb_hash_fill, true);
	if (st->op == HASH_INSERT)
		bpf_program__set_autoload(m ? skel->progs.mb_hash_empty_mim :
					      skel->progs.mb_hash_empty, true);
	if (st->leaf->lru && hash_op_fills(st->op))
		bpf_program__set_autoload(m ? skel->progs.mb_hash_check_mim :
					      skel->progs.mb_hash_check, true);
}

/* ---- setup ---- */

/* The mb_hash_idx array, mapped into user space: fill order first, then key streams. */
static int map_index_array(struct mb_run *run, struct hash_state *st)
{
	int fd = bpf_map__fd(st->skel->maps.mb_hash_idx);
	void *mem;

	if (!st->bucket_fill &&
	    (st->args->path != HASH_PATH_KERNEL || st->src != MB_HASH_SRC_ARRAY))
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

struct fill_job {
	int prog_fd;
	uint32_t base, count;
	int slot, cpu, outer_key;
	int64_t failed;
	pthread_t thread;
	bool started;
};

static void *fill_thread(void *arg)
{
	struct fill_job *j = arg;

	j->failed = hash_range_call(j->prog_fd, j->base, j->count, j->slot, j->cpu, j->outer_key);
	return NULL;
}

/*
 * Run a fill program over [0, count) with one thread per online CPU, each pinned and filling
 * its share on its CPU: the inserts of a large map wait on cache misses, which CPUs overlap.
 */
static int64_t fill_parallel(struct mb_run *run, int prog_fd, uint32_t base, uint32_t count,
			     int outer_key)
{
	const struct mb_cpuset *online = &run->env->online;
	int n = online->count < MB_MAX_SLOTS ? online->count : MB_MAX_SLOTS;
	struct fill_job *jobs;
	int64_t failed = 0;

	/* Small maps: threads cost more than they save. */
	if (count < HASH_FILL_PARALLEL_MIN || n < 2)
		return hash_range_call(prog_fd, base, count, 0, -1, outer_key);
	jobs = calloc((size_t)n, sizeof(*jobs));
	if (!jobs)
		return -ENOMEM;
	for (int i = 0, cpu = -1; i < n; i++) {
		uint32_t share = count / (uint32_t)n;
		pthread_attr_t attr;
		cpu_set_t set;

		cpu = mb_cpuset_next(online, cpu + 1);
		/* Contiguous shares: in bucket order each thread keeps to its own buckets. */
		jobs[i] = (struct fill_job){
			.prog_fd = prog_fd, .base = base + (uint32_t)i * share,
			.count = i == n - 1 ? count - (uint32_t)i * share : share,
			.slot = i, .cpu = cpu, .outer_key = outer_key,
		};
		pthread_attr_init(&attr);
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		jobs[i].started = !pthread_create(&jobs[i].thread, &attr, fill_thread, &jobs[i]);
		pthread_attr_destroy(&attr);
		if (!jobs[i].started) {
			jobs[i].cpu = -1;
			fill_thread(&jobs[i]);
		}
	}
	for (int i = 0; i < n; i++) {
		if (jobs[i].started)
			pthread_join(jobs[i].thread, NULL);
		if (failed >= 0)
			failed = jobs[i].failed < 0 ? jobs[i].failed : failed + jobs[i].failed;
	}
	free(jobs);
	return failed;
}

/* Put the fill's keys in the bucket order of one map into the index array (mb_hash_seed). */
static int bucket_order(struct mb_run *run, struct hash_state *st, int outer_key)
{
	const struct hash_args *a = run->args;
	struct hash_bpf *skel = st->skel;
	struct mb_hash_fill_args args = { .outer_key = (__u64)(outer_key < 0 ? 0 : outer_key) };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &args, .ctx_size_in = sizeof(args));
	struct bpf_program *prog = st->mim ? skel->progs.mb_hash_seed_mim :
					     skel->progs.mb_hash_seed;
	uint32_t *order;
	int err;

	if (bpf_prog_test_run_opts(bpf_program__fd(prog), &opts) || opts.retval)
		return mb_run_fail(run, -EIO, "cannot read the map's hash seed");
	st->hash_seed = skel->bss->mb_hash_rnd;
	st->nbuckets = skel->bss->mb_hash_nbuckets;
	order = malloc(sizeof(uint32_t) * st->fill_count);
	if (!order)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	err = hash_bucket_order(st->fill_base, st->fill_count, a->key_size, st->hash_seed,
			       st->nbuckets, order);
	for (uint32_t i = 0; !err && i < st->fill_count; i++)
		st->idx[i] = order[i];
	free(order);
	if (err)
		return mb_run_fail(run, err, "cannot order the fill by bucket (%u buckets)",
				   st->nbuckets);
	return 0;
}

/* Fill one map (the measured one, or inner map @outer_key). */
static int64_t fill_one(struct mb_run *run, struct hash_state *st, int outer_key)
{
	struct hash_bpf *skel = st->skel;
	struct bpf_program *prog;
	int err;

	if (st->bucket_fill) {
		err = bucket_order(run, st, outer_key);
		if (err)
			return err;
		prog = st->mim ? skel->progs.mb_hash_fill_idx_mim : skel->progs.mb_hash_fill_idx;
	} else {
		prog = st->mim ? skel->progs.mb_hash_fill_mim : skel->progs.mb_hash_fill;
	}
	/* In bucket order the program reads positions 0.. of the index array. */
	return fill_parallel(run, bpf_program__fd(prog), st->bucket_fill ? 0 : st->fill_base,
			     st->fill_count, outer_key);
}

static int fill_maps(struct mb_run *run, struct hash_state *st, uint64_t *fill_ns)
{
	const struct hash_args *a = run->args;
	struct hash_bpf *skel = st->skel;
	uint64_t t0 = mb_now_ns();
	int64_t failed = 0, n;

	*fill_ns = 0;
	if (!hash_op_fills(st->op) || st->leaf->array)
		return 0;
	if (!st->mim) {
		failed = fill_one(run, st, -1);
	} else {
		for (int c = 0; c < st->mim_maps.nr_outer && failed >= 0; c++) {
			if (st->mim_maps.inner_fd[c] < 0)
				continue;
			n = fill_one(run, st, c);
			failed = n < 0 ? n : failed + n;
		}
	}
	if (failed < 0 && run->status != MB_RUN_OK)
		return (int)failed;
	*fill_ns = mb_now_ns() - t0;
	if (failed < 0)
		return mb_run_fail(run, (int)failed, "cannot run the fill program: %s",
				   strerror((int)-failed));
	if (failed)
		return mb_run_fail(run, -ENOSPC, "the %s map refused %lld of the %u keys of the fill",
				   st->leaf->name, (long long)failed, st->fill_count);
	if (!st->leaf->lru)
		return 0;
	/* An LRU map evicts silently: check that every key stayed. */
	failed = range_all(st, skel->progs.mb_hash_check, skel->progs.mb_hash_check_mim,
			   st->fill_base, st->fill_count, 0, -1);
	if (failed < 0)
		return mb_run_fail(run, (int)failed, "cannot run the check program: %s",
				   strerror((int)-failed));
	if (failed)
		return mb_run_fail(run, -ENOSPC, "the %s map evicted %lld of the %u keys while being filled to %u entries: an LRU map evicts before it is full (each CPU holds up to 128 free nodes); raise --max_entries or leave it out (the default adds %d per possible CPU)",
				   st->leaf->name, (long long)failed, a->nr_entries, a->max_entries,
				   HASH_LRU_SLACK_PER_CPU);
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
	mb_loop_prepare(skel->skeleton, run->loop.kind);
	skel->rodata->mb_hash_src = (__u32)st->src;
	skel->rodata->mb_hml_nr_entries = a->nr_entries;
	skel->rodata->mb_fu_key = a->max_entries;
	choose_programs(st, a);
	if (st->bucket_fill) {
		bpf_program__set_autoload(st->mim ? skel->progs.mb_hash_seed_mim :
					  skel->progs.mb_hash_seed, true);
		bpf_program__set_autoload(st->mim ? skel->progs.mb_hash_fill_idx_mim :
					  skel->progs.mb_hash_fill_idx, true);
		/* Refills (map-delete) still insert a range in key order. */
		if (st->op != HASH_DELETE)
			bpf_program__set_autoload(st->mim ? skel->progs.mb_hash_fill_mim :
						  skel->progs.mb_hash_fill, false);
	}
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
	if (st->bucket_fill && st->fill_count > st->idx_entries)
		st->idx_entries = st->fill_count;
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
						      "bpf-loop" : "none");
	mb_json_set_str(setup, "fill_order", !hash_op_fills(st->op) || st->leaf->array ? "none" :
					      st->bucket_fill ? "bucket" : "key");
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
		mb_run_report_map_memory(run, "map", hash_user_fd(st, 0), a->max_entries);
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
	if (err && st->bucket_fill) {
		/* A kernel that does not let programs read map fields: fill in key order. */
		mb_debug("%s: no bucket-order fill: %s", run->bench->name, strerror(-err));
		mb_verifier_log_clear();
		hash_bpf__destroy(st->skel);
		st->bucket_fill = false;
		err = load_object(run, st);
	}
	load_ns = mb_now_ns() - t0;
	if (err) {
		char why[1024];

		mb_explain_load_error(err, "cannot load the BPF programs", why, sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	err = map_index_array(run, st);
	if (err)
		return err;
	for (int i = 0; i < MB_MAX_SLOTS; i++)
		hash_key_pattern((uint8_t *)&st->skel->bss->mb_hash_keys[i], a->key_size);
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
