// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* mapbench gate --db FILE|URL [--window N] [BENCH]: exit 1 when the latest run regressed. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "commands.h"
#include "verb.h"
#include "history_read.h"
#include "util/log.h"
#include "util/outfile.h"

static const struct mb_opt gate_opts[] = {
	MB_OPT_U32_DEF("window", struct mb_reader_args, window, "10", 3, 1000, "N",
		       "Compare the latest run of each series with the N runs before it"),
	MB_READER_FILTER_OPTS(struct mb_reader_args),
	MB_OPT_STRING_DEF("markdown", struct mb_reader_args, markdown, NULL, "FILE",
			  "Also write the verdicts as Markdown to FILE (a CI comment), atomically"),
	MB_OPT_END,
};

static const struct mb_cli_global gate_globals[] = {
	{ "help", "Show this help" },
	MB_READER_DB_GLOBAL,
	{ "threshold", "Changes of the mean below PCT % are 'no change' (and the band is at least +- PCT %)" },
	{ "alpha", "Significance level of the Mann-Whitney U test" },
	{ "quiet", "Print only the regressions (stderr), not the table" },
	{ NULL },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: mapbench gate --db FILE|URL [--window N] [BENCH] [--param NAME=VALUE]...\n"
		"                     [--markdown FILE]\n"
		"\n"
		"The regression gate for CI: the runs of the history are grouped into series (bench,\n"
		"parameters, machine class, kernel), and the latest run of each bench, parameter set\n"
		"and machine class is judged against the --window runs before it on its kernel, twice:\n"
		"  samples  compare's verdict on the samples of the latest run against those of the\n"
		"           previous runs pooled (Mann-Whitney U, --threshold, --alpha)\n"
		"  band     the latest run's median against the median of the previous runs' medians\n"
		"           +- 3 scaled MADs (1.4826 * MAD), never narrower than +- --threshold\n"
		"It regressed only when both say worse (improved: both say better), so one noisy run\n"
		"neither hides a real regression nor fails a good change. Fewer than 3 previous runs:\n"
		"'too few runs', not a failure. Exit status: 0, 1 when a series regressed (or the\n"
		"history cannot be read), 2 on bad input.\n"
		"\n"
		"Options:\n");
	mb_opts_print_help(f, gate_opts);
	mb_cli_print_globals(f, gate_globals);
	fprintf(f, "\nExamples:\n"
		"  mapbench gate --db results.db\n"
		"  mapbench gate --db results.db --window 20 map-lookup --markdown gate.md\n"
		"  MAPBENCH_DB=postgresql://ci@db/mapbench mapbench gate --threshold 5\n");
}

/* One line per regression on stderr: the series and the figures that judged it. */
static void say_regressions(const struct mb_gate_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct mb_gate_result *r = &rows[i].r;

		if (r->verdict != MB_GATE_REGRESSED)
			continue;
		mb_err("gate: %s %s regressed (kernel %s, %s): median %.4g %s outside %.4g..%.4g (the previous %d runs' %.4g +- %.4g), mean %+.1f %%, p %.2g",
		       rows[i].bench, *rows[i].params ? rows[i].params : "(no parameters)",
		       rows[i].kernel, rows[i].time, r->latest_median, rows[i].unit, r->lo, r->hi,
		       r->previous, r->center, r->half_width, r->change * 100, r->test.p);
	}
}

struct md_ctx {
	const struct mb_gate_row *rows;
	size_t n;
	const struct mb_gate_opts *o;
	int window;
};

static int write_md(FILE *f, void *p)
{
	const struct md_ctx *c = p;

	return mb_gate_print(f, c->rows, c->n, MB_FORMAT_MD, c->o, c->window);
}

/* The verdicts: the table on stdout, the Markdown file, the regressions; an exit status. */
static int report(const struct mb_cli *cli, const struct mb_reader_args *a,
		  const struct mb_series_set *set)
{
	struct mb_gate_opts o;
	struct mb_gate_row *rows = NULL;
	struct md_ctx md;
	char err[1024];
	size_t n;
	int status = MB_EXIT_FAIL;

	mb_reader_gate_opts(cli, &o);
	if (mb_gate_series(set, &o, (int)a->window, &rows, &n)) {
		mb_err("gate: out of memory");
		goto out;
	}
	if (!cli->env.quiet && mb_gate_print(stdout, rows, n, MB_FORMAT_TEXT, &o, (int)a->window))
		goto out;
	md = (struct md_ctx){ .rows = rows, .n = n, .o = &o, .window = (int)a->window };
	if (a->markdown && mb_write_atomic(a->markdown, write_md, &md, err, sizeof(err))) {
		mb_err("gate: --markdown %s", err);
		goto out;
	}
	if (!n)
		mb_warn("gate: no run in the history matches: nothing to judge");
	say_regressions(rows, n);
	status = mb_gate_count(rows, n, MB_GATE_REGRESSED) ? MB_EXIT_FAIL : MB_EXIT_OK;
out:
	free(rows);
	return status;
}

static int check_args(const struct mb_cli *cli, const struct mb_reader_args *a,
		      struct mb_store_filter *f)
{
	char err[1024];

	if (mb_reader_filter(cli, "gate", a, f))
		return -EINVAL;
	if (a->markdown && mb_output_check(a->markdown, err, sizeof(err))) {
		mb_err("gate: --markdown %s: %s", a->markdown, err);
		return -EINVAL;
	}
	return 0;
}

int mb_cmd_gate(int argc, char **argv)
{
	struct mb_reader_args args = { 0 };
	struct mb_series_set set = { .by_kernel = true };
	struct mb_store_filter filter;
	int status = MB_EXIT_USAGE, started;
	const char *db;
	struct mb_cli cli;

	started = mb_verb_start(argc, argv, &cli, gate_opts, &args, "gate", gate_globals, usage);
	if (started) {
		status = started > 0 ? MB_EXIT_OK : MB_EXIT_USAGE;
		goto out;
	}
	if (check_args(&cli, &args, &filter))
		goto out;
	db = mb_cmd_db(&cli, "gate");
	if (!db)
		goto out;
	status = mb_reader_load("gate", db, &filter, &set, 1);
	if (status == MB_EXIT_OK)
		status = report(&cli, &args, &set);
out:
	mb_series_free(&set);
	mb_cli_free(&cli);
	return status;
}
