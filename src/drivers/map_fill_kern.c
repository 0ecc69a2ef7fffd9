// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The in-kernel method of drivers/map_fill.h: map_fill.bpf.c's programs on the request's map,
 * run by BPF_PROG_TEST_RUN in calls of up to MB_FILL_CALL_MAX entries; large ranges with one
 * thread per CPU, each pinned and filling its contiguous share on its CPU (the inserts of a
 * large map wait on cache misses, which CPUs overlap; in bucket order each thread keeps to
 * its own buckets).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "maps/map_mmap.h"
#include "util/cpuset.h"
#include "util/log.h"
#include "bucket_order.h"
#include "map_fill_kern.h"
#include "map_fill_shared.h"
#include "map_fill.skel.h"

enum src { SRC_INDEX, SRC_ORDER, SRC_GIVEN, SRC_NR };

static const char *const op_names[MB_FILL_OP_NR] = { "fill", "empty", "check" };
static const char *const src_names[SRC_NR] = { "index", "order", "given" };

struct mb_filler {
	struct map_fill_bpf *skel;
	struct bpf_program *prog[MB_FILL_OP_NR];	/* in key order, or of the given keys */
	struct bpf_program *fill_order, *seed;		/* bucket order, where loaded */
	bool outer, push;
	enum src src;
	enum mb_fill_order order;
	uint32_t key_size;
	uint32_t first, count;		/* the entries the data array has room for */
	uint8_t *data;			/* the data array, mapped */
	size_t data_len, data_stride;
};

/* What programs can do: no map-in-map updates, no LPM index keys, zero values. */
static int supported(const struct mb_fill *f, unsigned int ops)
{
	const struct mb_entries *e = f->e;

	if (e->type->map_in_map || e->type->stream)
		return -EOPNOTSUPP;
	if (e->key == MB_KEY_NONE)
		return e->type->type == BPF_MAP_TYPE_BLOOM_FILTER && e->value == MB_VALUE_GIVEN &&
		       ops == MB_FILL_OPS(MB_FILL_OP_FILL) && !f->outer ? 0 : -EOPNOTSUPP;
	if (e->key == MB_KEY_LPM || e->value != MB_VALUE_ZERO || e->key_size > MB_FILL_KEY_MAX ||
	    e->value_size > MB_FILL_VALUE_MAX)
		return -EOPNOTSUPP;
	return 0;
}

static struct bpf_program *enable(struct map_fill_bpf *skel, enum mb_fill_op op, enum src src,
				  bool outer)
{
	struct bpf_program *p;
	char name[64];

	snprintf(name, sizeof(name), "mb_fl_%s_%s%s", op_names[op], src_names[src],
		 outer ? "_mim" : "");
	p = bpf_object__find_program_by_name(skel->obj, name);
	if (p)
		bpf_program__set_autoload(p, true);
	return p;
}

/* The programs @ops need, the map handed over, the data array sized: then load. */
static int load(struct mb_filler *k, const struct mb_fill *f, unsigned int ops)
{
	const struct mb_entries *e = f->e;
	struct map_fill_bpf *skel = map_fill_bpf__open();
	struct bpf_map *mine;
	struct bpf_program *p;
	uint32_t elem = 4, entries = 1;
	int err;

	if (!skel)
		return -errno;
	k->skel = skel;
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, false);
	for (int op = 0; op < MB_FILL_OP_NR && !k->push; op++)
		if (ops & MB_FILL_OPS(op))
			k->prog[op] = enable(skel, op, k->src, k->outer);
	if (k->push) {
		k->prog[MB_FILL_OP_FILL] = skel->progs.mb_fl_push;
		bpf_program__set_autoload(skel->progs.mb_fl_push, true);
	}
	if (k->order == MB_ORDER_BUCKET) {
		k->fill_order = enable(skel, MB_FILL_OP_FILL, SRC_ORDER, k->outer);
		k->seed = k->outer ? skel->progs.mb_fl_seed_mim : skel->progs.mb_fl_seed;
		bpf_program__set_autoload(k->seed, true);
	}
	mine = k->push ? skel->maps.mb_fill_bloom : k->outer ? skel->maps.mb_fill_outer :
							     skel->maps.mb_fill_map;
	bpf_map__set_autocreate(skel->maps.mb_fill_map, mine == skel->maps.mb_fill_map);
	bpf_map__set_autocreate(skel->maps.mb_fill_outer, mine == skel->maps.mb_fill_outer);
	bpf_map__set_autocreate(skel->maps.mb_fill_bloom, mine == skel->maps.mb_fill_bloom);
	if (k->push || k->src == SRC_GIVEN || k->order == MB_ORDER_BUCKET) {
		entries = f->count ? f->count : 1;
		elem = k->push ? e->value_size : k->src == SRC_GIVEN ? e->key_size : 4;
		k->count = f->count;
	}
	k->first = f->first;
	k->data_stride = ((size_t)elem + 7) & ~(size_t)7;
	skel->rodata->mb_fill_flags = f->noexist ? BPF_NOEXIST : BPF_ANY;
	err = bpf_map__set_value_size(skel->maps.mb_fill_data, elem);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.mb_fill_data, entries);
	if (!err)
		err = bpf_map__reuse_fd(mine, f->fd);
	return err ? err : map_fill_bpf__load(skel);
}

