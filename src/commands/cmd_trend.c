// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* mapbench trend --db FILE|URL [BENCH] -o CHART.svg|png: the history drawn with gnuplot. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "commands.h"
#include "verb.h"
#include "history_read.h"
#include "output/gnuplot.h"
#include "output/trend.h"
#include "util/log.h"
#include "util/outfile.h"

static const struct mb_opt trend_opts[] = {
	MB_READER_FILTER_OPTS(struct mb_reader_args),
	MB_OPT_STRING_DEF("title", struct mb_reader_args, title, NULL, "TEXT", "Title of the chart"),
	MB_OPT_END,
};

static const struct mb_cli_global trend_globals[] = {
	{ "help", "Show this help" },
	MB_READER_DB_GLOBAL,
	MB_CHART_GLOBALS,
	{ NULL },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: mapbench trend --db FILE|URL [BENCH] [--param NAME=VALUE]... [--since DATE]\n"
		"                      -o CHART.svg|CHART.png\n"
		"\n"
		"Draws, with gnuplot, the runs of the results history: one panel per bench (at most\n"
		"%d; name a BENCH), x its runs oldest first, y the mean of each run's headline figure\n"
		"with its standard deviation as error bars, one line per parameter set (and machine\n"
		"class, where a bench ran on several), the kernel release marked on the x axis, with a\n"
		"dashed line, where it changes. The chart is written atomically; the format follows\n"
		"the -o suffix.\n"
		"\n"
		"Options:\n", MB_TREND_MAX_PANELS);
	mb_opts_print_help(f, trend_opts);
	mb_cli_print_globals(f, trend_globals);
	fprintf(f, "\nExamples:\n"
		"  mapbench trend --db results.db -o trend.svg\n"
		"  mapbench trend --db results.db map-lookup --param key_size=4 -o lookup.png\n");
}

/* -o's suffixes, in the order of enum mb_plot_term. */
static const char *const chart_suffixes[] = { ".svg", ".png", NULL };

static int draw(const struct mb_cli *cli, const struct mb_reader_args *a,
		const struct mb_series_set *set, enum mb_plot_term term)
{
	char err[1024], *script = mb_trend_script(set, term, a->title, err, sizeof(err));
	int status = MB_EXIT_FAIL;

	if (!script) {
		mb_err("trend: %s", err);
		return MB_EXIT_FAIL;
	}
	if (cli->env.verbose)
		fprintf(stderr, "%s", script);
	if (!mb_gnuplot_write(cli->env.output, script, cli->env.verbose, "trend")) {
		if (!cli->env.quiet)
			fprintf(stderr, "Wrote %s\n", cli->env.output);
		status = MB_EXIT_OK;
	}
	free(script);
	return status;
}

int mb_cmd_trend(int argc, char **argv)
{
	struct mb_reader_args args = { 0 };
	struct mb_series_set set = { .by_kernel = false };
	struct mb_store_filter filter;
	int status = MB_EXIT_USAGE, started, term;
	const char *db;
	struct mb_cli cli;

	started = mb_verb_start(argc, argv, &cli, trend_opts, &args, "trend", trend_globals, usage);
	if (started) {
		status = started > 0 ? MB_EXIT_OK : MB_EXIT_USAGE;
		goto out;
	}
	if (mb_reader_filter(&cli, "trend", &args, &filter))
		goto out;
	term = mb_verb_output(&cli, "trend", chart_suffixes, "CHART");
	db = term < 0 ? NULL : mb_cmd_db(&cli, "trend");
	if (!db)
		goto out;
	status = mb_reader_load("trend", db, &filter, &set, 1);
	if (status == MB_EXIT_OK)
		status = draw(&cli, &args, &set, (enum mb_plot_term)term);
out:
	mb_series_free(&set);
	mb_cli_free(&cli);
	return status;
}
