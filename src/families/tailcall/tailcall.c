// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The tailcall benches: a tail call through a prog_array, one that misses (an empty slot),
 * a direct BPF-to-BPF call doing the same work, and the empty op at the same call size, each
 * TC_OPS_PER_CALL ops per test_run call of the in-kernel op loop (tailcall.bpf.c says how).
 */
#include <errno.h>
#include <linux/types.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/bench.h"
#include "drivers/kloop.h"
#include "sys/probe.h"
#include "util/json.h"
#include "tailcall_shared.h"	/* before the skeleton, which uses its struct */
#include "tailcall.skel.h"
#include "tailcall.h"
#include "drivers/slots.h"

#define TC_SLOT_UPDATES 200	/* BPF_MAP_UPDATE_ELEM timed after prog-array-tail-call */

static const char *const tc_ops[] = {
	[TC_CASE_TAIL] = "a call of a subprogram that tail-calls (constant key) a program that adds 1 to a counter and returns",
	[TC_CASE_TAIL_VAR] = "a call of a subprogram that tail-calls (key read from memory) a program that adds 1 to a counter and returns",
	[TC_CASE_MISS] = "a call of a subprogram whose tail call (constant key) finds an empty slot, falls through, adds 1 to a counter and returns",
	[TC_CASE_DIRECT] = "a call of a subprogram that adds 1 to a counter and returns (a BPF-to-BPF call)",
	[TC_CASE_EMPTY] = "nothing: the in-kernel loop's own cost per op at 32 ops per call, which every case here includes",
};

static enum tc_case tc_case_of(const struct mb_run *run)
{
	const char *n = run->bench->name;

	if (!strcmp(n, "prog-array-tail-call"))
		return TC_CASE_TAIL;
	if (!strcmp(n, "prog-array-tail-call-var"))
		return TC_CASE_TAIL_VAR;
	if (!strcmp(n, "prog-array-tail-miss"))
		return TC_CASE_MISS;
	if (!strcmp(n, "bpf-direct-call"))
		return TC_CASE_DIRECT;
	return TC_CASE_EMPTY;
}

static struct bpf_program *tc_prog(const struct tailcall_bpf *skel, enum tc_case c)
{
	struct bpf_program *progs[] = {
		[TC_CASE_TAIL] = skel->progs.mb_tc_tail, [TC_CASE_TAIL_VAR] = skel->progs.mb_tc_var,
		[TC_CASE_MISS] = skel->progs.mb_tc_miss,
		[TC_CASE_DIRECT] = skel->progs.mb_tc_direct, [TC_CASE_EMPTY] = skel->progs.mb_tc_empty,
	};

	return progs[c];
}

static int tc_setup(struct mb_run *run)
{
	uint32_t key = TC_SLOT_HIT;
	struct tailcall_bpf *skel;
	char why[1024];
	enum tc_case c = tc_case_of(run);
	int err, fd;

	/* The verifier refuses a tail call inside a bpf_loop callback. */
	if (run->loop.kind == MB_LOOP_BPF_LOOP && c != TC_CASE_DIRECT && c != TC_CASE_EMPTY)
		return mb_run_skip(run, "the bpf_loop loop: the verifier refuses a tail call in a bpf_loop callback (the may_goto loop, kernel 6.9 or later, runs it)");
	skel = tailcall_bpf__open();
	if (!skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	mb_loop_prepare(skel->skeleton, &run->loop);
	/* Only this case's loop: the others' bpf_loop twins hold tail calls the verifier refuses. */
	for (int i = TC_CASE_TAIL; i <= TC_CASE_EMPTY; i++)
		if (i != (int)c)
			bpf_program__set_autoload(tc_prog(skel, i), false);
	err = tailcall_bpf__load(skel);
	if (err) {
		tailcall_bpf__destroy(skel);
		mb_explain_load_error(err, "cannot load the BPF programs", why, sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	run->priv = skel;
	run->runner = "kernel-loop";
	fd = bpf_program__fd(skel->progs.mb_tc_target);
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.mb_tc_progs), &key, &fd, BPF_ANY))
		return mb_run_fail(run, -errno, "cannot put mb_tc_target in prog_array slot %u: %s",
				   key, strerror(errno));
	return 0;
}

static void tc_teardown(struct mb_run *run)
{
	tailcall_bpf__destroy(run->priv);
	run->priv = NULL;
}

static int tc_producer(struct mb_run *run, struct mb_producer *p)
{
	struct tailcall_bpf *skel = run->priv;
	struct mb_kloop_cfg cfg = {
		.prog_fd = bpf_program__fd(tc_prog(skel, tc_case_of(run))),
		.slots = skel->bss->mb_slots,
		.fixed_iters = TC_OPS_PER_CALL,
	};

	return mb_kloop_produce(run, p, &cfg);
}

