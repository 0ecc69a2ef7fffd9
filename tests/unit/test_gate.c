// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The regression gate's arithmetic with known numbers: ten previous runs of ten samples each
 * whose medians are 100, 101, 99, 100, 102, 98, 100, 101, 99, 100 (ns/op, lower is better):
 * the median of the medians is 100, the absolute deviations 0 1 1 0 2 2 0 1 1 0 have median 1,
 * so the band is 100 +- 3 * 1.4826 = 95.5522..104.4478 (wider than the 2 % floor).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output/gate.h"

#define RUNS	10
#define SAMPLES	10

static const double medians[RUNS] = { 100, 101, 99, 100, 102, 98, 100, 101, 99, 100 };
static double prev_samples[RUNS][SAMPLES];
static struct mb_gate_run prev[RUNS];

/* Ten samples around @median, 0.1 apart: median - 0.45 .. median + 0.45, the median exact. */
static void fill(double *v, double median)
{
	for (int i = 0; i < SAMPLES; i++)
		v[i] = median + (i - 4.5) * 0.1;
}

static void setup_history(void)
{
	for (int i = 0; i < RUNS; i++) {
		fill(prev_samples[i], medians[i]);
		prev[i].samples = prev_samples[i];
		prev[i].n = SAMPLES;
	}
}

static void judge(const double *latest, size_t n, bool higher, struct mb_gate_result *r)
{
	struct mb_gate_opts o;
	struct mb_gate_run cur = { .samples = latest, .n = n };

	mb_gate_opts_default(&o);
	setup_history();
	assert_int_equal(mb_gate_judge(prev, RUNS, &cur, higher, &o, r), 0);
}

static void test_band_figures(void **state)
{
	double latest[SAMPLES];
	struct mb_gate_result r;

	(void)state;
	fill(latest, 100);
	judge(latest, SAMPLES, false, &r);
	assert_int_equal(r.previous, RUNS);
	assert_int_equal(r.n_previous, RUNS * SAMPLES);
	assert_float_equal(r.center, 100, 1e-9);
	assert_float_equal(r.mad, 1, 1e-9);
	assert_float_equal(r.half_width, 3 * 1.4826, 1e-9);
	assert_float_equal(r.lo, 95.5522, 1e-9);
	assert_float_equal(r.hi, 104.4478, 1e-9);
	assert_float_equal(r.latest_median, 100, 1e-9);
	assert_int_equal(r.band, 0);
	assert_int_equal(r.verdict, MB_GATE_PASS);
	assert_string_equal(mb_gate_verdict_name(r.verdict), "pass");
}

/* +10 %: outside the band, and every sample above every previous one: regressed. */
static void test_regression(void **state)
{
	double latest[SAMPLES];
	struct mb_gate_result r;

	(void)state;
	fill(latest, 110);
	judge(latest, SAMPLES, false, &r);
	assert_int_equal(r.band, -1);
	assert_int_equal(r.cmp, MB_CMP_REGRESSED);
	assert_true(r.test.p < 1e-6);
	assert_float_equal(r.change, 0.1, 0.01);
	assert_int_equal(r.verdict, MB_GATE_REGRESSED);
	/* The same numbers as a throughput (higher is better): an improvement. */
	judge(latest, SAMPLES, true, &r);
	assert_int_equal(r.band, 1);
	assert_int_equal(r.cmp, MB_CMP_IMPROVED);
	assert_int_equal(r.verdict, MB_GATE_IMPROVED);
}

/*
 * One noisy run whose median held: 6 samples at 100, 4 at 150. Its mean is +20 % and the U
 * test may call it significant, but its median (100) is inside the band: pass, with a note.
 */
static void test_noisy_run_passes(void **state)
{
	double latest[SAMPLES] = { 99.9, 100, 100.1, 100, 99.95, 100.05, 150, 150, 150, 150 };
	struct mb_gate_result r;

	(void)state;
	judge(latest, SAMPLES, false, &r);
	assert_float_equal(r.latest_median, 100.075, 1e-9);
	assert_int_equal(r.band, 0);
	assert_true(r.change > 0.15);
	assert_int_equal(r.verdict, MB_GATE_PASS);
	if (r.cmp == MB_CMP_REGRESSED)
		assert_non_null(strstr(r.note, "inside the band"));
}

/*
 * +3 %: outside a band of +-1 % (a perfectly steady history would give +-0: the floor is the
 * 2 % threshold), and significant: regressed. +1.5 %: below the floor and the threshold: pass.
 */
