// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * LRU quality family: maps under test, pinned task threads and the two replay paths (the
 * bpf() syscall, or a program on the task's CPU).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/env.h"
#include "util/json.h"
#include "drivers/kloop.h"
#include "util/log.h"
#include "lru.skel.h"
#include "lru_common.h"
#include "lru_text.h"
#include "sys/probe.h"
#include "maps/maps.h"
#include "drivers/map_create.h"
#include "drivers/map_report.h"
#include "drivers/map_walk.h"
#include "core/runner.h"

const char *const lru_map_type_names[] = { "lru_hash", "lru_percpu_hash", NULL };
const char *const lru_flags_names[] = { "both", "common", "no_common", NULL };
const char *const lru_access_names[] = { "syscall", "bpf", NULL };

/* Operations per BPF_PROG_TEST_RUN call: a few ms of work, well below bpf_loop's limit. */
#define LRU_BPF_CHUNK		16384
/* Syscall replay: check for SIGINT every this many operations. */
#define LRU_STOP_CHECK		1024

int lru_variants(int map_type_sel, int flags_sel, struct lru_variant *v)
{
	int type = map_type_sel == 1 ? BPF_MAP_TYPE_LRU_PERCPU_HASH : BPF_MAP_TYPE_LRU_HASH;
	int n = 0;

	if (flags_sel == LRU_FLAGS_BOTH || flags_sel == LRU_FLAGS_COMMON)
		v[n++] = (struct lru_variant){ .type = type, .flags = 0 };
	if (flags_sel == LRU_FLAGS_BOTH || flags_sel == LRU_FLAGS_NO_COMMON)
		v[n++] = (struct lru_variant){ .type = type, .flags = BPF_F_NO_COMMON_LRU };
	return n;
}

const char *lru_type_name(int type)
{
	return type == BPF_MAP_TYPE_LRU_PERCPU_HASH ? "lru_percpu_hash" : "lru_hash";
}

const char *lru_flags_label(uint32_t flags)
{
	return flags & BPF_F_NO_COMMON_LRU ? "no_common" : "common";
}

uint32_t lru_map_entries(uint32_t flags, uint32_t per_task, uint32_t nr_tasks)
{
	uint64_t n;

	if (flags & BPF_F_NO_COMMON_LRU)
		n = (uint64_t)per_task * (uint64_t)libbpf_num_possible_cpus();
	else
		n = (uint64_t)per_task * nr_tasks;
	return n <= UINT32_MAX ? (uint32_t)n : 0;
}

/* ---- maps ---- */

static int create_plain(struct mb_run *run, struct lru_map *m)
{
	struct mb_map_desc d = { .type = mb_map_type_by_type(m->v.type), .name = "mb_lru",
				 .key_size = sizeof(uint64_t), .value_size = sizeof(uint64_t),
				 .max_entries = m->max_entries, .flags = m->v.flags };
	char what[96];

	snprintf(what, sizeof(what), "cannot create the %s map (%u entries, %s)",
		 lru_type_name(m->v.type), m->max_entries, lru_flags_label(m->v.flags));
	m->fd = mb_run_map_create(run, &d, what);
	return m->fd < 0 ? m->fd : 0;
}

