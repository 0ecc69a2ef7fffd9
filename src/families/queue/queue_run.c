// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Queue family: the run's hooks. The producer runs the bench's op in the kernel loop (a
 * round that fills or empties the map ends the call; the map is brought back to its level,
 * untimed) or by syscalls; the sample's op_ns; at the end, the check that every op did what
 * the bench says, read back from the program's counters, and that the map holds the entries
 * the counts imply, in order.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>

#include "queue.h"
#include "drivers/kloop.h"	/* struct mb_slot, before the skeleton */
#include "queue.skel.h"
#include "util/json.h"
#include "util/log.h"
#include "core/run.h"

/* Syscall path: ops between two publications of the counters. */
#define QU_SYS_CHUNK	256

static int qu_on_ret(struct mb_run *run, struct mb_producer *p, uint32_t ret, void *ctx)
{
	struct qu_state *st = ctx;
	int err;

	if (ret != MB_QU_RET_ROUND) {
		mb_err("%s: unexpected program return value %u", run->bench->name, ret);
		return -EPROTO;
	}
	err = qu_reset(st, st->level, p->cpu);
	st->resets++;
	if (err)
		mb_err("%s: cannot bring the map back to %u entries: %s", run->bench->name,
		       st->level, strerror(-err));
	return err;
}

static int qu_kernel_producer(struct mb_run *run, struct mb_producer *p)
{
	struct qu_state *st = run->priv;
	struct mb_kloop_cfg cfg = {
		.prog_fd = bpf_program__fd(st->progs[qu_info(st->bench)->prog]),
		.slots = st->skel->bss->mb_slots,
		.on_ret = qu_on_ret,
		.ctx = st,
	};
	int err = mb_kloop_produce(run, p, &cfg);

	mb_kloop_slot_counters(&st->skel->bss->mb_slots[p->idx], 1, &st->done);
	return err;
}

static uint64_t qu_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int qu_sys_op(struct qu_state *st)
{
	int err;

	switch (st->bench) {
	case QU_PUSH:
	case QU_PUSH_FULL:
		return qu_sys_push(st, 0);
	case QU_PUSH_OVERWRITE:
		return qu_sys_push(st, BPF_EXIST);
	case QU_POP:
	case QU_POP_EMPTY:
		return qu_sys_pop(st);
	case QU_PUSH_POP:
		err = qu_sys_push(st, 0);
		return err ? err : qu_sys_pop(st);
	default:
		return qu_sys_peek(st);
	}
}

/* As the programs count: the expected failure is a miss, a wrong value a mismatch. */
static void qu_sys_count(struct mb_counters *c, int err, int want)
{
	c->ops++;
	if (!err) {
		c->hits++;
	} else if (err == want && want) {
		c->misses++;
	} else {
		c->errors++;
		if (err == -EBADMSG)
			c->counter[MB_QU_MISMATCH]++;
	}
}

/* Syscalls one op makes: the hash map's pop is a lookup and a delete, its overwrite two. */
static uint64_t qu_sys_calls(const struct qu_state *st)
{
	bool hash = st->args->map_type == QU_HASH;

	switch (st->bench) {
	case QU_POP:
	case QU_PUSH_OVERWRITE:
		return hash ? 2 : 1;
	case QU_PUSH_POP:
		return hash ? 3 : 2;
	default:
		return 1;
	}
}

/* Whether the op just done ended a round (filled or emptied the map). */
static bool qu_sys_round(const struct qu_state *st)
{
	if (st->bench == QU_PUSH)
		return qu_level(st) >= st->args->max_entries;
	return st->bench == QU_POP && qu_level(st) == 0;
}

static int qu_sys_producer(struct mb_run *run, struct mb_producer *p)
{
	struct qu_state *st = run->priv;
	const struct qu_bench_info *info = qu_info(st->bench);
	int want = !info->fails ? 0 : info->prog == QU_P_PUSH ? -E2BIG : -ENOENT;
	struct mb_counters c = {};
	int err = 0;

	while (!err && !mb_run_should_stop(run)) {
		uint64_t t0 = qu_cpu_ns(), out = 0;

		for (int i = 0; i < QU_SYS_CHUNK && !err; i++) {
			qu_sys_count(&c, qu_sys_op(st), want);
			if (qu_sys_round(st)) {
				uint64_t w = mb_now_ns(), t = qu_cpu_ns();

				err = qu_reset(st, st->level, p->cpu);
				st->resets++;
				out += qu_cpu_ns() - t;
				c.excluded_ns += mb_now_ns() - w;
			}
		}
		c.calls = c.ops * qu_sys_calls(st);
		__atomic_add_fetch(&st->cpu_ns, qu_cpu_ns() - t0 - out, __ATOMIC_RELEASE);
		mb_producer_publish(p, &c);
	}
	st->done = c;
	if (err)
		mb_err("%s: cannot bring the map back to %u entries: %s", run->bench->name,
		       st->level, strerror(-err));
	return err;
}

