// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-tasks-trace without BPF trampolines: the figures from counts as the kernel's
 * bench computes them, its Iter and SUMMARY lines against the kernel's formats, the kthread's
 * stime from /proc, the sleepers started and reaped with nothing left, and (with BPF) the
 * storage program fired by us and by a child, and the grace-period bodies through the
 * verifier and run, as twins of a type this kernel loads. Where fentry loads, the fentry
 * programs themselves must pass the verifier.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/summary.h"
#include "families/localstorage/ls_trace.h"
#include "output/report.h"
#include "families/localstorage/ls_trace_shared.h"
#include "sys/probe.h"
#include "util/log.h"
#include "ls_trace.skel.h"

/* The kernel bench's formats (bench_local_storage_rcu_tasks_trace.c), the reference. */
#define K_ITER_LAT	"Iter %d\t avg tasks_trace grace period latency\t%lf ns\n"
#define K_ITER_TICKS	"Iter %d\t avg ticks per tasks_trace grace period\t%lf\n"
#define K_SUM_LAT	"SUMMARY tasks_trace grace period latency\tavg %.3lf us\tstddev %.3lf us\n"
#define K_SUM_TICKS	"SUMMARY ticks per tasks_trace grace period\tavg %.3lf\tstddev %.3lf\n"

static void test_stats(void **state)
{
	/* Samples: 3 grace periods in 3 ms, 2 in 4 ms, one without: 1000 and 2000 us. */
	double v[3] = { ls_trace_gp_us(3e6, 3), ls_trace_gp_us(4e6, 2), ls_trace_gp_us(5e6, 0) };
	struct ls_trace_stat st;

	(void)state;
	assert_float_equal(v[0], 1000.0, 1e-9);
	assert_float_equal(v[1], 2000.0, 1e-9);
	assert_true(isnan(v[2]));
	ls_trace_stat(v, 3, &st);
	assert_int_equal(st.n, 2);
	assert_float_equal(st.mean, 1500.0, 1e-9);
	/* Bessel's: sqrt((500^2 + 500^2) / 1) */
	assert_float_equal(st.stddev, sqrt(500000.0), 1e-9);
	ls_trace_stat(v, 1, &st);
	assert_int_equal(st.n, 1);
	assert_float_equal(st.mean, 1000.0, 1e-9);
	assert_true(isnan(st.stddev));		/* one sample: no spread known */
	ls_trace_stat(v + 2, 1, &st);
	assert_int_equal(st.n, 0);
	assert_true(isnan(st.mean));
}

static void test_parse_stime(void **state)
{
	long t = -1;

	(void)state;
	assert_int_equal(ls_trace_parse_stime("15 (rcu_tasks_trace) S 2 0 0 0 -1 2129984 0 0 0 0 3 417 0 0 20 0 1 0\n",
					      &t), 0);
	assert_int_equal(t, 417);
	/* A comm with spaces and a parenthesis: fields count from the last ')'. */
	assert_int_equal(ls_trace_parse_stime("7 (a b) c) R 1 7 7 0 -1 0 1 2 3 4 5 6 7", &t), 0);
	assert_int_equal(t, 6);
	assert_int_equal(ls_trace_parse_stime("7 (x) R 1 7 7 0 -1 0 1 2 3 4 5", &t), -EINVAL);
	assert_int_equal(ls_trace_parse_stime("7 x R 1 7 7 0 -1 0 1 2 3 4 5 6", &t), -EINVAL);
	assert_int_equal(ls_trace_parse_stime("7 (x) R 1 7 7 0 -1 0 1 2 3 4 5 z", &t), -EINVAL);
	assert_int_equal(ls_trace_read_stime((uint32_t)getpid(), &t), 0);
	assert_true(t >= 0);
	assert_int_equal(ls_trace_read_stime(4194305, &t), -ENOENT);
}

/* Prints with @fn into a buffer, returned (static). */
static const char *printed(void (*fn)(FILE *f, void *ctx), void *ctx)
{
	static char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	fn(f, ctx);
	fclose(f);
	return buf;
}

static void iter_ticks(FILE *f, void *ctx)
{
	(void)ctx;
	ls_trace_print_iter(f, 3, 2500.0, 2, 9, true);
}

static void iter_plain(FILE *f, void *ctx)
{
	(void)ctx;
	ls_trace_print_iter(f, 0, 2500.0, 0, NAN, false);
}

