// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-tasks-trace, the kernel's bench of how task local storage loads RCU Tasks
 * Trace with --nr_procs sleeping processes. The producer calls getpgid() without pause, the
 * sleepers once every 0 to 3 s; each call creates, writes and deletes the caller's task
 * storage, and each delete gives RCU Tasks Trace something to wait for. Grace periods are
 * timed by fentry on rcu_tasks_trace_pregp_step and rcu_tasks_trace_postgp (no tracepoint
 * covers them) and, with --kthread_pid, charged the kthread's system ticks. Where the kernel
 * refuses BPF trampolines (or lacks the functions) the bench is skipped with one sentence,
 * before any process is started; the others of a run go on.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bench.h"
#include "drivers/trigger.h"
#include "ls_trace.h"
#include "ls_trace_shared.h"
#include "sys/probe.h"
#include "util/json.h"
#include "util/log.h"

static const struct mb_opt ls_trace_opts[] = {
	MB_OPT_U32_DEF("nr_procs", struct ls_trace_args, nr_procs, "1000", 1, LS_TRACE_MAX_PROCS,
		       "N", "sleeping processes whose task local storage the grace periods walk"),
	MB_OPT_U32_DEF("kthread_pid", struct ls_trace_args, kthread_pid, "0", 0, 4194304, "PID",
		       "the rcu_tasks_trace kthread, for its ticks per grace period; 0: none"),
	MB_OPT_END,
};

static const struct mb_metric_desc ls_trace_metrics[] = {
	[LS_TRACE_M_GP] = { "grace_periods", "grace periods" },
	[LS_TRACE_M_GP_NS] = { "gp_time", "ns" },
	[LS_TRACE_M_TICKS] = { "kthread_ticks", "ticks" },
	{ NULL, NULL },
};

/*
 * Before anything starts: the sleepers must fit in the kernel's task limits (a fork failing
 * half-way would fail the run after minutes of forking), and the kthread must be there to be
 * read: /proc/PID/stat, its system time in ticks.
 */
static int ls_trace_validate(struct mb_run *run)
{
	const struct ls_trace_args *a = run->args;
	uint64_t room;
	char why[256];
	long stime;
	int err;

	if (!ls_trace_procs_limit(&room, why, sizeof(why)) && a->nr_procs > room)
		return mb_run_bad_num(run, "nr_procs", a->nr_procs,
				      "1..%llu here (%s)", (unsigned long long)room, why);
	if (!a->kthread_pid)
		return 0;
	err = ls_trace_read_stime(a->kthread_pid, &stime);
	if (!err)
		return 0;
	return mb_run_bad_num(run, "kthread_pid", a->kthread_pid,
			      "0 (none) or a running task's pid (/proc/%u/stat: %s)", a->kthread_pid,
			      strerror(-err));
}

static bool ls_trace_no_gp(void)
{
	const char *v = getenv(LS_TRACE_NO_GP_ENV);

	return v && *v && strcmp(v, "0");
}

/* The fentry programs need BPF trampolines and both functions: asked before anything starts. */
static int ls_trace_probe(struct mb_run *run)
{
	char why[256];

	if (ls_trace_no_gp())
		return 0;
	if (mb_probe_fentry(LS_TRACE_GP_START, why, sizeof(why)) ||
	    mb_probe_fentry(LS_TRACE_GP_END, why, sizeof(why)))
		return mb_run_skip(run, "timing RCU Tasks Trace grace periods needs fentry on %s and %s, which this kernel refuses: %s",
				   LS_TRACE_GP_START, LS_TRACE_GP_END, why);
	return 0;
}

static int ls_trace_spawn_failed(struct mb_run *run, const struct ls_trace_procs *p, int err)
{
	const struct ls_trace_args *a = run->args;
	unsigned long long each;

	if (err != -ENOMEM || !p->avail)
		return mb_run_fail(run, err, "cannot fork %u sleeping processes (%u forked): %s",
				   a->nr_procs, p->made, strerror(-err));
	if (!p->made)
		return mb_run_fail(run, err, "cannot fork %u sleeping processes: MemAvailable is %llu MiB, under the %llu MiB kept free",
				   a->nr_procs, (unsigned long long)(p->avail >> 20),
				   LS_TRACE_MEM_FLOOR >> 20);
	each = p->avail0 > p->avail ? (p->avail0 - p->avail) / p->made >> 10 : 0;
	return mb_run_fail(run, err, "cannot fork %u sleeping processes: after %u, MemAvailable was %llu MiB, under the %llu MiB kept free (about %llu KiB each)",
			   a->nr_procs, p->made, (unsigned long long)(p->avail >> 20),
			   LS_TRACE_MEM_FLOOR >> 20, each);
}

