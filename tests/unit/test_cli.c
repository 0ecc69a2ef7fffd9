// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cli/cli.h"
#include "util/log.h"
#include "families/registry.h"
#include "core/runner.h"

#define ARGV(...) ((char *[]){ "mapbench", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "mapbench", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(cli, ...) mb_cli_parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), cli)

static int setup(void **state)
{
	(void)state;
	/* Silence the one-line errors the failing cases print. */
	mb_log_init(true, false, stdout);
	mb_log_set_error_stream(fopen("/dev/null", "w"));
	return 0;
}

static void test_kernel_style(void **state)
{
	struct mb_cli cli;

	(void)state;
	assert_int_equal(PARSE(&cli, "-w1", "-d5", "-p16", "-c8", "-a", "count-local"), 0);
	assert_int_equal(cli.env.warmup, 1);
	assert_int_equal(cli.env.duration, 5);
	assert_int_equal(cli.env.producers, 16);
	assert_int_equal(cli.env.consumers, 8);
	assert_true(cli.env.affinity);
	assert_int_equal(cli.nr_names, 1);
	assert_string_equal(cli.names[0], "count-local");
	assert_true(mb_cli_given(&cli, "duration"));
	assert_false(mb_cli_given(&cli, "format"));
	mb_cli_free(&cli);

	assert_int_equal(PARSE(&cli, "-aqv", "-d", "3", "--producers=2", "--warm-up"), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "-aqv", "-d", "3", "--producers=2", "count-global",
			       "count-local"), 0);
	assert_true(cli.env.affinity && cli.env.quiet && cli.env.verbose);
	assert_int_equal(cli.env.duration, 3);
	assert_int_equal(cli.env.producers, 2);
	assert_int_equal(cli.nr_names, 2);
	mb_cli_free(&cli);
}

static void test_cpusets(void **state)
{
	struct mb_cli cli;

	(void)state;
	assert_int_equal(PARSE(&cli, "--prod-affinity", "0-1", "--cons_affinity=1"), 0);
	assert_int_equal(cli.env.prod_cpus.count, 2);
	assert_int_equal(cli.env.cons_cpus.count, 1);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "--prod-affinity", "-1"), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "--prod-affinity", "2-1"), -EINVAL);
	mb_cli_free(&cli);
}

static void test_bad_input(void **state)
{
	struct mb_cli cli;

	(void)state;
	assert_int_equal(PARSE(&cli, "-d", "0"), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "-d", "5x"), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "-p", "-1"), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "-p", "0"), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "-d"), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "-x"), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "--no-such-option"), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "--affinity=1"), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "--format", "xml"), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "--nr_loops"), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "-w", "0"), 0);
	mb_cli_free(&cli);
}

static void test_bench_options(void **state)
{
	struct mb_cli cli;
	struct mb_run run;
	const uint32_t *nr_loops;

	(void)state;
	assert_int_equal(PARSE(&cli, "bpf-loop", "--nr-loops", "100"), 0);
	assert_int_equal(cli.nr_items, 1);
	mb_cpuset_online(&cli.env.online);
	assert_int_equal(mb_run_init(&run, mb_bench_find("bpf-loop"), &cli.env), 0);
	assert_int_equal(mb_cli_apply(&cli, &run, 0), 0);
	nr_loops = run.args;
	assert_int_equal(*nr_loops, 100);
	assert_true(mb_run_opt_given(&run, "nr_loops"));
	assert_int_equal(mb_cli_check_unused(&cli, &run, 1), 0);
	mb_run_free(&run);

	/* An option no selected bench has is an error. */
	assert_int_equal(mb_run_init(&run, mb_bench_find("count-local"), &cli.env), 0);
	cli.items[0].used = false;
	assert_int_equal(mb_cli_apply(&cli, &run, 0), 0);
	assert_int_equal(mb_cli_check_unused(&cli, &run, 1), -EINVAL);
	mb_run_free(&run);
	mb_cli_free(&cli);

	/* Out of range for the bench: reported in pass 2. */
	assert_int_equal(PARSE(&cli, "bpf-loop", "--nr_loops=0"), 0);
	assert_int_equal(mb_run_init(&run, mb_bench_find("bpf-loop"), &cli.env), 0);
	assert_int_equal(mb_cli_apply(&cli, &run, 0), -EINVAL);
	mb_run_free(&run);
	mb_cli_free(&cli);
}