/* A run and its summary, for the text style's hooks. */
struct fake {
	struct mb_run *run;
	struct mb_summary *sum;
};

static void text_summary(FILE *f, void *ctx)
{
	struct fake *x = ctx;

	ls_trace_text.summary(f, x->run, x->sum);
}

static void text_progress(FILE *f, void *ctx)
{
	struct fake *x = ctx;

	ls_trace_text.progress(f, x->run, 2, &x->run->samples[2]);
}

static void summary(FILE *f, void *ctx)
{
	const struct ls_trace_stat lat = { 1234.5678, 12.3456, 5 }, ticks = { 4.5, 0.25, 5 };

	ls_trace_print_summary(f, &lat, &ticks, ctx != NULL);
}

/* The lines are the kernel's, character for character; "n/a" where it would print nan. */
static void test_lines(void **state)
{
	char want[1024];
	int n;

	(void)state;
	n = snprintf(want, sizeof(want), K_ITER_LAT, 3, 1250.0);
	snprintf(want + n, sizeof(want) - (size_t)n, K_ITER_TICKS, 3, 4.5);
	assert_string_equal(printed(iter_ticks, NULL), want);
	assert_string_equal(printed(iter_plain, NULL),
			    "Iter 0\t avg tasks_trace grace period latency\tn/a ns\n");
	n = snprintf(want, sizeof(want), K_SUM_LAT, 1234.5678, 12.3456);
	assert_string_equal(printed(summary, NULL), want);
	snprintf(want + n, sizeof(want) - (size_t)n, K_SUM_TICKS, 4.5, 0.25);
	assert_string_equal(printed(summary, want), want);
}

/* How many of @p's sleepers are alive, named, and children of ours. */
static uint32_t sleepers_up(const struct ls_trace_procs *p)
{
	uint32_t up = 0;

	for (uint32_t i = 0; i < p->nr; i++) {
		char path[64], comm[32] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/comm", (int)p->pid[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, LS_TRACE_SLEEPER_COMM "\n"))
			up++;
		fclose(f);
	}
	return up;
}

static void test_procs(void **state)
{
	struct ls_trace_procs p = { 0 };
	pid_t pids[8];

	(void)state;
	assert_int_equal(ls_trace_procs_spawn(&p, 8, 0, 1), 0);
	assert_int_equal(p.nr, 8);
	memcpy(pids, p.pid, sizeof(pids));
	/* Each names itself once it runs: wait for that state (bounded), not a fixed time. */
	for (int tries = 0; sleepers_up(&p) < 8 && tries < 5000; tries++)
		usleep(1000);
	assert_int_equal(sleepers_up(&p), 8);
	ls_trace_procs_reap(&p);
	assert_int_equal(p.nr, 0);
	assert_null(p.pid);
	/* Nothing left: no child to wait for, no sleeper's pid alive. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	for (int i = 0; i < 8; i++)
		assert_int_equal(kill(pids[i], 0), -1);
	ls_trace_procs_reap(&p);	/* idempotent */
}

/* Runs a program of the skeleton once through test_run. */
static void run_prog(struct bpf_program *prog)
{
	LIBBPF_OPTS(bpf_test_run_opts, o);

	assert_int_equal(bpf_prog_test_run_opts(bpf_program__fd(prog), &o), 0);
}

/* The grace-period bodies, as syscall twins: first end untimed, then in order, then out. */
static void test_gp_twins(void **state)
{
	struct ls_trace_bpf *skel;
	char why[512];

	(void)state;
	if (mb_probe_bpf(why, sizeof(why)))
		skip();
	skel = ls_trace_bpf__open();
	assert_non_null(skel);
	bpf_program__set_autoload(skel->progs.ls_trace_pregp_twin, true);
	bpf_program__set_autoload(skel->progs.ls_trace_postgp_twin, true);
	assert_int_equal(ls_trace_bpf__load(skel), 0);
	run_prog(skel->progs.ls_trace_postgp_twin);
	assert_int_equal(skel->bss->ls_trace_gp_untimed, 1);
	assert_int_equal(skel->bss->ls_trace_gp_hits, 0);
	for (int i = 0; i < 3; i++) {
		run_prog(skel->progs.ls_trace_pregp_twin);
		assert_true(skel->bss->ls_trace_gp_start > 0);
		run_prog(skel->progs.ls_trace_postgp_twin);
		assert_int_equal(skel->bss->ls_trace_gp_start, 0);
	}
	assert_int_equal(skel->bss->ls_trace_gp_hits, 3);
	assert_true(skel->bss->ls_trace_gp_ns > 0);
	assert_int_equal(skel->bss->ls_trace_unexpected, 0);
	run_prog(skel->progs.ls_trace_postgp_twin);
	assert_int_equal(skel->bss->ls_trace_unexpected, 1);
	assert_int_equal(skel->bss->ls_trace_gp_hits, 3);
	ls_trace_bpf__destroy(skel);
}