/* Key patterns in every slot, given keys or values in the data array. */
static int prepare(struct mb_filler *k, const struct mb_fill *f)
{
	const struct mb_entries *e = f->e;
	const uint8_t *src = k->push ? e->values : e->keys;
	uint32_t size = k->push ? e->value_size : e->key_size;

	for (int s = 0; s < MB_FILL_SLOTS && k->src != SRC_GIVEN; s++)
		mb_index_key_pattern(&k->skel->bss->mb_fill_keys[s], k->key_size);
	if (!k->push && k->src != SRC_GIVEN && k->order != MB_ORDER_BUCKET)
		return 0;
	k->data = mb_map_mmap(bpf_map__fd(k->skel->maps.mb_fill_data),
			      k->data_stride * bpf_map__max_entries(k->skel->maps.mb_fill_data),
			      PROT_READ | PROT_WRITE, &k->data_len);
	if (!k->data)
		return -errno;
	for (uint32_t i = 0; (k->push || k->src == SRC_GIVEN) && i < k->count; i++)
		memcpy(k->data + i * k->data_stride, src + (size_t)(k->first + i) * size, size);
	return 0;
}

struct mb_filler *mb_filler_open(const struct mb_fill *f, unsigned int ops)
{
	struct mb_filler *k = calloc(1, sizeof(*k));
	int err = supported(f, ops);

	if (!k || err) {
		free(k);
		errno = k ? -err : ENOMEM;
		return NULL;
	}
	k->outer = f->outer;
	k->push = f->e->key == MB_KEY_NONE;
	k->src = f->e->key == MB_KEY_GIVEN ? SRC_GIVEN : SRC_INDEX;
	k->key_size = f->e->key_size;
	k->order = f->order == MB_ORDER_BUCKET && k->src == SRC_INDEX && !k->push &&
		   k->key_size >= 4 && !f->e->type->array && (ops & MB_FILL_OPS(MB_FILL_OP_FILL)) ?
			   MB_ORDER_BUCKET : MB_ORDER_KEY;
	err = load(k, f, ops);
	if (err && k->order == MB_ORDER_BUCKET) {
		/* A kernel that does not let programs read map fields: key order. */
		mb_debug("map fill: no bucket order: %s", strerror(-err));
		mb_verifier_log_clear();
		map_fill_bpf__destroy(k->skel);
		memset(k->prog, 0, sizeof(k->prog));
		k->fill_order = k->seed = NULL;
		k->order = MB_ORDER_KEY;
		err = load(k, f, ops);
	}
	if (!err)
		err = prepare(k, f);
	if (err) {
		mb_filler_close(k);
		errno = -err;
		return NULL;
	}
	return k;
}

enum mb_fill_order mb_filler_order(const struct mb_filler *k)
{
	return k->order;
}

void mb_filler_close(struct mb_filler *k)
{
	if (!k)
		return;
	if (k->data)
		munmap(k->data, k->data_len);
	map_fill_bpf__destroy(k->skel);
	free(k);
}

/* ---- running the programs ---- */

struct job {
	int prog_fd;
	struct mb_fill_args a;
	int cpu;			/* -1: where the thread runs */
	const struct mb_fill *f;
	int64_t failed;			/* or a negative error */
	pthread_t thread;
	bool started;
};

static void *job_run(void *arg)
{
	struct job *j = arg;

	j->failed = 0;
	for (uint64_t done = 0; done < j->a.count;) {
		uint64_t n = j->a.count - done < MB_FILL_CALL_MAX ? j->a.count - done :
								    MB_FILL_CALL_MAX;
		struct mb_fill_args args = j->a;
		LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &args, .ctx_size_in = sizeof(args));

		if (j->f->stop && j->f->stop(j->f->stop_ctx)) {
			j->failed = -EINTR;
			break;
		}
		args.pos += done;
		args.count = n;
		if (j->cpu >= 0) {
			opts.flags = BPF_F_TEST_RUN_ON_CPU;
			opts.cpu = (__u32)j->cpu;
		}
		if (bpf_prog_test_run_opts(j->prog_fd, &opts)) {
			j->failed = -errno;
			break;
		}
		j->failed += opts.retval;
		done += n;
	}
	return NULL;
}

