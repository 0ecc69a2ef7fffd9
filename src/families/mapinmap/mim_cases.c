// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-in-map-replace: the cases. Each times one syscall at a time with the monotonic clock,
 * on the updater's CPU, and checks what it did right after (outside the time): the slot reads
 * back the new inner map's id (or nothing after a delete), the old inner map's id is gone, the
 * control array reads back the value written. The grace-period waits are counted around each
 * timed call, so a case counts only its own.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/membarrier.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <bpf/bpf.h>

#include "core/run.h"
#include "drivers/map_create.h"
#include "mim.h"

/* The timed call's time and waits go to @r. */
struct mim_op {
	struct mim_gp g0;
	uint64_t t0, cpu0;
	long nvcsw0;
};

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static long thread_sleeps(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? 0 : ru.ru_nvcsw;
}

static void op_begin(const struct mim_state *st, struct mim_op *op)
{
	mim_gp_read(st, &op->g0);
	op->nvcsw0 = thread_sleeps();
	op->cpu0 = thread_cpu_ns();
	op->t0 = mb_now_ns();
}

static void op_end(const struct mim_state *st, const struct mim_op *op, struct mim_result *r)
{
	uint64_t t1 = mb_now_ns(), cpu1 = thread_cpu_ns();
	double wall = (double)(t1 - op->t0), cpu = (double)(cpu1 - op->cpu0);
	struct mim_gp g;

	r->sleeps += (uint64_t)(thread_sleeps() - op->nvcsw0);
	/* The clock reads around the call count as CPU time: off-CPU time is never below 0. */
	r->offcpu_ns += wall > cpu ? wall - cpu : 0;
	mim_gp_read(st, &g);
	r->ns[r->done++] = wall;
	r->gp.sync_calls += g.sync_calls - op->g0.sync_calls;
	r->gp.sync_ns += g.sync_ns - op->g0.sync_ns;
	r->gp.exp_calls += g.exp_calls - op->g0.exp_calls;
	r->gp.exp_ns += g.exp_ns - op->g0.exp_ns;
}

/* After an update of @slot: it holds @id (0: nothing) and the map @old held is gone. */
static int check_slot(struct mb_run *run, struct mim_state *st, uint32_t slot, uint32_t id,
		      uint32_t old, struct mim_result *r)
{
	uint32_t got;
	int err = mim_slot_read(st, slot, &got), gone;

	if (err)
		return mb_run_fail(run, err, "cannot read slot %u of the outer map back: %s", slot,
				   strerror(-err));
	st->slot_id[slot] = id;
	if (got == id)
		r->verified++;
	if (!old)
		return 0;
	gone = mim_id_gone(old);
	if (gone < 0)
		return mb_run_fail(run, gone, "cannot look map id %u up: %s", old, strerror(-gone));
	r->old_gone += gone;
	return 0;
}

/* Put a new inner map in @slot (empty or not), timed into @r. */
static int put_one(struct mb_run *run, struct mim_state *st, uint32_t slot, struct mim_result *r)
{
	uint32_t old = st->slot_id[slot], id;
	int fd = mim_inner_create(st, run->args), err;
	struct mim_op op;

	if (fd < 0)
		return mb_run_fail(run, fd, "cannot create an inner map: %s", strerror(-fd));
	id = mb_map_id(fd);
	op_begin(st, &op);
	err = bpf_map_update_elem(st->outer_fd, &slot, &fd, BPF_ANY) ? -errno : 0;
	if (!err)
		op_end(st, &op, r);
	close(fd);	/* the outer map holds the only reference now */
	if (err)
		return mb_run_fail(run, err, "updating slot %u of the outer map fails: %s", slot,
				   strerror(-err));
	return check_slot(run, st, slot, id, old, r);
}

static int delete_one(struct mb_run *run, struct mim_state *st, uint32_t slot,
		      struct mim_result *r)
{
	uint32_t old = st->slot_id[slot];
	struct mim_op op;
	int err;

	op_begin(st, &op);
	err = bpf_map_delete_elem(st->outer_fd, &slot) ? -errno : 0;
	if (err)
		return mb_run_fail(run, err, "deleting slot %u of the outer map fails: %s", slot,
				   strerror(-err));
	op_end(st, &op, r);
	return check_slot(run, st, slot, 0, old, r);
}

static int control_one(struct mb_run *run, struct mim_state *st, uint32_t i,
		       struct mim_result *r)
{
	uint32_t slot = i % ((const struct mim_args *)run->args)->max_entries, got = ~i;
	struct mim_op op;
	int err;