static const struct mb_bench lst_bench = { .name = "local-storage-tasks-trace" };

/*
 * From the programs' counts to the Iter and SUMMARY lines: five readings make a warm-up
 * sample, two measured ones (3 grace periods in 3 ms and 2 in 4 ms: 1000 and 2000 us, the
 * second's Iter line in ns; 12 and 4 ticks: 4 and 2 per grace period) and one without a
 * grace period, left out.
 */
static void test_counts_to_summary(void **state)
{
	const struct ls_trace_counts r[5] = {
		{ .gp_hits = 0 }, { .gp_hits = 7, .gp_ns = 9000000 },
		{ .gp_hits = 10, .gp_ns = 12000000 }, { .gp_hits = 12, .gp_ns = 16000000 },
		{ .gp_hits = 12, .gp_ns = 16000000 },
	};
	const long ticks[5] = { 100, 150, 162, 166, 170 };
	struct ls_trace_args args = { .nr_procs = 10, .kthread_pid = 1 };
	struct mb_sample samples[4] = { { .warmup = true } };
	struct mb_run run = { .bench = &lst_bench, .args = &args, .samples = samples,
			      .nr_samples = 4, .nr_producers = 1 };
	struct mb_summary sum = { .n = 3 };
	struct ls_trace_totals t;
	char want[512], why[256];
	int n;

	(void)state;
	for (int i = 0; i < 4; i++) {
		ls_trace_fill_sample(&samples[i], &r[i], &r[i + 1], ticks[i], ticks[i + 1]);
		samples[i].total.ops = 1000;
	}
	assert_float_equal(samples[1].metric[LS_TRACE_M_GP], 3, 0);
	assert_float_equal(samples[1].metric[LS_TRACE_M_GP_NS], 3e6, 0);
	assert_float_equal(samples[1].metric[LS_TRACE_M_TICKS], 12, 0);
	ls_trace_fill_sample(&samples[0], &r[0], &r[1], -1, 5);
	assert_true(isnan(samples[0].metric[LS_TRACE_M_TICKS]));
	ls_trace_totals(&run, &t);
	assert_int_equal(t.samples, 3);
	assert_int_equal(t.gp, 5);
	assert_int_equal(t.ops, 3000);
	assert_int_equal(t.without_gp, 1);
	n = snprintf(want, sizeof(want), K_SUM_LAT, 1500.0, sqrt(500000.0));
	snprintf(want + n, sizeof(want) - (size_t)n, K_SUM_TICKS, 3.0, sqrt(2.0));
	assert_string_equal(printed(text_summary, &(struct fake){ &run, &sum }), want);
	snprintf(want, sizeof(want), K_ITER_LAT K_ITER_TICKS, 2, 2e6, 2, 2.0);
	assert_string_equal(printed(text_progress, &(struct fake){ &run, &sum }), want);
	assert_int_equal(ls_trace_verdict(&r[4], &t, true, why, sizeof(why)), 0);
}

/* The verdict: each missing or wrong count refuses the figures, saying which. */
static void test_verdict(void **state)
{
	struct ls_trace_counts c = { .gp_hits = 5 };
	struct ls_trace_totals t = { .gp = 5, .ops = 100, .samples = 2 };
	char why[512];

	(void)state;
	assert_int_equal(ls_trace_verdict(&c, &t, true, why, sizeof(why)), 0);
	assert_int_equal(ls_trace_verdict(&c, &t, false, why, sizeof(why)), -EIO);
	assert_non_null(strstr(why, "grace-period programs were left out"));
	t.gp = 0;
	assert_int_equal(ls_trace_verdict(&c, &t, true, why, sizeof(why)), -EIO);
	assert_non_null(strstr(why, "no RCU Tasks Trace grace period ended in the 2 measured"));
	t.ops = 0;
	c.get_fails = 4;
	assert_int_equal(ls_trace_verdict(&c, &t, true, why, sizeof(why)), -EIO);
	assert_non_null(strstr(why, "no storage in the producer (4 get(F_CREATE)"));
	c.unexpected = 1;
	assert_int_equal(ls_trace_verdict(&c, &t, true, why, sizeof(why)), -EIO);
	assert_non_null(strstr(why, "1 grace periods ended without their start"));
}

