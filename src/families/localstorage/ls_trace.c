// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-tasks-trace, the kernel's bench of how task local storage slows RCU Tasks Trace
 * grace periods down with --nr_procs sleeping processes. It times each grace period by fentry
 * on rcu_tasks_trace_pregp_step and rcu_tasks_trace_postgp: no tracepoint covers them. Where
 * the kernel refuses BPF trampolines (or lacks the functions) the bench is skipped with one
 * sentence, before any process is started; the others of a run go on.
 */
#include <errno.h>
#include <stdint.h>

#include "core/bench.h"
#include "sys/probe.h"

#define GP_START	"rcu_tasks_trace_pregp_step"
#define GP_END		"rcu_tasks_trace_postgp"

struct ls_trace_args {
	uint32_t nr_procs;
	uint32_t kthread_pid;
};

static const struct mb_opt ls_trace_opts[] = {
	MB_OPT_U32_DEF("nr_procs", struct ls_trace_args, nr_procs, "1000", 1, 150000, "N",
		       "sleeping processes whose task local storage the grace periods walk"),
	MB_OPT_U32_DEF("kthread_pid", struct ls_trace_args, kthread_pid, "0", 0, 4194304, "PID",
		       "the rcu_tasks_trace kthread, for its ticks per grace period; 0: none"),
	MB_OPT_END,
};

static int ls_trace_setup(struct mb_run *run)
{
	char why[256];

	if (mb_probe_fentry(GP_START, why, sizeof(why)) || mb_probe_fentry(GP_END, why, sizeof(why)))
		return mb_run_skip(run, "timing RCU Tasks Trace grace periods needs fentry on %s and %s, which this kernel refuses: %s",
				   GP_START, GP_END, why);
	return mb_run_skip(run, "fentry works here, but mapbench's timed run of RCU Tasks Trace grace periods is not built yet (it needs a machine that allows trampolines to be tested on)");
}

/* Never reached while set-up skips every run: the timed run is not built yet. */
static int ls_trace_producer(struct mb_run *run, struct mb_producer *p)
{
	(void)run;
	(void)p;
	return -EOPNOTSUPP;
}

const struct mb_bench mb_bench_ls_tasks_trace = {
	.name = "local-storage-tasks-trace",
	.family = "localstorage",
	.desc = "RCU Tasks Trace grace-period latency with task local storage on --nr_procs sleepers (needs fentry), as the kernel's",
	.opts = ls_trace_opts,
	.args_size = sizeof(struct ls_trace_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,
	.map_types = MB_MAP_TYPES("task_storage"),
	.setup = ls_trace_setup,
	.producer = ls_trace_producer,
};