/* What the callees counted, beside the ops the loop ran: they must agree. */
static void tc_check_ops(struct mb_run *run, enum tc_case c, struct mb_json *extra)
{
	const struct tailcall_bpf *skel = run->priv;
	uint64_t ops, hits, target = 0, fell = 0, want_target, want_fell;
	struct mb_json *o = mb_json_object();
	struct mb_slot sum;

	mb_slots_sum(skel->bss->mb_slots, run->nr_producers, &sum);
	ops = sum.ops;
	hits = sum.hits;
	for (int i = 0; i < run->nr_producers; i++) {
		target += skel->bss->mb_tc_counts[i].target;
		fell += skel->bss->mb_tc_counts[i].fell;
	}
	want_target = c == TC_CASE_TAIL || c == TC_CASE_TAIL_VAR || c == TC_CASE_DIRECT ? ops : 0;
	want_fell = c == TC_CASE_MISS ? ops : 0;
	mb_json_set_num(o, "ops", (double)ops);
	mb_json_set_num(o, "as_expected", (double)hits);
	mb_json_set_num(o, "target_runs", (double)target);
	mb_json_set_num(o, "fell_through", (double)fell);
	mb_json_set_bool(o, "ok", target == want_target && fell == want_fell && hits == ops);
	mb_json_set(extra, "ops_checked", o);
	if (target != want_target || fell != want_fell || hits != ops)
		mb_run_warn(run, "the callees counted %llu target runs and %llu fall-throughs, %llu ops returned as expected, for %llu ops run",
			    (unsigned long long)target, (unsigned long long)fell,
			    (unsigned long long)hits, (unsigned long long)ops);
}

static void tc_finish(struct mb_run *run)
{
	struct tailcall_bpf *skel = run->priv;
	struct mb_json *extra = mb_run_extra(run);
	enum tc_case c = tc_case_of(run);
	int err;

	mb_json_set_str(extra, "op", tc_ops[c]);
	mb_json_set_str(extra, "method", "in-kernel op loop (may_goto), 32 ops per test_run call, timed with bpf_ktime_get_ns() around the loop inside the program: each op's figure includes the loop's per-call cost spread over 32 ops (bpf-call-empty measures it)");
	mb_json_set_num(extra, "ops_per_call", TC_OPS_PER_CALL);
	mb_json_set_str(extra, "limit", "one program run makes at most 33 tail calls (MAX_TAIL_CALL_CNT), its subprograms' included: hence 32 ops per call");
	tc_check_ops(run, c, extra);
	if (c != TC_CASE_TAIL)
		return;
	err = tc_time_slot_update(bpf_map__fd(skel->maps.mb_tc_progs), TC_SLOT_HIT,
				  bpf_program__fd(skel->progs.mb_tc_target), TC_SLOT_UPDATES, extra);
	if (err)
		mb_run_warn(run, "cannot update prog_array slot %u: %s", TC_SLOT_HIT,
			    strerror(-err));
}

#define TC_BENCH(_var, _name, _desc, _flags, _types)					\
const struct mb_bench _var = {								\
	.name = _name,									\
	.family = "tailcall",								\
	.desc = _desc,									\
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_OP_CALLS | (_flags),			\
	.map_types = _types,								\
	.instrument = &mb_kloop_instrument,						\
	.text = &tailcall_text_ops,							\
	.setup = tc_setup,								\
	.producer = tc_producer,							\
	.finish = tc_finish,								\
	.teardown = tc_teardown,							\
}

TC_BENCH(mb_bench_prog_array_tail_call, "prog-array-tail-call",
	 "a tail call through a prog_array from a subprogram, 32 per call: ns/op", 0,
	 MB_MAP_TYPES("prog_array"));
TC_BENCH(mb_bench_prog_array_tail_call_var, "prog-array-tail-call-var",
	 "the same tail call with a key read from memory (not a constant), 32 per call: ns/op", 0,
	 MB_MAP_TYPES("prog_array"));
TC_BENCH(mb_bench_prog_array_tail_miss, "prog-array-tail-miss",
	 "a tail call to an empty prog_array slot, which falls through, 32 per call: ns/op", 0,
	 MB_MAP_TYPES("prog_array"));
TC_BENCH(mb_bench_bpf_direct_call, "bpf-direct-call",
	 "a direct BPF-to-BPF call doing the tail call's work, 32 per call: ns/op", 0, NULL);
TC_BENCH(mb_bench_bpf_call_empty, "bpf-call-empty",
	 "the empty op at 32 per call: the loop cost the tail and direct calls include", 0,
	 NULL);