/* Bench options are positional: before any name for all, after a name for that bench only. */
static void test_scope(void **state)
{
	const struct mb_bench *loop = mb_bench_find("bpf-loop");
	struct mb_run runs[2];
	struct mb_cli cli;

	(void)state;
	assert_int_equal(PARSE(&cli, "--nr_loops", "7", "bpf-loop", "--nr_loops", "5", "bpf-loop",
			       "--nr_loops", "50"), 0);
	assert_int_equal(cli.items[0].scope_first, -1);
	assert_int_equal(cli.items[1].scope_first, 0);
	assert_int_equal(cli.items[1].scope_last, 0);
	assert_int_equal(cli.items[2].scope_first, 1);
	assert_int_equal(cli.items[2].scope_last, 1);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(mb_run_init(&runs[i], loop, &cli.env), 0);
		assert_int_equal(mb_cli_apply(&cli, &runs[i], i), 0);
	}
	/* The unscoped 7 comes first, each bench's own value after it. */
	assert_int_equal(*(const uint32_t *)runs[0].args, 5);
	assert_int_equal(*(const uint32_t *)runs[1].args, 50);
	assert_int_equal(mb_cli_check_unused(&cli, runs, 2), 0);
	for (int i = 0; i < 2; i++)
		mb_run_free(&runs[i]);
	mb_cli_free(&cli);

	/* Options after a group of names belong to the whole group. */
	assert_int_equal(PARSE(&cli, "bpf-loop", "bpf-loop", "--nr_loops", "3", "count-local"), 0);
	assert_int_equal(cli.items[0].scope_first, 0);
	assert_int_equal(cli.items[0].scope_last, 1);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(mb_run_init(&runs[i], loop, &cli.env), 0);
		assert_int_equal(mb_cli_apply(&cli, &runs[i], i), 0);
		assert_int_equal(*(const uint32_t *)runs[i].args, 3);
		mb_run_free(&runs[i]);
	}
	mb_cli_free(&cli);

	/* A run from no name (the default suite, a preset) takes every option. */
	assert_int_equal(PARSE(&cli, "bpf-loop", "--nr_loops", "9"), 0);
	assert_int_equal(mb_run_init(&runs[0], loop, &cli.env), 0);
	assert_int_equal(mb_cli_apply(&cli, &runs[0], -1), 0);
	assert_int_equal(*(const uint32_t *)runs[0].args, 9);
	mb_run_free(&runs[0]);
	mb_cli_free(&cli);
}

static void test_validate(void **state)
{
	struct mb_cli cli;
	struct mb_run run;

	(void)state;
	/* Consumers are refused by benches that have none. */
	assert_int_equal(PARSE(&cli, "-c", "1", "count-local"), 0);
	mb_cpuset_online(&cli.env.online);
	assert_int_equal(mb_run_init(&run, mb_bench_find("count-local"), &cli.env), 0);
	assert_int_equal(mb_run_validate(&run), -EINVAL);
	mb_run_free(&run);
	mb_cli_free(&cli);

	/* A CPU set smaller than the producer count. */
	assert_int_equal(PARSE(&cli, "-p", "2", "--prod-affinity", "0", "count-local"), 0);
	mb_cpuset_online(&cli.env.online);
	assert_int_equal(mb_run_init(&run, mb_bench_find("count-local"), &cli.env), 0);
	assert_int_equal(mb_run_validate(&run), -EINVAL);
	mb_run_free(&run);
	mb_cli_free(&cli);

	/* CPUs that are not online. */
	assert_int_equal(PARSE(&cli, "--prod-affinity", "4095", "count-local"), 0);
	mb_cpuset_online(&cli.env.online);
	assert_int_equal(mb_run_init(&run, mb_bench_find("count-local"), &cli.env), 0);
	assert_int_equal(mb_run_validate(&run), -EINVAL);
	mb_run_free(&run);
	mb_cli_free(&cli);

	/* -a wraps around the online CPUs. */
	assert_int_equal(PARSE(&cli, "-a", "-p", "3", "count-local"), 0);
	mb_cpuset_online(&cli.env.online);
	assert_int_equal(mb_run_init(&run, mb_bench_find("count-local"), &cli.env), 0);
	assert_int_equal(mb_run_validate(&run), 0);
	assert_int_equal(run.prod[0].cpu, mb_cpuset_next(&cli.env.online, 0));
	if (cli.env.online.count == 1)
		assert_int_equal(run.prod[1].cpu, run.prod[0].cpu);
	else
		assert_int_not_equal(run.prod[1].cpu, run.prod[0].cpu);
	mb_run_free(&run);
	mb_cli_free(&cli);
}