static int ls_trace_setup(struct mb_run *run)
{
	const struct ls_trace_args *a = run->args;
	struct ls_trace_state *st;
	char why[512];
	int err = ls_trace_probe(run);

	if (err)
		return err;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	run->priv = st;
	st->ticks_last = -1;
	/* As the kernel's: the sleepers first, then the programs. */
	err = ls_trace_procs_spawn(&st->procs, a->nr_procs,
				   mb_trigger_arg(LS_TRACE_OP_GET, LS_TRACE_SLEEPER_SLOT),
				   LS_TRACE_MEM_FLOOR);
	if (err)
		return ls_trace_spawn_failed(run, &st->procs, err);
	mb_info("Spun up %u procs (our pid %d)", a->nr_procs, (int)getpid());
	err = ls_trace_load(run, st, ls_trace_no_gp());
	if (err) {
		mb_explain_load_error(err, "cannot load the storage and grace-period programs", why,
				      sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	ls_trace_read(st, &st->last);
	if (a->kthread_pid && ls_trace_read_stime(a->kthread_pid, &st->ticks_last))
		st->ticks_last = -1;
	return 0;
}

static int ls_trace_producer(struct mb_run *run, struct mb_producer *p)
{
	struct ls_trace_state *st = run->priv;

	return mb_trigger_produce(run, p, &st->trig, LS_TRACE_OP_GET);
}

/* Each sample's grace periods, their time and the kthread's ticks, as the kernel's measure. */
static void ls_trace_measure(struct mb_run *run, struct mb_sample *s)
{
	const struct ls_trace_args *a = run->args;
	struct ls_trace_state *st = run->priv;
	struct ls_trace_counts c;
	long ticks = -1;

	ls_trace_read(st, &c);
	if (a->kthread_pid && ls_trace_read_stime(a->kthread_pid, &ticks))
		ticks = -1;
	ls_trace_fill_sample(s, &st->last, &c, st->ticks_last, ticks);
	st->last = c;
	st->ticks_last = ticks;
}

/* extra: the run's set-up and the programs' counts behind the figures. */
static void ls_trace_report(struct mb_run *run, const struct ls_trace_state *st,
			    const struct ls_trace_totals *t)
{
	const struct ls_trace_args *a = run->args;
	struct mb_json *x = mb_run_extra(run);
	struct ls_trace_counts c;

	ls_trace_read(st, &c);
	mb_trigger_report(&st->trig, x);
	mb_json_set_num(x, "nr_procs", a->nr_procs);
	mb_json_set_num(x, "pid", (double)getpid());
	mb_json_set(x, "gp_attach", st->gp_loaded ?
		    mb_json_string("fentry/" LS_TRACE_GP_START ", fentry/" LS_TRACE_GP_END) :
		    mb_json_null());
	mb_json_set_num(x, "grace_periods", (double)t->gp);
	mb_json_set_num(x, "grace_periods_all", (double)c.gp_hits);
	mb_json_set_num(x, "gp_unexpected", (double)c.unexpected);
	mb_json_set_num(x, "gp_untimed", (double)c.untimed);
	mb_json_set_num(x, "sleeper_gets", (double)c.sleeper_gets);
	mb_json_set_num(x, "get_fails", (double)c.get_fails);
	mb_json_set(x, "kthread_pid", a->kthread_pid ? mb_json_number(a->kthread_pid) :
						      mb_json_null());
}

/* Before a figure is reported: storage was made and deleted, grace periods ended in order. */
static void ls_trace_check(struct mb_run *run, const struct ls_trace_state *st,
			   const struct ls_trace_totals *t)
{
	const struct ls_trace_args *a = run->args;
	struct ls_trace_counts c;
	char why[512];
	int err;

	ls_trace_read(st, &c);
	err = ls_trace_verdict(&c, t, st->gp_loaded, why, sizeof(why));
	if (err) {
		mb_run_fail(run, err, "%s", why);
		return;
	}
	if (t->without_gp)
		mb_run_warn(run, "%d of %d samples saw no grace period end: the figures are over the other %d",
			    t->without_gp, t->samples, t->samples - t->without_gp);
	if (a->kthread_pid && t->without_ticks)
		mb_run_warn(run, "the ticks of pid %u could not be read in %d of %d samples",
			    a->kthread_pid, t->without_ticks, t->samples);
}

static void ls_trace_finish(struct mb_run *run)
{
	struct ls_trace_state *st = run->priv;
	struct ls_trace_totals t;

	ls_trace_totals(run, &t);
	ls_trace_report(run, st, &t);
	if (run->status == MB_RUN_OK)
		ls_trace_check(run, st, &t);
}

static void ls_trace_teardown(struct mb_run *run)
{
	struct ls_trace_state *st = run->priv;

	if (!st)
		return;
	ls_trace_procs_reap(&st->procs);
	ls_trace_unload(st);
	free(st);
	run->priv = NULL;
}

const struct mb_bench mb_bench_ls_tasks_trace = {
	.name = "local-storage-tasks-trace",
	.family = "localstorage",
	.desc = "RCU Tasks Trace grace-period latency with task local storage on --nr_procs sleepers (needs fentry), as the kernel's",
	.opts = ls_trace_opts,
	.args_size = sizeof(struct ls_trace_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,
	.map_types = MB_MAP_TYPES("task_storage"),
	/* The producer's storage runs per second of its time: the trigger is part of the op. */
	.headline = { .clock = MB_HEADLINE_WALL_RATE },
	.metrics = ls_trace_metrics,
	.text = &ls_trace_text,
	.validate = ls_trace_validate,
	.setup = ls_trace_setup,
	.producer = ls_trace_producer,
	.measure = ls_trace_measure,
	.finish = ls_trace_finish,
	.teardown = ls_trace_teardown,
};