	op_begin(st, &op);
	err = bpf_map_update_elem(st->control_fd, &slot, &i, BPF_ANY) ? -errno : 0;
	if (err)
		return mb_run_fail(run, err, "updating the control array fails: %s",
				   strerror(-err));
	op_end(st, &op, r);
	if (!bpf_map_lookup_elem(st->control_fd, &slot, &got) && got == i)
		r->verified++;
	return 0;
}

/* A bare synchronize_rcu(), as user space can ask for one: the grace period's own time. */
static int gp_one(struct mim_state *st, struct mim_result *r)
{
	struct mim_op op;

	op_begin(st, &op);
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0)) {
		r->err = -errno;
		return 1;	/* the case stops; the others run */
	}
	op_end(st, &op, r);
	r->verified++;	/* it returned 0: the kernel made the wait */
	return 0;
}

int mim_fill(struct mb_run *run)
{
	const struct mim_args *a = run->args;
	struct mim_state *st = run->priv;
	struct mim_result scratch = { .ns = st->res[MIM_INSERT].ns };

	for (uint32_t s = 0; s < a->max_entries; s++) {
		int err = put_one(run, st, s, &scratch);

		if (err)
			return err;
		scratch.done = 0;	/* untimed: the array is only somewhere to write */
	}
	return 0;
}

/* Op @i of case @c: its slot goes round the outer map's. */
static int case_op(struct mb_run *run, enum mim_case c, uint32_t i)
{
	struct mim_state *st = run->priv;
	uint32_t slot = i % ((const struct mim_args *)run->args)->max_entries;
	int err;

	switch (c) {
	case MIM_CONTROL:
		return control_one(run, st, i, &st->res[c]);
	case MIM_GP:
		return gp_one(st, &st->res[c]);
	case MIM_DELETE:
		err = delete_one(run, st, slot, &st->res[MIM_DELETE]);
		return err ? err : put_one(run, st, slot, &st->res[MIM_INSERT]);
	default:
		return put_one(run, st, slot, &st->res[c]);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void case_done(struct mim_state *st, struct mim_result *r)
{
	r->ran = !r->err;
	r->gp_known = st->gp != NULL;
	qsort(r->ns, r->done, sizeof(*r->ns), cmp_double);
}

/* Pin the calling thread to @cpu, keeping its mask in @old. */
static bool pin(int cpu, cpu_set_t *old)
{
	cpu_set_t set;

	if (cpu < 0 || pthread_getaffinity_np(pthread_self(), sizeof(*old), old))
		return false;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return !pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static int case_loop(struct mb_run *run, enum mim_case c)
{
	const struct mim_args *a = run->args;
	struct mim_state *st = run->priv;
	uint64_t end = mb_now_ns() + (uint64_t)a->max_case_ms * 1000000;
	int err = 0;

	for (uint32_t i = 0; i < a->nr_updates && !err && !mb_interrupted(); i++) {
		if (mb_now_ns() > end) {
			st->res[c].capped = true;
			if (c == MIM_DELETE)
				st->res[MIM_INSERT].capped = true;
			break;
		}
		err = case_op(run, c, i);
	}
	return err > 0 ? 0 : err;
}

static int reader_case(struct mb_run *run, struct mim_state *st)
{
	struct mim_result *r = &st->res[MIM_READER];
	uint64_t runs0, l0, f0;
	int err;

	mim_reader_stop(st->reader, &runs0, &l0, &f0);
	err = mim_reader_start(st->reader);
	if (err)
		return mb_run_fail(run, err, "the reader program does not run on CPU %d: %s",
				   st->cpu_reader, strerror(-err));
	err = case_loop(run, MIM_READER);
	mim_reader_stop(st->reader, &r->reader_runs, &r->reader_lookups, &r->reader_found);
	r->reader_runs -= runs0;
	r->reader_lookups -= l0;
	r->reader_found -= f0;
	return err;
}

int mim_case_run(struct mb_run *run, enum mim_case c)
{
	struct mim_state *st = run->priv;
	bool pinned;
	cpu_set_t old;
	int err;

	pinned = pin(st->cpu_updater, &old);
	err = c == MIM_READER ? reader_case(run, st) : case_loop(run, c);
	if (pinned)
		pthread_setaffinity_np(pthread_self(), sizeof(old), &old);
	case_done(st, &st->res[c]);
	if (c == MIM_DELETE)
		case_done(st, &st->res[MIM_INSERT]);
	return err;
}
