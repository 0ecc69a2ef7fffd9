// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The noise flags' statistics on synthetic samples: the preemption ratio (wall time less waits
 * against CPU time) and the reference-drift statistic (each sample's median over its reference
 * calls against the median of those medians).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/kref.h"
#include "families/registry.h"
#include "core/runner.h"
#include "util/stats.h"
#include "core/summary.h"

#define NSAMPLES	100
#define NCALLS		16
#define REF_NS		2.0	/* the empty loop's ns/op in the synthetic data */

static struct mb_env env;

static void make_run(struct mb_run *run, int n)
{
	char msg[128];

	memset(&env, 0, sizeof(env));
	mb_opts_set_defaults(mb_global_opts, &env, msg, sizeof(msg));
	env.warmup = 0;
	env.duration = (uint32_t)n;
	env.producers = 1;
	mb_cpuset_online(&env.online);
	assert_int_equal(mb_run_init(run, mb_bench_find("bpf-noop"), &env), 0);
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
	assert_float_equal(sum->ref_median, REF_NS, REF_NS * 0.02);
	/* Interrupted calls move the mean of a sample, never the median beyond the threshold. */
	assert_int_equal(sum->nr_ref_drift, 0);
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
	for (int i = 0; i < NSAMPLES; i++)
		assert_int_equal(!!(run.samples[i].flags & MB_SAMPLE_REF_DRIFT), i >= 70);
	assert_int_equal(sum->nr_ref_drift, NSAMPLES - 70);
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
	assert_float_equal(sum->ref_median, 9.0, 1e-12);
	assert_int_equal(sum->nr_ref_drift, 0);
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
	for (int i = 0; i < 6; i++)
		assert_int_equal(!!(run.samples[i].flags & MB_SAMPLE_PREEMPTED),
				 run.samples[i].preempt_ratio > MB_PREEMPT_RATIO);
	assert_int_equal(sum->nr_preempted, 2);
	assert_false(run.samples[4].flags & MB_SAMPLE_PREEMPTED);
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
	assert_true(run.samples[1].flags & MB_SAMPLE_PREEMPTED);
	assert_int_equal(sum->nr_preempted, 1);
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
		cmocka_unit_test(test_median),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