static void test_floor(void **state)
{
	double steady[RUNS][SAMPLES], latest[SAMPLES];
	struct mb_gate_run runs[RUNS], cur = { .samples = latest, .n = SAMPLES };
	struct mb_gate_opts o;
	struct mb_gate_result r;

	(void)state;
	mb_gate_opts_default(&o);
	for (int i = 0; i < RUNS; i++) {
		fill(steady[i], 100);
		runs[i].samples = steady[i];
		runs[i].n = SAMPLES;
	}
	fill(latest, 101.5);
	assert_int_equal(mb_gate_judge(runs, RUNS, &cur, false, &o, &r), 0);
	assert_float_equal(r.mad, 0, 1e-9);
	assert_float_equal(r.half_width, 2, 1e-9);
	assert_int_equal(r.band, 0);
	assert_int_equal(r.cmp, MB_CMP_NO_CHANGE);
	assert_int_equal(r.verdict, MB_GATE_PASS);
	fill(latest, 103);
	assert_int_equal(mb_gate_judge(runs, RUNS, &cur, false, &o, &r), 0);
	assert_int_equal(r.band, -1);
	assert_int_equal(r.verdict, MB_GATE_REGRESSED);
}

/*
 * A level shift inside the band's spread: the history's medians move by +-2, the latest run
 * sits at 103 (inside 95.55..104.45) with tight samples: the U test over the pooled samples
 * says regressed (+3 %), the band does not: pass, and the note says why.
 */
static void test_shift_inside_band(void **state)
{
	double latest[SAMPLES];
	struct mb_gate_result r;

	(void)state;
	fill(latest, 103);
	judge(latest, SAMPLES, false, &r);
	assert_int_equal(r.cmp, MB_CMP_REGRESSED);
	assert_int_equal(r.band, 0);
	assert_int_equal(r.verdict, MB_GATE_PASS);
	assert_non_null(strstr(r.note, "inside the band"));
}

static void test_too_few_and_empty(void **state)
{
	double latest[SAMPLES], nan_only[2] = { NAN, NAN };
	struct mb_gate_run cur = { .samples = latest, .n = SAMPLES };
	struct mb_gate_run empty = { .samples = nan_only, .n = 2 };
	struct mb_gate_opts o;
	struct mb_gate_result r;

	(void)state;
	mb_gate_opts_default(&o);
	setup_history();
	fill(latest, 150);
	assert_int_equal(mb_gate_judge(prev, 2, &cur, false, &o, &r), 0);
	assert_int_equal(r.verdict, MB_GATE_TOO_FEW);
	assert_int_equal(r.previous, 2);
	assert_float_equal(r.latest_median, 150, 1e-9);
	/* A previous run without samples does not count. */
	prev[1] = empty;
	assert_int_equal(mb_gate_judge(prev, 3, &cur, false, &o, &r), 0);
	assert_int_equal(r.verdict, MB_GATE_TOO_FEW);
	assert_int_equal(r.previous, 2);
	assert_int_equal(mb_gate_judge(prev, RUNS, &empty, false, &o, &r), 0);
	assert_int_equal(r.verdict, MB_GATE_NO_SAMPLES);
}

static void test_table(void **state)
{
	struct mb_gate_row rows[2] = {
		{ .bench = "map-lookup", .params = "nr_entries=100", .kernel = "6.18",
		  .unit = "ns/op", .label = "nr_entries=100" },
		{ .bench = "bpf-noop", .params = "", .kernel = "6.18", .unit = "ns/op" },
	};
	double latest[SAMPLES];
	struct mb_gate_opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	mb_gate_opts_default(&o);
	fill(latest, 110);
	judge(latest, SAMPLES, false, &rows[0].r);
	assert_int_equal(mb_gate_judge(prev, 1, &(struct mb_gate_run){ latest, SAMPLES }, false,
				       &o, &rows[1].r), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(mb_gate_print(f, rows, 2, MB_FORMAT_MD, &o, 10), 0);
	fclose(f);
	assert_non_null(strstr(buf, "### mapbench gate: regression"));
	assert_non_null(strstr(buf, "| map-lookup | nr_entries=100 | 6.18 |"));
	assert_non_null(strstr(buf, "| regressed |"));
	assert_non_null(strstr(buf, "1 previous run, at least 3 needed"));
	assert_non_null(strstr(buf, "1 regressed, 0 improved, 0 pass, 1 too few runs"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_band_figures),
		cmocka_unit_test(test_regression),
		cmocka_unit_test(test_noisy_run_passes),
		cmocka_unit_test(test_floor),
		cmocka_unit_test(test_shift_inside_band),
		cmocka_unit_test(test_too_few_and_empty),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
