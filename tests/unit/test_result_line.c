// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The RESULT line against a parser written from the kernel's format alone (bench_bpf_timing.c,
 * --machine-readable): the keys in their order, every value with two decimals. A line
 * mapbench makes from known samples, checked value by value against figures worked out by
 * hand, and a line in the kernel's own shape, must both parse.
 */
#include <math.h>
#include <regex.h>
#include <stdint.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/bench.h"
#include "core/env.h"
#include "output/result_line.h"

#define F2 "(-?[0-9]+\\.[0-9]{2})"

static const char kernel_format[] =
	"^RESULT scenario=([^ ]+) samples=([0-9]+) median=" F2 " stddev=" F2 " cv=" F2
	" min=" F2 " p99=" F2 " max=" F2 "$";

struct parsed {
	char scenario[256];
	long samples;
	double v[6];	/* median, stddev, cv, min, p99, max */
};

/* 0 when @line is exactly the kernel's format; its fields in @p. */
static int parse(const char *line, struct parsed *p)
{
	regmatch_t m[10];
	regex_t re;
	int err;

	assert_int_equal(regcomp(&re, kernel_format, REG_EXTENDED), 0);
	err = regexec(&re, line, 10, m, 0);
	regfree(&re);
	if (err)
		return -1;
	snprintf(p->scenario, sizeof(p->scenario), "%.*s", (int)(m[1].rm_eo - m[1].rm_so),
		 line + m[1].rm_so);
	p->samples = strtol(line + m[2].rm_so, NULL, 10);
	for (int i = 0; i < 6; i++)
		p->v[i] = strtod(line + m[3 + i].rm_so, NULL);
	return 0;
}

/*
 * Ten samples (ns/op): 10 11 11 12 12 12 13 13 14 40. Q1 = 11.25, Q3 = 13, fences 8.625 and
 * 15.625: 40 is dropped, 9 left. Their mean is 108 / 9 = 12, median 12, the squared
 * deviations add to 12: stddev sqrt(12 / 8) = 1.2247, cv 10.206 %; p99 at rank 0.99 x 8 = 7.92:
 * 13 + 0.92 = 13.92; min 10, max 14.
 */
static void test_known_samples(void **state)
{
	const double ns[] = { 13, 40, 11, 12, 10, 12, 14, 11, 13, 12, NAN };
	struct mb_result_line rl;
	struct parsed p;
	char line[512];

	(void)state;
	assert_int_equal(mb_result_line_compute(ns, 11, &rl), 0);
	mb_result_line_format(line, sizeof(line), "map-lookup/map_type=hash", &rl);
	assert_string_equal(line, "RESULT scenario=map-lookup/map_type=hash samples=9 median=12.00 stddev=1.22 cv=10.21 min=10.00 p99=13.92 max=14.00");
	assert_int_equal(parse(line, &p), 0);
	assert_string_equal(p.scenario, "map-lookup/map_type=hash");
	assert_int_equal(p.samples, 9);
	assert_float_equal(p.v[0], 12.00, 1e-9);
	assert_float_equal(p.v[1], 1.22, 1e-9);
	assert_float_equal(p.v[2], 10.21, 1e-9);
	assert_float_equal(p.v[3], 10.00, 1e-9);
	assert_float_equal(p.v[4], 13.92, 1e-9);
	assert_float_equal(p.v[5], 14.00, 1e-9);
}

/* Fewer than 8 samples are all kept; one sample has stddev and cv 0, never "nan". */
static void test_few_samples(void **state)
{
	const double three[] = { 20, 22, 90 }, one = 15.5;
	struct mb_result_line rl;
	struct parsed p;
	char line[512];

	(void)state;
	assert_int_equal(mb_result_line_compute(three, 3, &rl), 0);
	assert_int_equal(rl.samples, 3);
	assert_float_equal(rl.median, 22, 1e-12);
	assert_float_equal(rl.max, 90, 1e-12);
	assert_int_equal(mb_result_line_compute(&one, 1, &rl), 0);
	mb_result_line_format(line, sizeof(line), "x", &rl);
	assert_int_equal(parse(line, &p), 0);
	assert_string_equal(line, "RESULT scenario=x samples=1 median=15.50 stddev=0.00 cv=0.00 min=15.50 p99=15.50 max=15.50");
	assert_int_not_equal(mb_result_line_compute(NULL, 0, &rl), 0);
}

