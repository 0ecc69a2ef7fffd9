// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* mapbench report --db FILE|URL -o report.html: the latest verdicts and trends, one page. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "commands.h"
#include "verb.h"
#include "history_read.h"
#include "output/html_report.h"
#include "util/log.h"
#include "util/outfile.h"

static const struct mb_opt report_opts[] = {
	MB_OPT_U32_DEF("window", struct mb_reader_args, window, "10", 3, 1000, "N",
		       "The gate's verdicts: the latest run of each series against the N runs before it"),
	MB_READER_FILTER_OPTS(struct mb_reader_args),
	MB_OPT_END,
};

static const struct mb_cli_global report_globals[] = {
	{ "help", "Show this help" },
	MB_READER_DB_GLOBAL,
	{ "output", "The page: FILE.html (required)" },
	{ "threshold", "The gate's verdicts: changes of the mean below PCT % are 'no change'" },
	{ "alpha", "The gate's verdicts: significance level of the Mann-Whitney U test" },
	{ "quiet", "Do not say which file was written" },
	{ NULL },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: mapbench report --db FILE|URL [BENCH] [--param NAME=VALUE]... [--window N]\n"
		"                       -o REPORT.html\n"
		"\n"
		"Writes one static HTML page, with no script and nothing fetched from elsewhere: a\n"
		"table of the latest run of each series with the verdict of mapbench gate (the same\n"
		"--window, --threshold and --alpha), then per bench a trend drawn as inline SVG (the\n"
		"mean of each run, one line per parameter set, a dashed mark where the kernel\n"
		"changed). The page is written atomically.\n"
		"\n"
		"Options:\n");
	mb_opts_print_help(f, report_opts);
	mb_cli_print_globals(f, report_globals);
	fprintf(f, "\nExamples:\n"
		"  mapbench report --db results.db -o report.html\n"
		"  mapbench report --db results.db map-lookup --window 20 -o lookup.html\n");
}

static const char *const page_suffixes[] = { ".html", ".htm", NULL };

static int write_page(FILE *f, void *p)
{
	return mb_html_report_write(f, p);
}

/* The gate over @by_kernel, the charts from @across, the page to -o. */
static int make_page(const struct mb_cli *cli, const struct mb_reader_args *a, const char *db,
		     const struct mb_series_set *by_kernel, const struct mb_series_set *across)
{
	struct mb_gate_opts o;
	struct mb_html_report page = { .source = mb_reader_source(db), .gate = &o,
				       .window = (int)a->window, .trend = across };
	struct mb_gate_row *rows = NULL;
	char err[1024], when[32];
	time_t now = time(NULL);
	int status = MB_EXIT_FAIL;

	mb_reader_gate_opts(cli, &o);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	page.generated = when;
	if (mb_gate_series(by_kernel, &o, (int)a->window, &rows, &page.nr_rows)) {
		mb_err("report: out of memory");
		goto out;
	}
	page.rows = rows;
	if (mb_write_atomic(cli->env.output, write_page, &page, err, sizeof(err))) {
		mb_err("report: -o %s", err);
		goto out;
	}
	if (!cli->env.quiet)
		fprintf(stderr, "Wrote %s\n", cli->env.output);
	status = MB_EXIT_OK;
out:
	free(rows);
	return status;
}

int mb_cmd_report(int argc, char **argv)
{
	struct mb_reader_args args = { 0 };
	struct mb_series_set sets[2] = { { .by_kernel = true }, { .by_kernel = false } };
	struct mb_store_filter filter;
	int status = MB_EXIT_USAGE, started;
	const char *db = NULL;
	struct mb_cli cli;

	started = mb_verb_start(argc, argv, &cli, report_opts, &args, "report", report_globals, usage);
	if (started) {
		status = started > 0 ? MB_EXIT_OK : MB_EXIT_USAGE;
		goto out;
	}
	if (mb_reader_filter(&cli, "report", &args, &filter) ||
	    mb_verb_output(&cli, "report", page_suffixes, "REPORT") < 0)
		goto out;
	db = mb_cmd_db(&cli, "report");
	if (!db)
		goto out;
	/* One read, grouped twice: by kernel for the verdicts, across kernels for the trends. */
	status = mb_reader_load("report", db, &filter, sets, 2);
	if (status == MB_EXIT_OK)
		status = make_page(&cli, &args, db, &sets[0], &sets[1]);
out:
	mb_series_free(&sets[0]);
	mb_series_free(&sets[1]);
	mb_cli_free(&cli);
	return status;
}
