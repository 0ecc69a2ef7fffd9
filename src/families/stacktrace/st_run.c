// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * stacktrace family: the run's hooks. Set-up sizes the map (frames kept, buckets) and the
 * call's flags before load; each producer runs bpf_get_stackid() in the in-kernel op loop;
 * at the end the ops are read back from the program's counters and the map is walked from
 * user space, and a run whose ops did not happen as the options say fails.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "stacktrace.h"
#include "drivers/kloop.h"	/* struct mb_slot, before the skeleton */
#include "stacktrace.skel.h"
#include "sys/probe.h"
#include "util/json.h"

static uint64_t st_flags(const struct st_args *a)
{
	return (a->user ? MB_ST_USER_STACK : 0) | (a->reuse ? MB_ST_REUSE_STACKID : 0);
}

static int st_load(struct mb_run *run, struct st_state *st)
{
	const struct st_args *a = run->args;
	struct stacktrace_bpf *skel = stacktrace_bpf__open();
	int err;

	if (!skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	st->skel = skel;
	mb_loop_prepare(skel->skeleton, &run->loop);
	err = bpf_map__set_value_size(skel->maps.mb_st_map, a->depth * 8);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.mb_st_map, a->max_entries);
	if (err)
		return mb_run_fail(run, err, "cannot size the stack trace map: %s", strerror(-err));
	skel->rodata->mb_st_flags = st_flags(a);
	skel->rodata->mb_st_stacks = a->stacks;
	skel->rodata->mb_st_skip0 = a->user ? 0 : 1;
	err = stacktrace_bpf__load(skel);
	if (err) {
		char why[1024];

		mb_explain_load_error(err, "cannot load the BPF program and its stack trace map",
				      why, sizeof(why));
		return mb_run_fail(run, err, "%s (--depth %u: at most kernel.perf_event_max_stack frames)",
				   why, a->depth);
	}
	return 0;
}

int st_setup(struct mb_run *run)
{
	struct st_state *st = calloc(1, sizeof(*st));

	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	run->runner = "kernel-loop";
	return st_load(run, st);
}

void st_teardown(struct mb_run *run)
{
	struct st_state *st = run->priv;

	if (!st)
		return;
	stacktrace_bpf__destroy(st->skel);
	free(st);
	run->priv = NULL;
}

int st_producer(struct mb_run *run, struct mb_producer *p)
{
	struct st_state *st = run->priv;
	struct mb_kloop_cfg cfg = {
		.prog_fd = bpf_program__fd(st->skel->progs.mb_st_get_stackid),
		.slots = st->skel->bss->mb_slots,
	};
	int err = mb_kloop_produce(run, p, &cfg);

	mb_kloop_slot_counters(&st->skel->bss->mb_slots[p->idx], 1, &st->done[p->idx]);
	return err;
}

static void st_describe(struct mb_run *run, const struct st_args *a)
{
	struct mb_json *m = mb_json_child(mb_run_extra(run), "map");
	uint64_t buckets = 1;

	while (buckets < a->max_entries)
		buckets <<= 1;
	mb_json_set_str(m, "type", "stack_trace");
	mb_json_set_num(m, "max_entries", a->max_entries);
	mb_json_set_num(m, "buckets", (double)buckets);
	mb_json_set_num(m, "value_size", a->depth * 8);
	mb_json_set_num(m, "depth", a->depth);
	mb_json_set_str(m, "stack", a->user ? "user" : "kernel");
	mb_json_set_bool(m, "reuse_stackid", a->reuse);
	mb_json_set_num(m, "stacks", a->stacks);
}

/* The ops read back from the program: every call returned an id or (without reuse) -EEXIST. */
static bool st_ops_ok(struct mb_run *run, const struct mb_counters *c)
{
	const struct st_args *a = run->args;
	struct mb_json *chk = mb_json_child(mb_run_extra(run), "ops_checked");
	uint64_t enomem = c->counter[MB_ST_ENOMEM];

	mb_json_set_num(chk, "ops", (double)c->ops);
	mb_json_set_num(chk, "ids_returned", (double)c->hits);
	mb_json_set_num(chk, "eexist", (double)c->misses);
	mb_json_set_num(chk, "enomem", (double)enomem);
	mb_json_set_num(chk, "errors", (double)c->errors);
	if (c->ops && c->hits && !c->errors && c->hits + c->misses + enomem == c->ops &&
	    (a->reuse ? !c->misses : !enomem))
		return true;
	mb_run_fail(run, -EIO, "%llu calls read back from the program: %llu returned an id, %llu failed with -EEXIST, %llu with -ENOMEM, %llu with another error%s",
		    (unsigned long long)c->ops, (unsigned long long)c->hits,
		    (unsigned long long)c->misses, (unsigned long long)enomem,
		    (unsigned long long)c->errors,
		    c->errors ? " (-EFAULT: --stacks skips as many frames as the stack has)" : "");
	return false;
}

static void st_map_ok(struct mb_run *run, const struct st_state *st, const struct mb_counters *c)
{
	const struct st_args *a = run->args;
	struct mb_json *m = mb_json_child(mb_run_extra(run), "map_walk");
	struct st_walk w;
	int err = st_walk_map(bpf_map__fd(st->skel->maps.mb_st_map), a->depth, &w);

	if (err) {
		mb_run_fail(run, err, "cannot walk the stack trace map: %s", strerror(-err));
		return;
	}
	mb_json_set_num(m, "stack_ids", (double)w.ids);
	mb_json_set_num(m, "frames_mean", w.ids ? (double)w.frames / (double)w.ids : 0);
	mb_json_set_num(m, "frames_max", (double)w.max_frames);
	if (!w.ids || w.ids > a->max_entries || w.max_frames > a->depth)
		mb_run_fail(run, -EIO, "the map holds %llu stack ids (of at most %u), the longest of %llu frames (of %u kept), after %llu ids returned",
			    (unsigned long long)w.ids, a->max_entries,
			    (unsigned long long)w.max_frames, a->depth,
			    (unsigned long long)c->hits);
}

void st_finish(struct mb_run *run)
{
	struct st_state *st = run->priv;
	struct mb_counters sum = { 0 };

	for (int i = 0; i < run->nr_producers; i++) {
		sum.ops += st->done[i].ops;
		sum.hits += st->done[i].hits;
		sum.misses += st->done[i].misses;
		sum.errors += st->done[i].errors;
		sum.counter[MB_ST_ENOMEM] += st->done[i].counter[MB_ST_ENOMEM];
	}
	st_describe(run, run->args);
	if (st_ops_ok(run, &sum))
		st_map_ok(run, st, &sum);
}