/* -o's suffix: the format when --format is not given, refused when it names another. */
static void test_output_suffix(void **state)
{
	struct mb_cli cli;

	(void)state;
	assert_int_equal(PARSE(&cli, "-o", "r.json", "count-local"), 0);
	assert_int_equal(mb_cli_output_format(&cli, "", -1), 0);
	assert_int_equal(cli.env.format, MB_FORMAT_JSON);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "-o", "dir.csv/r", "count-local"), 0);
	assert_int_equal(mb_cli_output_format(&cli, "", -1), 0);
	assert_int_equal(cli.env.format, MB_FORMAT_TEXT);	/* a directory's dot is no suffix */
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "--format", "csv", "-o", "r.json", "count-local"), 0);
	assert_int_equal(mb_cli_output_format(&cli, "", -1), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "--format", "json", "-o", "r.txt", "count-local"), 0);
	assert_int_equal(mb_cli_output_format(&cli, "", -1), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "--format", "csv", "-o", "r.csv", "count-local"), 0);
	assert_int_equal(mb_cli_output_format(&cli, "", -1), 0);
	assert_int_equal(cli.env.format, MB_FORMAT_CSV);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "--format", "json", "-o", "r.out", "count-local"), 0);
	assert_int_equal(mb_cli_output_format(&cli, "", -1), 0);
	assert_int_equal(cli.env.format, MB_FORMAT_JSON);
	mb_cli_free(&cli);
	/* A sweep's -o is always JSON: --format is the table's, a .csv suffix contradicts -o. */
	assert_int_equal(PARSE(&cli, "--format", "csv", "-o", "s.json", "count-local"), 0);
	assert_int_equal(mb_cli_output_format(&cli, "sweep: ", MB_FORMAT_JSON), 0);
	assert_int_equal(cli.env.format, MB_FORMAT_CSV);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "-o", "s.csv", "count-local"), 0);
	assert_int_equal(mb_cli_output_format(&cli, "sweep: ", MB_FORMAT_JSON), -EINVAL);
	mb_cli_free(&cli);
}

/* -o again: each further file's format from its suffix; a bare name, a repeat, a fifth: refused. */
static void test_more_outputs(void **state)
{
	struct mb_cli cli;

	(void)state;
	assert_int_equal(PARSE(&cli, "--format", "json", "-o", "r.out", "-o", "r.csv", "-o",
			       "r.txt", "count-local"), 0);
	assert_int_equal(mb_cli_output_format(&cli, "", -1), 0);
	assert_string_equal(cli.env.output, "r.out");
	assert_int_equal(cli.env.format, MB_FORMAT_JSON);
	assert_int_equal(cli.env.nr_more_outputs, 2);
	assert_int_equal(cli.env.more_format[0], MB_FORMAT_CSV);
	assert_int_equal(cli.env.more_format[1], MB_FORMAT_TEXT);
	assert_int_equal(mb_cli_one_output(&cli, "sweep"), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "-o", "r.json", "-o", "r", "count-local"), 0);
	assert_int_equal(mb_cli_output_format(&cli, "", -1), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "-o", "r.json", "-o", "r.md", "count-local"), 0);
	assert_int_equal(mb_cli_output_format(&cli, "", -1), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "-o", "r.json", "-o", "r.csv", "-o", "r.json", "count-local"), 0);
	assert_int_equal(mb_cli_output_format(&cli, "", -1), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "-o", "a.json", "-o", "b.json", "-o", "c.csv", "-o", "d.csv",
			       "-o", "e.txt", "count-local"), -EINVAL);
	mb_cli_free(&cli);
	assert_int_equal(PARSE(&cli, "-o", "a.json", "count-local"), 0);
	assert_int_equal(mb_cli_one_output(&cli, "sweep"), 0);
	mb_cli_free(&cli);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_style),
		cmocka_unit_test(test_cpusets),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_bench_options),
		cmocka_unit_test(test_scope),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_output_suffix),
		cmocka_unit_test(test_more_outputs),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