/* The task limits leave room less the reserve; the machine's are read. */
static void test_room(void **state)
{
	uint64_t room;
	char why[256];

	(void)state;
	assert_int_equal(ls_trace_procs_room(32768, 192725, 144), 32768 - 144 - 256);
	assert_int_equal(ls_trace_procs_room(4194304, 100000, 1000), 100000 - 1000 - 256);
	assert_int_equal(ls_trace_procs_room(1000, 1000, 800), 0);
	assert_int_equal(ls_trace_procs_limit(&room, why, sizeof(why)), 0);
	assert_true(room > 0);
	assert_non_null(strstr(why, "kernel.pid_max "));
}

/* A memory floor above what there is: refused before the first fork, nothing left. */
static void test_mem_floor(void **state)
{
	struct ls_trace_procs p = { 0 };

	(void)state;
	assert_int_equal(ls_trace_procs_spawn(&p, 4, 0, UINT64_MAX), -ENOMEM);
	assert_int_equal(p.made, 0);
	assert_int_equal(p.nr, 0);
	assert_true(p.avail > 0);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* The storage program, loaded as the bench loads it without fentry: ours and a child's runs. */
static void test_storage_prog(void **state)
{
	struct mb_run run = { .bench = &lst_bench };
	struct mb_producer p = { .idx = 0, .cpu = -1 };
	struct ls_trace_state st = { 0 };
	struct ls_trace_counts c;
	char why[512];
	int status;
	pid_t pid;

	(void)state;
	if (mb_probe_bpf(why, sizeof(why)))
		skip();
	assert_int_equal(ls_trace_load(&run, &st, true), 0);
	assert_false(st.gp_loaded);
	for (int i = 0; i < 5; i++)
		assert_int_equal(mb_trigger_fire(&run, &p, &st.trig,
						 mb_trigger_arg(LS_TRACE_OP_GET, 0)), 0);
	assert_int_equal(st.trig.slots[0].ops, 5);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		syscall(SYS_getpgid, mb_trigger_arg(LS_TRACE_OP_GET, LS_TRACE_SLEEPER_SLOT));
		syscall(SYS_getpgid, mb_trigger_arg(LS_TRACE_OP_GET + 1, LS_TRACE_SLEEPER_SLOT));
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	ls_trace_read(&st, &c);
	assert_int_equal(c.sleeper_gets, 1);
	assert_int_equal(c.get_fails, 0);
	assert_int_equal(c.gp_hits, 0);
	assert_int_equal(st.trig.slots[0].ops, 5);
	ls_trace_unload(&st);
}

/*
 * The fentry programs, loaded and attached as the bench does: where the kernel allows BPF
 * trampolines the verifier must accept them; where it refuses them (EPERM at load, as on the
 * machines this project is built on), the test says so and is skipped.
 */
static void test_fentry_load(void **state)
{
	struct mb_run run = { .bench = &lst_bench };
	struct ls_trace_state st = { 0 };
	char why[512];
	int err;

	(void)state;
	if (mb_probe_bpf(why, sizeof(why)))
		skip();
	if (mb_probe_fentry(LS_TRACE_GP_START, why, sizeof(why))) {
		print_message("fentry refused here, not tested: %s\n", why);
		skip();
	}
	err = ls_trace_load(&run, &st, false);
	assert_int_equal(err, 0);
	assert_true(st.gp_loaded);
	ls_trace_unload(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_parse_stime),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_counts_to_summary),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_procs),
		cmocka_unit_test(test_room),
		cmocka_unit_test(test_mem_floor),
		cmocka_unit_test(test_gp_twins),
		cmocka_unit_test(test_storage_prog),
		cmocka_unit_test(test_fentry_load),
	};

	mb_log_init(true, false, stdout);
	mb_log_setup_libbpf();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