/* One job per CPU of f->cpus, each pinned there with its own key slot. */
static int64_t run_parallel(const struct job *one, struct job *jobs, uint32_t n)
{
	int64_t failed = 0;
	int cpu = -1;

	for (uint32_t i = 0, first, len; i < n; i++) {
		pthread_attr_t attr;
		cpu_set_t set;

		cpu = mb_cpuset_next(one->f->cpus, cpu + 1);
		mb_entries_share((uint32_t)one->a.count, n, i, &first, &len);
		jobs[i] = *one;
		jobs[i].a.pos += first;
		jobs[i].a.count = len;
		jobs[i].a.slot = i;
		jobs[i].cpu = cpu;
		pthread_attr_init(&attr);
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		jobs[i].started = !pthread_create(&jobs[i].thread, &attr, job_run, &jobs[i]);
		pthread_attr_destroy(&attr);
		if (!jobs[i].started) {
			jobs[i].cpu = -1;
			job_run(&jobs[i]);
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		if (jobs[i].started)
			pthread_join(jobs[i].thread, NULL);
		if (failed >= 0)
			failed = jobs[i].failed < 0 ? jobs[i].failed : failed + jobs[i].failed;
	}
	return failed;
}

/* @prog over the positions of @a: in parallel for large ranges with CPUs to share them. */
static int64_t run_range(int prog_fd, const struct mb_fill *f, const struct mb_fill_args *a)
{
	uint32_t n = f->cpus ? (uint32_t)f->cpus->count : 1;
	struct job one = { .prog_fd = prog_fd, .a = *a, .cpu = f->on_cpu ? f->cpu : -1, .f = f };
	struct job *jobs;
	int64_t failed;

	if (n > MB_FILL_SLOTS)
		n = MB_FILL_SLOTS;
	/* Small ranges: threads cost more than they save. */
	if (a->count < MB_FILL_PARALLEL_MIN || n < 2) {
		job_run(&one);
		return one.failed;
	}
	jobs = calloc(n, sizeof(*jobs));
	if (!jobs)
		return -ENOMEM;
	failed = run_parallel(&one, jobs, n);
	free(jobs);
	return failed;
}

/* Write the entries of @f's range in the bucket order of its map into the data array. */
static int bucket_order(struct mb_filler *k, const struct mb_fill *f)
{
	struct mb_fill_args a = { .inner_key = f->inner_key };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &a, .ctx_size_in = sizeof(a));
	uint32_t *order;
	int err;

	if (f->count > k->count)
		return -ERANGE;
	if (bpf_prog_test_run_opts(bpf_program__fd(k->seed), &opts) || opts.retval)
		return -EIO;
	order = malloc(sizeof(uint32_t) * f->count);
	if (!order)
		return -ENOMEM;
	err = mb_bucket_order(f->first, f->count, k->key_size, k->skel->bss->mb_fill_rnd,
			      k->skel->bss->mb_fill_nbuckets, order);
	for (uint32_t i = 0; !err && i < f->count; i++)
		memcpy(k->data + i * k->data_stride, &order[i], sizeof(order[i]));
	free(order);
	return err;
}

/* The program for @op on @f's range, and its first position. */
static int choose(struct mb_filler *k, enum mb_fill_op op, const struct mb_fill *f,
		  struct bpf_program **prog, struct mb_fill_args *a, struct mb_fill_result *r)
{
	*prog = k->prog[op];
	r->order = MB_ORDER_KEY;
	if (op == MB_FILL_OP_FILL && f->order == MB_ORDER_BUCKET && k->order == MB_ORDER_BUCKET) {
		*prog = k->fill_order;
		r->order = MB_ORDER_BUCKET;
		return bucket_order(k, f);
	}
	if (k->push || k->src == SRC_GIVEN) {
		/* Positions in the data array, which holds the entries of the open's range. */
		if (f->first < k->first || f->first - k->first + (uint64_t)f->count > k->count)
			return -ERANGE;
		a->pos = f->first - k->first;
	}
	return *prog ? 0 : -EINVAL;
}

int mb_filler_run(enum mb_fill_op op, const struct mb_fill *f, struct mb_fill_result *r)
{
	struct mb_filler *k = f->filler, *own = NULL;
	struct mb_fill_args a = { .count = f->count, .slot = (__u64)f->slot,
				  .inner_key = f->inner_key, .first = f->first };
	struct bpf_program *prog;
	int64_t failed;
	int err;

	if (f->slot < 0 || f->slot >= MB_FILL_SLOTS)
		return -EINVAL;
	if (!k) {
		own = k = mb_filler_open(f, MB_FILL_OPS(op));
		if (!k)
			return -errno;
	}
	err = choose(k, op, f, &prog, &a, r);
	if (!err) {
		failed = run_range(bpf_program__fd(prog), f, &a);
		if (failed < 0)
			err = (int)failed;
		else
			r->failed = (uint64_t)failed;
	}
	mb_filler_close(own);
	return err;
}