int qu_producer(struct mb_run *run, struct mb_producer *p)
{
	const struct qu_args *a = run->args;

	if (a->path == QU_PATH_KERNEL)
		return qu_kernel_producer(run, p);
	return qu_sys_producer(run, p);
}

/* op_ns: in-kernel ns/op, or the producer's CPU ns/op on the syscall path (resets out). */
void qu_measure(struct mb_run *run, struct mb_sample *s)
{
	struct qu_state *st = run->priv;
	uint64_t now, ns;

	if (!s->total.ops)
		return;
	if (st->args->path == QU_PATH_KERNEL) {
		s->metric[0] = (double)s->total.kernel_ns / (double)s->total.ops;
		return;
	}
	now = __atomic_load_n(&st->cpu_ns, __ATOMIC_ACQUIRE);
	ns = now - st->last_cpu_ns;
	st->last_cpu_ns = now;
	s->metric[0] = (double)ns / (double)s->total.ops;
}

/* What the run did, for the JSON and the text's notes. */
static void qu_describe(struct mb_run *run, const struct qu_state *st)
{
	const struct qu_args *a = run->args;
	struct mb_json *x = mb_run_extra(run), *m = mb_json_child(x, "map");
	struct mb_json *rt = mb_json_child(x, "round_trip");

	mb_json_set_str(m, "type", qu_type_names[a->map_type]);
	mb_json_set_num(m, "max_entries", a->max_entries);
	mb_json_set_num(m, "value_size", a->value_size);
	mb_json_set_num(m, "level", st->level);
	mb_json_set_str(x, "op", qu_info(st->bench)->op);
	mb_json_set_str(x, "order", a->map_type == QU_STACK ? "LIFO" : "FIFO");
	mb_json_set_num(x, "resets", (double)st->resets);
	mb_json_set_num(rt, "values_checked", (double)st->checked);
	mb_json_set_str(rt, "how", "pushed in the kernel and popped from user space, then pushed from user space and popped in the kernel");
	mb_json_set_bool(rt, "equal", st->checked > 0);
}

/* The ops read back: every one did what the bench says, or the run fails. */
static bool qu_ops_ok(struct mb_run *run, const struct qu_state *st)
{
	const struct mb_counters *c = &st->done;
	bool fails = qu_info(st->bench)->fails;
	struct mb_json *chk = mb_json_child(mb_run_extra(run), "ops_checked");

	mb_json_set_num(chk, "ops", (double)c->ops);
	mb_json_set_num(chk, "succeeded", (double)c->hits);
	mb_json_set_num(chk, "failed_as_expected", (double)c->misses);
	mb_json_set_str(chk, "expected_failure", !fails ? "none" :
			qu_info(st->bench)->prog == QU_P_PUSH ? "-E2BIG" : "-ENOENT");
	mb_json_set_num(chk, "errors", (double)c->errors);
	mb_json_set_num(chk, "mismatches", (double)c->counter[MB_QU_MISMATCH]);
	if (c->ops && !c->errors &&
	    (fails ? c->misses == c->ops && !c->hits : c->hits == c->ops && !c->misses))
		return true;
	mb_run_fail(run, -EIO, "%llu ops read back from the program: %llu succeeded, %llu failed with %s, %llu errors (%llu values not the one due): %s",
		    (unsigned long long)c->ops, (unsigned long long)c->hits,
		    (unsigned long long)c->misses, fails ? "the expected error" : "an error",
		    (unsigned long long)c->errors,
		    (unsigned long long)c->counter[MB_QU_MISMATCH],
		    fails ? "every op must fail the expected way" : "every op must succeed");
	return false;
}

/*
 * The map holds what the counts say: pop every entry in the kernel (each value checked), then
 * one pop from user space must find the map empty.
 */
static void qu_left_ok(struct mb_run *run, struct qu_state *st)
{
	uint64_t left = qu_level(st);
	int err = qu_reset(st, 0, -1);
	struct mb_json *l = mb_json_child(mb_run_extra(run), "left");

	if (!err)
		err = qu_sys_pop(st) == -ENOENT ? 0 : -EIO;
	mb_json_set_num(l, "entries", (double)left);
	mb_json_set_bool(l, "in_order", !err);
	if (err)
		mb_run_fail(run, err, "the %llu entries the counts leave in the map did not pop in %s order, or more were there: %s",
			    (unsigned long long)left,
			    st->args->map_type == QU_STACK ? "LIFO" : "FIFO", strerror(-err));
}

void qu_finish(struct mb_run *run)
{
	struct qu_state *st = run->priv;

	qu_describe(run, st);
	if (qu_ops_ok(run, st))
		qu_left_ok(run, st);
	if (st->level && st->level < 1000 && (st->bench == QU_PUSH || st->bench == QU_POP))
		mb_run_warn(run, "rounds of %u ops (--nr_entries %u, --max_entries %u): each call's fixed cost (its entry and clock reads, tens of ns) is a visible part of ns/op below ~1000 ops a round",
			    st->bench == QU_POP ? st->level : st->args->max_entries - st->level,
			    st->level, st->args->max_entries);
}
