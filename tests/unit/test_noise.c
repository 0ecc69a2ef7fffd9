// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The noise verdicts on synthetic samples (core/noise.h): a sample is flagged only when its own
 * figure moved, the preemption ratio and the reference explain why, and a result is noisy only
 * when that matters for its mean. The preemption ratio (wall time less waits against CPU time)
 * and the reference statistic (each sample's median over its reference calls) are checked too.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "drivers/kref.h"
#include "families/registry.h"
#include "core/runner.h"
#include "util/stats.h"
#include "core/summary.h"

#define NSAMPLES	100
#define NCALLS		16
#define REF_NS		2.0	/* the empty loop's ns/op in the synthetic data */

static struct mb_env env;

static void make_bench_run(struct mb_run *run, const char *bench, int n)
{
	char msg[128];

	memset(&env, 0, sizeof(env));
	mb_opts_set_defaults(mb_global_opts, &env, msg, sizeof(msg));
	env.warmup = 0;
	env.duration = (uint32_t)n;
	env.producers = 1;
	mb_cpuset_online(&env.online);
	assert_int_equal(mb_run_init(run, mb_bench_find(bench), &env), 0);
	assert_int_equal(mb_run_validate(run), 0);
	run->max_samples = n;
	run->samples = calloc((size_t)n, sizeof(*run->samples));
	assert_non_null(run->samples);
	for (int i = 0; i < n; i++) {
		struct mb_sample *s = &run->samples[i];

		s->prod = calloc(1, sizeof(struct mb_counters));
		assert_non_null(s->prod);
		s->elapsed_ns = 100000000;
		s->total.ops = 50000000;
		s->total.hits = s->total.ops;
		s->total.kernel_ns = 99000000;
		s->total.cpu_ns = 99500000;
		for (int m = 0; m < MB_MAX_METRICS; m++)
			s->metric[m] = NAN;
		s->preempt_ratio = NAN;
		s->ref_median = NAN;
	}
	run->nr_samples = n;
}

/* An in-kernel bench: its figure is the in-kernel ns/op (kernel_ns / ops). */
static void make_run(struct mb_run *run, int n)
{
	make_bench_run(run, "bpf-noop", n);
}

/* A deterministic uniform number in [0, 1): the tests must not depend on a seed. */
static double uniform(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (double)(*state >> 11) / 9007199254740992.0;
}

/*
 * Reference calls as a quiet machine makes them: +-2 % jitter around the loop's cost, and
 * calls an interrupt hit (two of sixteen, at random) up to twice as slow; @shift scales them.
 */
static void reference_calls(struct mb_sample *s, uint64_t *rng, double shift)
{
	double v[NCALLS];

	for (int c = 0; c < NCALLS; c++) {
		v[c] = REF_NS * shift * (1 + 0.04 * (uniform(rng) - 0.5));
		if (uniform(rng) < 2.0 / NCALLS)
			v[c] *= 1 + uniform(rng);
	}
	s->ref_calls = NCALLS;
	s->ref_median = mb_kref_statistic(v, NCALLS);
}

static void test_reference_quiet(void **state)
{
	uint64_t rng = 0x9e3779b97f4a7c15ULL;
	struct mb_summary *sum;
	struct mb_run run;

	(void)state;
	make_run(&run, NSAMPLES);
	for (int i = 0; i < NSAMPLES; i++)
		reference_calls(&run.samples[i], &rng, 1.0);
	sum = mb_summarize(&run);
	assert_non_null(sum);
	assert_float_equal(sum->noise.ref_median, REF_NS, REF_NS * 0.02);
	/* Interrupted calls move the mean of a sample, never the median beyond the threshold. */
	assert_int_equal(sum->noise.nr_ref_moved, 0);
	assert_int_equal(sum->noise.nr_flagged, 0);
	free(sum);
	mb_run_free(&run);
}

static void test_reference_level_shift(void **state)
{
	uint64_t rng = 0x2545f4914f6cdd1dULL;
	struct mb_summary *sum;
	struct mb_run run;

	(void)state;
	make_run(&run, NSAMPLES);
	/* From sample 70 on, the machine runs 12 % slower (a busy sibling, a lower clock). */
	for (int i = 0; i < NSAMPLES; i++)
		reference_calls(&run.samples[i], &rng, i >= 70 ? 1.12 : 1.0);
	sum = mb_summarize(&run);
	assert_non_null(sum);
	/* The reference says so in each slower sample; the op's figure did not move: no flag. */
	assert_int_equal(sum->noise.nr_ref_moved, NSAMPLES - 70);
	assert_true(sum->noise.ref_varied > 0.10);
	assert_int_equal(sum->noise.nr_flagged, 0);
	assert_int_equal(sum->noise.noisy, 0);
	free(sum);
	mb_run_free(&run);
}

static void test_reference_absent(void **state)
{
	struct mb_summary *sum;
	struct mb_run run;

	(void)state;
	make_run(&run, 5);
	/* Samples without a reference call are neither flagged nor part of the run's median. */
	run.samples[0].ref_calls = 3;
	run.samples[0].ref_median = 9.0;
	sum = mb_summarize(&run);
	assert_float_equal(sum->noise.ref_median, 9.0, 1e-12);
	assert_int_equal(sum->noise.nr_ref_moved, 0);
	free(sum);
	mb_run_free(&run);
}

static void test_preempt_cpu_basis(void **state)
{
	struct mb_summary *sum;
	struct mb_run run;

	(void)state;
	make_run(&run, 6);
	/* The thread had 80 % of the wall time: lost its CPU, whatever the in-kernel time says. */
	run.samples[1].total.cpu_ns = 80000000;
	/* Half the sample asleep on purpose (a partner's turn): the rest was all on the CPU. */
	run.samples[2].total.cpu_ns = 50000000;
	run.samples[2].total.wait_ns = 50000000;
	/* Asleep a tenth, and a quarter of the rest lost. */
	run.samples[3].total.cpu_ns = 67500000;
	run.samples[3].total.wait_ns = 10000000;
	/* Syscall-driven: little in-kernel time, but all of the CPU time: not preempted. */
	run.samples[4].total.kernel_ns = 20000000;
	sum = mb_summarize(&run);
	assert_int_equal(sum->preempt_basis, MB_PREEMPT_CPU);
	assert_float_equal(run.samples[1].preempt_ratio, 1.25, 1e-9);
	assert_float_equal(run.samples[2].preempt_ratio, 1.0, 1e-9);
	assert_float_equal(run.samples[3].preempt_ratio, 90.0 / 67.5, 1e-9);
	/*
	 * The figure is in-kernel ns/op, which leaves the lost time out: the loss is reported
	 * (lost_cpu), never flagged as preempted.
	 */
	for (int i = 0; i < 6; i++)
		assert_false(run.samples[i].flags & MB_SAMPLE_PREEMPTED);
	assert_int_equal(sum->noise.nr_lost_cpu, 2);
	assert_int_equal(sum->noise.nr_preempted, 0);
	free(sum);
	mb_run_free(&run);
}

static void test_preempt_kernel_fallback(void **state)
{
	struct mb_summary *sum;
	struct mb_run run;

	(void)state;
	make_run(&run, 4);
	for (int i = 0; i < 4; i++)
		run.samples[i].total.cpu_ns = 0;
	run.samples[1].total.kernel_ns = 80000000;
	sum = mb_summarize(&run);
	/* No CPU clock read: in-kernel time is the basis. */
	assert_int_equal(sum->preempt_basis, MB_PREEMPT_KERNEL);
	assert_true(run.samples[1].preempt_ratio > MB_PREEMPT_RATIO);
	assert_int_equal(sum->noise.nr_lost_cpu, 1);
	assert_false(run.samples[1].flags & MB_SAMPLE_PREEMPTED);
	free(sum);
	mb_run_free(&run);
}

/* An in-kernel bench's sample @s at @ns per op (ops fixed, in-kernel time from it). */
static void set_latency(struct mb_sample *s, double ns)
{
	s->total.kernel_ns = (uint64_t)llround(ns * (double)s->total.ops);
}

/* (a) The op flat within 1 % while the reference swings +-30 %: no flag, not noisy. */
static void test_flat_op_swinging_reference(void **state)
{
	uint64_t rng = 0x6a09e667f3bcc909ULL;
	struct mb_summary *sum;
	struct mb_run run;

	(void)state;
	make_run(&run, 50);
	for (int i = 0; i < 50; i++) {
		set_latency(&run.samples[i], 2.0 * (1 + 0.02 * (uniform(&rng) - 0.5)));
		run.samples[i].ref_calls = NCALLS;
		run.samples[i].ref_median = 0.2 * (1 + 0.6 * (uniform(&rng) - 0.5));
	}
	sum = mb_summarize(&run);
	assert_true(sum->noise.ref_varied > 0.4);
	assert_true(sum->noise.nr_ref_moved > 25);
	assert_int_equal(sum->noise.nr_flagged, 0);
	assert_int_equal(sum->noise.noisy, 0);
	free(sum);
	mb_run_free(&run);
}

/*
 * (b) The op 20 % slower on 3 of 50 samples, the reference 20 % slower on the same ones: those
 * three flagged, the host's speed named, and the result noisy by the mean's shift.
 */
static void test_host_slowed(void **state)
{
	uint64_t rng = 0xbb67ae8584caa73bULL;
	struct mb_summary *sum;
	struct mb_run run;

	(void)state;
	make_run(&run, 50);
	for (int i = 0; i < 50; i++) {
		double slow = i == 10 || i == 20 || i == 30 ? 1.2 : 1.0;

		set_latency(&run.samples[i], 10.0 * slow * (1 + 0.02 * (uniform(&rng) - 0.5)));
		reference_calls(&run.samples[i], &rng, slow);
	}
	sum = mb_summarize(&run);
	for (int i = 0; i < 50; i++) {
		bool slow = i == 10 || i == 20 || i == 30;

		assert_int_equal(run.samples[i].flags, slow ? MB_SAMPLE_OUTLIER : 0);
		assert_int_equal(run.samples[i].cause, slow ? MB_CAUSE_HOST : MB_CAUSE_NONE);
	}
	assert_int_equal(sum->noise.nr_cause[MB_CAUSE_HOST], 3);
	assert_true(sum->noise.noisy & MB_NOISY_BY_SHIFT);
	/* 3 of 50 samples 20 % slower: the mean is 1.2 % above the others'. */
	assert_float_equal(sum->noise.mean_shift, -0.012 / 1.012, 0.001);
	assert_float_equal(sum->noise.shift_bound, MB_NOISY_SHIFT, 1e-12);
	free(sum);
	mb_run_free(&run);
}

/*
 * (c) A user-space bench (count-local: a wall-clock rate) whose producer lost 30 % of its CPU
 * on 5 of 20 samples, its rate falling with it: those five flagged preempted.
 */
static void test_user_bench_preempted(void **state)
{
	struct mb_summary *sum;
	struct mb_run run;

	(void)state;
	make_bench_run(&run, "count-local", 20);
	for (int i = 0; i < 20; i++) {
		struct mb_sample *s = &run.samples[i];
		bool lost = i >= 12 && i < 17;

		s->total.kernel_ns = 0;
		s->total.cpu_ns = lost ? 70000000 : 100000000;
		s->total.ops = lost ? 35000000 : 50000000;
		s->total.hits = s->total.ops;
	}
	sum = mb_summarize(&run);
	assert_false(sum->judged_latency);
	for (int i = 0; i < 20; i++) {
		bool lost = i >= 12 && i < 17;

		assert_int_equal(!!(run.samples[i].flags & MB_SAMPLE_PREEMPTED), lost);
		assert_int_equal(run.samples[i].cause, lost ? MB_CAUSE_PREEMPTED : MB_CAUSE_NONE);
	}
	assert_int_equal(sum->noise.nr_preempted, 5);
	assert_true(sum->noise.noisy & MB_NOISY_BY_SHIFT);
	free(sum);
	mb_run_free(&run);
}

/* (d) Three samples within 0.35 %, the reference moving 10 %: not noisy. */
static void test_quiet_three_samples(void **state)
{
	const double ns[] = { 13.60, 13.65, 13.69 }, ref[] = { 0.13, 0.145, 0.16 };
	struct mb_summary *sum;
	struct mb_run run;

	(void)state;
	make_run(&run, 3);
	for (int i = 0; i < 3; i++) {
		set_latency(&run.samples[i], ns[i]);
		run.samples[i].ref_calls = NCALLS;
		run.samples[i].ref_median = ref[i];
	}
	sum = mb_summarize(&run);
	assert_true(sum->latency_kernel.cv < 0.0035);
	assert_int_equal(sum->noise.nr_flagged, 0);
	assert_int_equal(sum->noise.noisy, 0);
	free(sum);
	mb_run_free(&run);
}

/* A spread above MB_NOISY_CV is noisy with no sample flagged; flags that move nothing are not. */
static void test_spread_and_small_shift(void **state)
{
	const double wide[] = { 10, 11, 9, 10.5, 9.5, 11.5, 8.5, 10 };
	struct mb_summary *sum;
	struct mb_run run;

	(void)state;
	make_run(&run, 8);
	for (int i = 0; i < 8; i++)
		set_latency(&run.samples[i], wide[i]);
	sum = mb_summarize(&run);
	assert_int_equal(sum->noise.nr_flagged, 0);
	assert_int_equal(sum->noise.noisy, MB_NOISY_BY_SPREAD);
	free(sum);
	mb_run_free(&run);

	/* One sample of 40 off by 5 % (flagged) moves the mean 0.12 %: not noisy. */
	make_run(&run, 40);
	for (int i = 0; i < 40; i++)
		set_latency(&run.samples[i], i == 7 ? 10.5 : 10.0 + 0.001 * (i % 3));
	sum = mb_summarize(&run);
	assert_int_equal(run.samples[7].flags, MB_SAMPLE_OUTLIER);
	assert_int_equal(run.samples[7].cause, MB_CAUSE_UNEXPLAINED);
	assert_int_equal(sum->noise.noisy, 0);
	free(sum);
	mb_run_free(&run);
}

/* Every sample flagged (a user-space bench preempted throughout): noisy, no mean to compare. */
static void test_all_flagged(void **state)
{
	struct mb_summary *sum;
	struct mb_run run;

	(void)state;
	make_bench_run(&run, "count-local", 5);
	for (int i = 0; i < 5; i++) {
		run.samples[i].total.kernel_ns = 0;
		run.samples[i].total.cpu_ns = 50000000;
	}
	sum = mb_summarize(&run);
	assert_int_equal(sum->noise.nr_preempted, 5);
	assert_true(sum->noise.noisy & MB_NOISY_BY_ALL);
	assert_true(isnan(sum->noise.mean_shift));
	free(sum);
	mb_run_free(&run);
}

static void test_median(void **state)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, NAN, 1, 3, 2 }, none[] = { NAN };

	(void)state;
	assert_float_equal(mb_median(odd, 3), 3, 0);
	assert_float_equal(mb_median(even, 5), 2.5, 0);
	assert_true(isnan(mb_median(none, 1)));
	assert_true(isnan(mb_median(none, 0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_quiet),
		cmocka_unit_test(test_reference_level_shift),
		cmocka_unit_test(test_reference_absent),
		cmocka_unit_test(test_preempt_cpu_basis),
		cmocka_unit_test(test_preempt_kernel_fallback),
		cmocka_unit_test(test_flat_op_swinging_reference),
		cmocka_unit_test(test_host_slowed),
		cmocka_unit_test(test_user_bench_preempted),
		cmocka_unit_test(test_quiet_three_samples),
		cmocka_unit_test(test_spread_and_small_shift),
		cmocka_unit_test(test_all_flagged),
		cmocka_unit_test(test_median),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
