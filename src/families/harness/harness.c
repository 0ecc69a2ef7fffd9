// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bpf-noop: the in-kernel op loop with an empty operation. Its ns/op is the loop overhead
 * that every in-kernel figure includes (and --net subtracts).
 * bpf-loop: the bpf_loop helper's cost per callback iteration, as the kernel's bench reports.
 */
#include <errno.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "core/bench.h"
#include "drivers/kloop.h"
#include "maps/map_opts.h"
#include "sys/probe.h"
#include "harness.skel.h"
#include "util/json.h"
#include "harness.h"
#include "drivers/slots.h"

struct bpf_loop_args {
	uint32_t nr_loops;
};

static const struct mb_opt bpf_loop_opts[] = {
	MB_OPT_NR_LOOPS(struct bpf_loop_args, nr_loops, "10",
			"Callback iterations per bpf_loop call"),
	MB_OPT_END,
};

static int harness_load(struct mb_run *run, uint32_t nr_loops)
{
	struct harness_bpf *skel;
	int err;

	skel = harness_bpf__open();
	if (!skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	mb_loop_prepare(skel->skeleton, &run->loop);
	skel->rodata->mb_nr_loops = nr_loops;
	err = harness_bpf__load(skel);
	if (err) {
		char why[1024];

		harness_bpf__destroy(skel);
		mb_explain_load_error(err, "cannot load the BPF programs", why, sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	run->priv = skel;
	run->runner = "kernel-loop";
	return 0;
}

static void harness_teardown(struct mb_run *run)
{
	harness_bpf__destroy(run->priv);
	run->priv = NULL;
}

static int noop_setup(struct mb_run *run)
{
	return harness_load(run, 1);
}

static int noop_producer(struct mb_run *run, struct mb_producer *p)
{
	struct harness_bpf *skel = run->priv;
	struct mb_kloop_cfg cfg = {
		.prog_fd = bpf_program__fd(skel->progs.mb_noop),
		.slots = skel->bss->mb_slots,
		.every_op_hits = true,
	};

	return mb_kloop_produce(run, p, &cfg);
}

static int bpf_loop_setup(struct mb_run *run)
{
	const struct bpf_loop_args *args = run->args;

	return harness_load(run, args->nr_loops);
}

static int bpf_loop_producer(struct mb_run *run, struct mb_producer *p)
{
	const struct bpf_loop_args *args = run->args;
	struct harness_bpf *skel = run->priv;
	struct mb_kloop_cfg cfg = {
		.prog_fd = bpf_program__fd(skel->progs.mb_bpf_loop),
		.slots = skel->bss->mb_slots,
		.ops_per_iter = args->nr_loops,
	};

	return mb_kloop_produce(run, p, &cfg);
}

static void bpf_loop_finish(struct mb_run *run)
{
	struct harness_bpf *skel = run->priv;
	const struct bpf_loop_args *args = run->args;
	struct mb_slot sum;
	uint64_t outer, inner;

	/* Every helper call must have run all its iterations, or the ops count is wrong. */
	mb_slots_sum(skel->bss->mb_slots, run->nr_producers, &sum);
	outer = sum.ops;
	inner = sum.hits;
	if (inner != outer * args->nr_loops)
		mb_run_warn(run, "bpf_loop ran %llu callback iterations, %llu expected",
			    (unsigned long long)inner,
			    (unsigned long long)(outer * args->nr_loops));
	mb_json_set_num(mb_run_extra(run), "helper_calls", (double)outer);
}

const struct mb_bench mb_bench_bpf_noop = {
	.name = "bpf-noop",
	.family = "harness",
	.desc = "in-kernel op loop with an empty operation: the loop overhead in ns/op",
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_EMPTY_OP,
	.instrument = &mb_kloop_instrument,
	.text = &harness_text_ops,
	.setup = noop_setup,
	.producer = noop_producer,
	.teardown = harness_teardown,
};

const struct mb_bench mb_bench_bpf_loop = {
	.name = "bpf-loop",
	.family = "harness",
	.desc = "bpf_loop helper: cost per callback iteration (--nr_loops per call)",
	.opts = bpf_loop_opts,
	.args_size = sizeof(struct bpf_loop_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_OP_CALLS,
	.instrument = &mb_kloop_instrument,
	.text = &harness_text_ops,
	.setup = bpf_loop_setup,
	.producer = bpf_loop_producer,
	.finish = bpf_loop_finish,
	.teardown = harness_teardown,
};