/* The map (create_plain), handed to the replay program with its operations array. */
static int create_with_prog(struct mb_run *run, struct lru_map *m, size_t nr_ops)
{
	struct lru_bpf *skel;
	char why[1024];
	size_t len;
	void *mem;
	int err;

	if (nr_ops > UINT32_MAX)
		return mb_run_fail(run, -E2BIG, "%zu operations do not fit in one array map", nr_ops);
	err = create_plain(run, m);
	if (err)
		return err;
	m->skel = skel = lru_bpf__open();
	if (!skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	/* Not an instrumented bench (one shot, no reference): it picks the loop kind itself. */
	mb_loop_kind_pick(run->env->loop, &run->loop);
	mb_loop_prepare(skel->skeleton, &run->loop);
	bpf_map__set_max_entries(skel->maps.mb_lru_ops, nr_ops ? (uint32_t)nr_ops : 1);
	err = bpf_map__reuse_fd(skel->maps.mb_lru_map, m->fd);
	if (!err)
		err = lru_bpf__load(skel);
	if (err) {
		mb_explain_load_error(err, "cannot load the replay program", why, sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	len = (nr_ops ? nr_ops : 1) * sizeof(uint64_t);
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
		   bpf_map__fd(skel->maps.mb_lru_ops), 0);
	if (mem == MAP_FAILED)
		return mb_run_fail(run, -errno, "cannot mmap the operations array: %s",
				   strerror(errno));
	m->ops = mem;
	m->ops_len = nr_ops;
	return 0;
}

int lru_map_create(struct mb_run *run, struct lru_map *m, const struct lru_variant *v,
		   uint32_t max_entries, enum lru_access access, size_t nr_ops)
{
	int possible = libbpf_num_possible_cpus();
	int err;

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	m->v = *v;
	m->max_entries = max_entries;
	m->access = access;
	if (possible < 1)
		return mb_run_fail(run, possible, "cannot read the number of possible CPUs");
	m->nr_values = mb_map_value_bytes(mb_map_type_by_type(v->type), sizeof(uint64_t)) /
		       sizeof(uint64_t);
	err = access == LRU_ACCESS_BPF ? create_with_prog(run, m, nr_ops) : create_plain(run, m);
	/* What was made before a failure goes, as if nothing was. */
	if (err)
		lru_map_destroy(m);
	return err;
}

void lru_map_destroy(struct lru_map *m)
{
	if (m->ops)
		munmap(m->ops, (m->ops_len ? m->ops_len : 1) * sizeof(uint64_t));
	if (m->skel)
		lru_bpf__destroy(m->skel);
	if (m->fd >= 0)
		close(m->fd);
	memset(m, 0, sizeof(*m));
	m->fd = -1;
}

int lru_map_has(const struct lru_map *m, uint64_t key)
{
	uint64_t *val = calloc(m->nr_values, sizeof(*val));
	int ret;

	if (!val)
		return -ENOMEM;
	ret = bpf_map_lookup_elem(m->fd, &key, val) ? (errno == ENOENT ? 0 : -errno) : 1;
	free(val);
	return ret;
}

struct count_ctx {
	uint64_t stride;
	int nr_tasks;
	uint64_t *per_task;
};

/* A key of the walk: its task's count. */
static int count_key(const void *key, const void *value, void *ctx)
{
	const struct count_ctx *c = ctx;
	uint64_t k, t;

	(void)value;
	memcpy(&k, key, sizeof(k));
	t = c->stride ? k / c->stride : 0;
	if (c->per_task && t < (uint64_t)c->nr_tasks)
		c->per_task[t]++;
	return 0;
}

int lru_map_count(const struct lru_map *m, uint64_t stride, int nr_tasks, uint64_t *total,
		  uint64_t *per_task)
{
	struct count_ctx c = { .stride = stride, .nr_tasks = nr_tasks, .per_task = per_task };
	struct mb_walk w = { .fd = m->fd, .type = (int)m->v.type, .key_size = sizeof(uint64_t),
			     .value_bytes = m->nr_values * sizeof(uint64_t), .fn = count_key,
			     .ctx = &c };

	if (per_task)
		memset(per_task, 0, (size_t)nr_tasks * sizeof(*per_task));
	return mb_map_walk_keys(&w, total);
}

/* ---- tasks ---- */

int lru_max_tasks(const struct mb_run *run)
{
	const struct mb_env *env = run->env;

	return env->prod_cpus.count ? env->prod_cpus.count : env->online.count;
}

int lru_task_cpu(const struct mb_run *run, int i)
{
	const struct mb_env *env = run->env;
	const struct mb_cpuset *set = env->prod_cpus.count ? &env->prod_cpus : &env->online;
	int cpu = -1;

	for (int k = 0; k <= i; k++)
		cpu = mb_cpuset_next(set, cpu + 1);
	return cpu;
}

int lru_validate_tasks(struct mb_run *run, const char *opt, uint32_t nr_tasks)
{
	const struct mb_env *env = run->env;
	int max = lru_max_tasks(run);

	if (nr_tasks <= (uint32_t)max)
		return 0;
	if (env->prod_cpus.count)
		return mb_run_usage(run, "--%s %u: must be 1..%d (one task per CPU of --prod-affinity; refused rather than sharing a CPU, since the BPF LRU keeps its free lists per CPU)",
				    opt, nr_tasks, max);
	return mb_run_usage(run, "--%s %u: must be 1..%d (one task per online CPU; refused rather than sharing a CPU, since the BPF LRU keeps its free lists per CPU)",
			    opt, nr_tasks, max);
}

struct task_thread {
	struct lru_map *m;
	struct lru_task *t;
	size_t base;		/* --access bpf: first operation of the task in the array */
	int *go;		/* 0: wait, 1: run, -1: give up */
	int *ready;
	pthread_t thread;
};

/* Record why a task stopped: "@what: <errno text>". */
static void task_fail(struct lru_task *t, int err, const char *what)
{
	t->err = err;
	snprintf(t->errmsg, sizeof(t->errmsg), "%s: %s", what, strerror(-err));
}

static void replay_syscall(struct lru_map *m, struct lru_task *t)
{
	uint64_t *val = calloc(m->nr_values, sizeof(*val));
	uint64_t t0 = mb_now_ns();
	size_t i;

	if (!val) {
		task_fail(t, -ENOMEM, "value buffer");
		return;
	}
	for (i = 0; i < t->nr_ops; i++) {
		uint64_t key = t->ops[i] & MB_LRU_KEY_MASK;
		unsigned int op = (unsigned int)(t->ops[i] >> MB_LRU_OP_SHIFT);
		bool insert = op == MB_LRU_OP_INSERT;

		if (i % LRU_STOP_CHECK == 0 && mb_interrupted())
			break;
		if (op == MB_LRU_OP_ACCESS || op == MB_LRU_OP_LOOKUP) {
			t->syscalls++;
			if (!bpf_map_lookup_elem(m->fd, &key, val)) {
				t->hits++;
			} else if (errno == ENOENT) {
				t->misses++;
				insert = op == MB_LRU_OP_ACCESS;
			} else {
				task_fail(t, -errno, "lookup");
				break;
			}
		}
		if (!insert)
			continue;
		t->syscalls++;
		val[0] = key;
		if (bpf_map_update_elem(m->fd, &key, val, BPF_NOEXIST)) {
			/* The LRU found no element to reuse: a quality result, not a failure. */
			if (errno != ENOMEM && errno != E2BIG && errno != EBUSY) {
				task_fail(t, -errno, "insert");
				break;
			}
			if (!t->insert_failures++)
				t->insert_errno = errno;
		}
	}
	t->done = i;
	t->wall_ns = mb_now_ns() - t0;
	free(val);
}

static void replay_bpf(struct lru_map *m, struct lru_task *t, size_t base)
{
	struct mb_slot *slot = &m->skel->bss->mb_slots[t->idx];
	int prog_fd = bpf_program__fd(m->skel->progs.mb_lru_replay);
	struct mb_slot before;
	uint64_t t0;
	size_t done = 0;

	slot->cursor = base;
	before = *slot;
	t0 = mb_now_ns();
	while (done < t->nr_ops && !mb_interrupted()) {
		size_t n = t->nr_ops - done < LRU_BPF_CHUNK ? t->nr_ops - done : LRU_BPF_CHUNK;
		int ret = mb_kloop_call(prog_fd, t->idx, n, t->cpu);

		t->syscalls++;
		if (ret < 0) {
			task_fail(t, ret, "BPF_PROG_TEST_RUN");
			break;
		}
		if (ret != MB_RET_OK) {
			t->err = -EINVAL;
			snprintf(t->errmsg, sizeof(t->errmsg),
				 "the replay program stopped at operation %llu (code %d)",
				 (unsigned long long)(slot->cursor - base), ret);
			break;
		}
		done += n;
	}
	t->wall_ns = mb_now_ns() - t0;
	t->done = slot->cursor - base;
	t->hits = slot->hits - before.hits;
	t->misses = slot->misses - before.misses;
	t->insert_failures = slot->errors - before.errors;
	t->kernel_ns = slot->kernel_ns - before.kernel_ns;
}

static void *task_main(void *arg)
{
	struct task_thread *tt = arg;
	struct lru_task *t = tt->t;
	struct timespec ts = { .tv_nsec = 50000 };
	int go;

	/* Pinned by the thread's attributes; the BPF LRU's per-CPU lists make this matter. */
	if (sched_getcpu() != t->cpu) {
		t->err = -EXDEV;
		snprintf(t->errmsg, sizeof(t->errmsg), "runs on CPU %d although pinned",
			 sched_getcpu());
	}
	__atomic_add_fetch(tt->ready, 1, __ATOMIC_RELEASE);
	while (!(go = __atomic_load_n(tt->go, __ATOMIC_ACQUIRE)))
		nanosleep(&ts, NULL);
	if (go < 0 || t->err)
		return NULL;
	if (tt->m->access == LRU_ACCESS_BPF)
		replay_bpf(tt->m, t, tt->base);
	else
		replay_syscall(tt->m, t);
	return NULL;
}

int lru_run_tasks(struct mb_run *run, struct lru_map *m, struct lru_task *tasks, int nr)
{
	struct task_thread *tt = calloc((size_t)nr, sizeof(*tt));
	struct timespec ts = { .tv_nsec = 50000 };
	int go = 0, ready = 0, started = 0, err = 0;
	sigset_t block, old;

	if (!tt)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	for (int i = 0; i < nr; i++) {
		struct lru_task *t = &tasks[i];

		tt[i] = (struct task_thread){ .m = m, .t = t, .go = &go, .ready = &ready };
		t->done = t->hits = t->misses = t->insert_failures = t->syscalls = 0;
		t->wall_ns = t->kernel_ns = 0;
		t->insert_errno = t->err = 0;
		t->errmsg[0] = '\0';
		if (m->access != LRU_ACCESS_BPF)
			continue;
		if (m->ops_used + t->nr_ops > m->ops_len) {
			free(tt);
			return mb_run_fail(run, -E2BIG, "the operations array is too small");
		}
		/* Each task its own region: tasks never share key buffers. */
		tt[i].base = m->ops_used;
		memcpy(m->ops + m->ops_used, t->ops, t->nr_ops * sizeof(*t->ops));
		m->ops_used += t->nr_ops;
	}
	/* Only the main thread takes SIGINT/SIGTERM; tasks poll mb_interrupted(). */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (; started < nr; started++) {
		pthread_attr_t attr;
		cpu_set_t cpus;

		CPU_ZERO(&cpus);
		CPU_SET(tasks[started].cpu, &cpus);
		pthread_attr_init(&attr);
		pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
		err = -pthread_create(&tt[started].thread, &attr, task_main, &tt[started]);
		pthread_attr_destroy(&attr);
		if (err) {
			mb_run_fail(run, err, "cannot start task %d pinned to CPU %d: %s", started,
				    tasks[started].cpu, strerror(-err));
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* Start them together, as test_lru_dist's forked tasks run side by side. */
	while (!err && __atomic_load_n(&ready, __ATOMIC_ACQUIRE) < started)
		nanosleep(&ts, NULL);
	__atomic_store_n(&go, err ? -1 : 1, __ATOMIC_RELEASE);
	for (int i = 0; i < started; i++)
		pthread_join(tt[i].thread, NULL);
	free(tt);
	if (err)
		return err;
	for (int i = 0; i < nr; i++)
		if (tasks[i].err)
			return mb_run_fail(run, tasks[i].err, "task %d on CPU %d: %s", i,
					   tasks[i].cpu, tasks[i].errmsg);
	return 0;
}

/* ---- reporting ---- */

int lru_setup_begin(struct mb_run *run, enum lru_access access, size_t size)
{
	char why[512];

	run->priv = calloc(1, size);
	if (!run->priv)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->runner = access == LRU_ACCESS_BPF ? "kernel-loop" : "syscall";
	if (access == LRU_ACCESS_BPF && mb_probe_kernel_loop(why, sizeof(why)))
		return mb_run_skip(run, "--access bpf: %s", why);
	return 0;
}

struct mb_json *lru_extra(struct mb_run *run, enum lru_access access)
{
	struct mb_json *extra = mb_run_extra(run);

	mb_json_set_str(extra, "access", lru_access_names[access]);
	mb_json_set_num(extra, "possible_cpus", libbpf_num_possible_cpus());
	return extra;
}

int lru_run_variants(struct mb_run *run, enum lru_access access,
		     const struct lru_variant *planned, int nr, const void *found,
		     int (*run_variant)(struct mb_run *run, int vi, struct mb_json *variants))
{
	struct mb_json *variants = mb_json_array(), *not_run = mb_json_array();
	int err = 0, vi;

	for (vi = 0; vi < nr && !err && !mb_interrupted(); vi++)
		err = run_variant(run, vi, variants);
	/* A signal stops the maps after the one it came during: say which did not run. */
	for (; !err && vi < nr; vi++) {
		struct mb_json *o = mb_json_object();

		mb_json_set_str(o, "map_type", lru_type_name(planned[vi].type));
		mb_json_set_str(o, "lru", lru_flags_label(planned[vi].flags));
		mb_json_append(not_run, o);
	}
	mb_json_set(mb_run_extra(run), "variants", variants);
	mb_json_set(mb_run_extra(run), "not_run", not_run);
	mb_run_partial(run, &(struct lru_text_view){ .access = access, .found = found, .nr = nr,
						     .summary = !err });
	return err;
}

void lru_report_memory(struct mb_run *run, const struct lru_map *m)
{
	char label[64];

	snprintf(label, sizeof(label), "%s_%s", lru_type_name(m->v.type),
		 lru_flags_label(m->v.flags));
	mb_run_report_map_memory(run, label, m->fd, m->max_entries);
}
