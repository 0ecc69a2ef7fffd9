/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * local-storage-tasks-trace, shared by its files: the bench (ls_trace.c), its programs'
 * loading (ls_trace_load.c), the sleepers (ls_trace_procs.c), the figures from the counts
 * (ls_trace_stats.c) and its text (ls_trace_text.c). Everything but the load and attach of
 * the fentry programs runs on machines that refuse BPF trampolines: the unit test
 * (tests/unit/test_ls_trace.c) and the family's e2e test (test_ls_trace.sh) exercise it there.
 */
#ifndef MB_LS_TRACE_H
#define MB_LS_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/bench.h"
#include "drivers/trigger.h"
#include "output/report.h"

#define LS_TRACE_GP_START	"rcu_tasks_trace_pregp_step"
#define LS_TRACE_GP_END		"rcu_tasks_trace_postgp"
#define LS_TRACE_MAX_PROCS	150000		/* the kernel bench's MAX_SLEEP_PROCS */
#define LS_TRACE_SLEEPER_COMM	"mb_ls_sleeper"	/* the sleepers' name, for ps and the tests */
/*
 * Tests only: load no grace-period program and run the rest (sleepers, storage program,
 * samples); with no grace period counted the run then fails its check and reports no figure.
 */
#define LS_TRACE_NO_GP_ENV	"MAPBENCH_LS_TRACE_NO_GP"

/* Per-sample metrics (.metrics): the grace periods that ended in it, their time, the ticks. */
enum { LS_TRACE_M_GP, LS_TRACE_M_GP_NS, LS_TRACE_M_TICKS };

struct ls_trace_args {
	uint32_t nr_procs;
	uint32_t kthread_pid;
};

/* Tasks kept free for the rest of the machine when --nr_procs is checked against the limits. */
#define LS_TRACE_TASK_RESERVE	256
/* The sleepers stop being forked when MemAvailable falls below this (a refusal, not an OOM). */
#define LS_TRACE_MEM_FLOOR	(256ull << 20)
#define LS_TRACE_MEM_EVERY	256	/* forks between two looks at MemAvailable */

/* The sleeping processes, forked by ls_trace_procs_spawn(). */
struct ls_trace_procs {
	pid_t *pid;
	uint32_t nr;		/* started and not yet reaped */
	uint32_t made;		/* on -ENOMEM: how many were forked before the floor was hit */
	uint64_t avail0, avail;	/* MemAvailable before the first fork and at the last look */
};

/* The programs' cumulative counts, as read at one moment. */
struct ls_trace_counts {
	uint64_t gp_hits, gp_ns, unexpected, untimed, sleeper_gets, get_fails;
};

struct ls_trace_bpf;

struct ls_trace_state {
	struct ls_trace_bpf *skel;
	struct mb_trigger trig;
	struct ls_trace_procs procs;
	bool gp_loaded;			/* the fentry programs are attached */
	struct ls_trace_counts last;	/* at the last sample */
	long ticks_last;		/* the kthread's stime then, -1: not read */
};

/* What the measured samples saw. */
struct ls_trace_totals {
	uint64_t gp, ops;
	int samples, without_gp, without_ticks;
};

/* Mean and sample standard deviation (Bessel), as the kernel's basic_stats. */
struct ls_trace_stat {
	double mean, stddev;
	int n;			/* samples they are over */
};

/* ls_trace_procs.c */
/*
 * Fork @nr sleepers: each dies with its parent (PR_SET_PDEATHSIG), names itself
 * LS_TRACE_SLEEPER_COMM and loops: sleep 0..3 s, getpgid(@arg). Every LS_TRACE_MEM_EVERY
 * forks MemAvailable must stay above @floor bytes (0: not looked at). 0, or -errno (-ENOMEM:
 * the floor, p->made says when) with every one already started reaped.
 */
int ls_trace_procs_spawn(struct ls_trace_procs *p, uint32_t nr, uint64_t arg, uint64_t floor);
/* How many more tasks the kernel's limits leave, less LS_TRACE_TASK_RESERVE (0: none). */
uint64_t ls_trace_procs_room(uint64_t pid_max, uint64_t threads_max, uint64_t tasks);
/*
 * The same for this machine now (kernel.pid_max, kernel.threads-max, the tasks in
 * /proc/loadavg), and in @why those figures, for a refusal. 0 or -errno.
 */
int ls_trace_procs_limit(uint64_t *room, char *why, size_t len);
/* Kill and reap every sleeper (idempotent). */
void ls_trace_procs_reap(struct ls_trace_procs *p);

/* ls_trace_stats.c */
/* One sample's latency in us (gp_ns / 1000 / gp), NaN without a grace period. */
double ls_trace_gp_us(double gp_ns, double gp);
/*
 * The kernel's grace_period_latency_basic_stats: over the @n values @v (each a sample's
 * latency or ticks per grace period) that are not NaN.
 */
void ls_trace_stat(const double *v, int n, struct ls_trace_stat *st);
/* The 14th field after the comm of a /proc/PID/stat line, stime in ticks: 0 or -EINVAL. */
int ls_trace_parse_stime(const char *line, long *stime);
/* The kthread's stime from /proc/@pid/stat: 0 or -errno. */
int ls_trace_read_stime(uint32_t pid, long *stime);

/* ls_trace_check.c */
/* @s's metrics from the counts read at its start and end (ticks < 0: not read, NaN). */
void ls_trace_fill_sample(struct mb_sample *s, const struct ls_trace_counts *last,
			  const struct ls_trace_counts *now, long ticks_last, long ticks_now);
void ls_trace_totals(const struct mb_run *run, struct ls_trace_totals *t);
/*
 * Before a figure: no grace period ended out of order, the producer made storage, grace
 * periods were timed. 0, or -EIO with the reason in @why.
 */
int ls_trace_verdict(const struct ls_trace_counts *c, const struct ls_trace_totals *t,
		     bool gp_loaded, char *why, size_t len);

/* ls_trace_text.c: the bench's text style, and the kernel's lines it prints. */
extern const struct mb_text_style ls_trace_text;
void ls_trace_print_iter(FILE *f, int iter, double gp_ns, double gp, double ticks, bool ticks_on);
void ls_trace_print_summary(FILE *f, const struct ls_trace_stat *lat,
			    const struct ls_trace_stat *ticks, bool ticks_on);

/* ls_trace_load.c */
/* Load and attach the storage program (trigger) and, unless @no_gp, the fentry ones. */
int ls_trace_load(struct mb_run *run, struct ls_trace_state *st, bool no_gp);
/* The programs' counts now. */
void ls_trace_read(const struct ls_trace_state *st, struct ls_trace_counts *c);
void ls_trace_unload(struct ls_trace_state *st);

#endif
