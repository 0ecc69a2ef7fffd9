// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Result tables (text, CSV, Markdown), subcommand options, baseline names and the progress bar. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output/baseline.h"
#include "cli/cli.h"
#include "output/progress.h"
#include "output/table.h"

static char *render(const struct mb_table *t, enum mb_format format)
{
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);

	assert_int_equal(mb_table_write(f, t, format), 0);
	fclose(f);
	return out;
}

static void test_table(void **state)
{
	struct mb_table *t = mb_table_new(3);
	char *s;

	(void)state;
	mb_table_head(t, 0, "bench", false);
	mb_table_head(t, 1, "M ops/s", true);
	mb_table_head(t, 2, "note", false);
	mb_table_row(t);
	mb_table_cell(t, "bpf-loop");
	mb_table_cell(t, "%.1f \u00B1 %.1f", 12.0, 0.5);
	mb_table_cell(t, "a, \"b\" | c");
	mb_table_row(t);
	mb_table_cell(t, "x");
	mb_table_cell(t, "1.0");
	assert_int_equal(mb_table_rows(t), 2);
	s = render(t, MB_FORMAT_TEXT);
	/* The plus-minus sign is one column wide; no trailing blanks after an empty last cell. */
	assert_string_equal(s, "bench        M ops/s  note\n"
			       "bpf-loop  12.0 ± 0.5  a, \"b\" | c\n"
			       "x                1.0\n");
	free(s);
	s = render(t, MB_FORMAT_CSV);
	assert_string_equal(s, "bench,M ops/s,note\nbpf-loop,12.0 ± 0.5,\"a, \"\"b\"\" | c\"\nx,1.0,\n");
	free(s);
	s = render(t, MB_FORMAT_MD);
	assert_string_equal(s, "| bench | M ops/s | note |\n|---|---:|---|\n"
			       "| bpf-loop | 12.0 ± 0.5 | a, \"b\" \\| c |\n| x | 1.0 |  |\n");
	free(s);
	mb_table_free(t);
}

struct cmd_args {
	struct mb_cli_list items;
	uint32_t n;
};

static const struct mb_opt cmd_opts[] = {
	MB_OPT_CUSTOM_DEF("item", struct cmd_args, items, NULL, mb_cli_list_add,
			  mb_cli_list_format, "anything", "X", "repeatable"),
	MB_OPT_U32_DEF("n", struct cmd_args, n, "3", 1, 10, "N", "a number"),
	MB_OPT_END,
};

static void test_cmd_options(void **state)
{
	char *argv[] = { "sweep", "--item", "a=1", "-p2", "--item=b", "bpf-loop", "--nr_loops", "5",
			 "--n", "7", NULL };
	char *bad[] = { "sweep", "--n", "11", NULL };
	struct cmd_args args = { 0 };
	struct mb_cli cli;
	char buf[64];

	(void)state;
	assert_int_equal(mb_cli_parse_cmd(10, argv, &cli, cmd_opts, &args), 0);
	assert_int_equal(args.items.nr, 2);
	assert_string_equal(args.items.items[0], "a=1");
	assert_string_equal(args.items.items[1], "b");
	assert_int_equal(args.n, 7);
	assert_int_equal(cli.env.producers, 2);
	assert_int_equal(cli.nr_names, 1);
	assert_int_equal(cli.nr_items, 1);
	mb_cli_list_format(&args.items, buf, sizeof(buf));
	assert_string_equal(buf, "a=1 b");
	mb_cli_free(&cli);
	assert_int_equal(mb_cli_parse_cmd(3, bad, &cli, cmd_opts, &args), -EINVAL);
	mb_cli_free(&cli);
}

static void test_baseline_names(void **state)
{
	char path[512], err[256];

	(void)state;
	assert_true(mb_baseline_name_ok("main"));
	assert_true(mb_baseline_name_ok("v6.18-rc1_x86.64"));
	assert_false(mb_baseline_name_ok(""));
	assert_false(mb_baseline_name_ok(".hidden"));
	assert_false(mb_baseline_name_ok("a/b"));
	assert_false(mb_baseline_name_ok("a b"));
	assert_false(mb_baseline_name_ok("x123456789x123456789x123456789x123456789x123456789x123456789x1234"));
	setenv("MAPBENCH_BASELINE_DIR", "/tmp/bl", 1);
	assert_int_equal(mb_baseline_path("main", true, path, sizeof(path), err, sizeof(err)), 0);
	assert_string_equal(path, "/tmp/bl/main.json");
	assert_int_equal(mb_baseline_path("./old.json", true, path, sizeof(path), err, sizeof(err)), 0);
	assert_string_equal(path, "./old.json");
	assert_int_equal(mb_baseline_path("./old.json", false, path, sizeof(path), err, sizeof(err)),
			 -EINVAL);
	unsetenv("MAPBENCH_BASELINE_DIR");
	setenv("XDG_DATA_HOME", "/xdg", 1);
	assert_int_equal(mb_baseline_dir(path, sizeof(path)), 0);
	assert_string_equal(path, "/xdg/mapbench/baselines");
	unsetenv("XDG_DATA_HOME");
	setenv("HOME", "/home/u", 1);
	assert_int_equal(mb_baseline_dir(path, sizeof(path)), 0);
	assert_string_equal(path, "/home/u/.local/share/mapbench/baselines");
}

static void test_progress_format(void **state)
{
	char buf[256];

	(void)state;
	mb_progress_duration(buf, sizeof(buf), 42);
	assert_string_equal(buf, "42 s");
	mb_progress_duration(buf, sizeof(buf), 125);
	assert_string_equal(buf, "2:05");
	mb_progress_duration(buf, sizeof(buf), 3 * 3600 + 61);
	assert_string_equal(buf, "3:01:01");
	mb_progress_format(buf, sizeof(buf), 5, 10, 60, 61, "bpf-loop nr_loops=10", 0);
	assert_string_equal(buf, "[##########..........] 5/10 points, 1:00 elapsed, ~1:01 left: bpf-loop nr_loops=10");
	mb_progress_format(buf, sizeof(buf), 5, 10, 60, 61, "bpf-loop nr_loops=10", 30);
	assert_int_equal(strlen(buf), 29);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_cmd_options),
		cmocka_unit_test(test_baseline_names),
		cmocka_unit_test(test_progress_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