/* A line as the kernel prints it parses; a line off its format does not. */
static void test_kernel_line(void **state)
{
	static const char *const bad[] = {
		"RESULT scenario=a samples=5 median=1.234 stddev=0.10 cv=1.00 min=1.00 p99=2.00 max=3.00",
		"RESULT scenario=a samples=5 median=1.2 stddev=0.10 cv=1.00 min=1.00 p99=2.00 max=3.00",
		"RESULT scenario=a samples=5 stddev=0.10 median=1.23 cv=1.00 min=1.00 p99=2.00 max=3.00",
		"RESULT scenario=a b samples=5 median=1.23 stddev=0.10 cv=1.00 min=1.00 p99=2.00 max=3.00",
		"RESULT scenario=a samples=5 median=1.23 stddev=0.10 cv=1.00 min=1.00 p90=1.50 p99=2.00 max=3.00",
		"RESULT scenario=a samples=5 median=1.23 stddev=0.10 cv=1.00 min=1.00 p99=2.00 max=3.00 ",
	};
	struct parsed p;

	(void)state;
	assert_int_equal(parse("RESULT scenario=tcp-v4-lru-hit samples=190 median=45.31 stddev=0.82 cv=1.81 min=44.02 p99=48.77 max=52.10", &p), 0);
	assert_string_equal(p.scenario, "tcp-v4-lru-hit");
	assert_int_equal(p.samples, 190);
	assert_float_equal(p.v[0], 45.31, 1e-9);
	assert_float_equal(p.v[2], 1.81, 1e-9);
	assert_float_equal(p.v[5], 52.10, 1e-9);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_int_not_equal(parse(bad[i], &p), 0);
}

/* The scenario: the bench, the part, the run-shaping globals off their default; one word. */
static void test_scenario(void **state)
{
	const struct mb_bench b = { .name = "map-perf", .part_param = "test" };
	struct mb_env env = { .producers = 2, .call_us = 100 };
	struct mb_run run = { .bench = &b, .env = &env };
	char buf[256];

	(void)state;
	assert_string_equal(mb_result_line_scenario(&run, buf, sizeof(buf)),
			    "map-perf/producers=2");
	snprintf(run.part_name, sizeof(run.part_name), "hash prealloc");
	env.producers = 1;
	env.affinity = true;
	assert_string_equal(mb_result_line_scenario(&run, buf, sizeof(buf)),
			    "map-perf/test=hash_prealloc/affinity=true");
	/* Too long for the buffer: whole parameters or none. */
	assert_string_equal(mb_result_line_scenario(&run, buf, 22), "map-perf");
}

struct named_args {
	const char *scenario;
	uint32_t size;
};

/*
 * A bench that names its scenario option (xdp-lb's --scenario): the option's value is the
 * scenario, the kernel's name, given or not; other options and globals follow as elsewhere.
 */
static void test_named_scenario(void **state)
{
	static const struct mb_opt opts[] = {
		MB_OPT_U32_DEF("size", struct named_args, size, "1", 1, 9, "N", "a size"),
		MB_OPT_STRING_DEF("scenario", struct named_args, scenario, "tcp-v4-lru-hit", "NAME",
				  "a scenario"),
		MB_OPT_END,
	};
	const struct mb_bench b = { .name = "xdp-lb", .opts = opts,
				    .result_scenario = "scenario" };
	struct named_args a = { .scenario = "tcp-v4-lru-hit", .size = 1 };
	struct mb_env env = { .producers = 1, .call_us = 100 };
	struct mb_run run = { .bench = &b, .env = &env, .args = &a };
	char buf[256];

	(void)state;
	assert_string_equal(mb_result_line_scenario(&run, buf, sizeof(buf)), "tcp-v4-lru-hit");
	a.scenario = "udp-v6-lru-hit";
	run.opts_given = 1u << 1;	/* --scenario given: still the name alone */
	assert_string_equal(mb_result_line_scenario(&run, buf, sizeof(buf)), "udp-v6-lru-hit");
	a.size = 3;
	run.opts_given |= 1u << 0;
	env.producers = 2;
	assert_string_equal(mb_result_line_scenario(&run, buf, sizeof(buf)),
			    "udp-v6-lru-hit/size=3/producers=2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_samples),
		cmocka_unit_test(test_few_samples),
		cmocka_unit_test(test_kernel_line),
		cmocka_unit_test(test_scenario),
		cmocka_unit_test(test_named_scenario),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
