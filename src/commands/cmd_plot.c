// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * mapbench plot FILE.json -o chart.svg|png: draw a sweep or a comparison with gnuplot; with
 * --latency, the per-op latency distributions of the results of one or more documents.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "commands.h"
#include "verb.h"
#include "output/doc.h"
#include "output/gnuplot.h"
#include "output/plot.h"
#include "util/json.h"
#include "util/log.h"
#include "util/outfile.h"

struct plot_args {
	const char *x, *lines, *metric, *bench, *title;
	struct mb_cli_list where;
	bool overlay;
	bool cdf, hist;
};

static const struct mb_opt plot_opts[] = {
	MB_OPT_STRING_DEF("x", struct plot_args, x, NULL, "NAME",
			  "Swept parameter on x (default: the preset's, or the one with most values)"),
	MB_OPT_STRING_DEF("lines", struct plot_args, lines, NULL, "NAME",
			  "One line per value of this parameter ('none': a single line)"),
	MB_OPT_STRING_DEF("metric", struct plot_args, metric, NULL, "NAME",
			  "y: throughput, latency, auto, or a summary key (total, metrics.NAME)"),
	MB_OPT_STRING_DEF("bench", struct plot_args, bench, NULL, "NAME[,NAME]",
			  "Panels to draw (default: one per bench of the sweep); with --latency: the results to draw"),
	MB_OPT_FLAG_DEF("overlay", struct plot_args, overlay,
			"Every bench in one panel, a line per bench (and per --lines value)"),
	MB_OPT_STRING_DEF("title", struct plot_args, title, NULL, "TEXT", "Title of the chart"),
	MB_OPT_FLAG_DEF("cdf", struct plot_args, cdf,
			"With --latency: the share of timed ops at or below x (the default)"),
	MB_OPT_FLAG_DEF("hist", struct plot_args, hist,
			"With --latency: each histogram bucket's share of the timed ops"),
	MB_OPT_CUSTOM_DEF("where", struct plot_args, where, NULL, mb_cli_list_add,
			  mb_cli_list_format, NULL, "NAME=VALUE",
			  "Hold another swept parameter at VALUE (default: its first value)"),
	MB_OPT_END,
};

/* The global options plot takes, as plot uses them; any other is refused. */
static const struct mb_cli_global plot_globals[] = {
	{ "help", "Show this help" },
	{ "latency", "Draw each result's per-op latency distribution (latency_ns), one line each" },
	MB_CHART_GLOBALS,
	{ NULL },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: mapbench plot [OPTIONS] FILE.json -o CHART.svg|CHART.png\n"
		"       mapbench plot --latency [--cdf|--hist] FILE.json... -o CHART.svg|CHART.png\n"
		"\n"
		"Draws, with gnuplot, the output of mapbench sweep as a line chart (x: a swept\n"
		"parameter, on a log scale when its values span two decades or more; y: the metric's\n"
		"mean with its standard deviation as error bars; one line per value of a second\n"
		"parameter; one panel per bench, or one for all with --overlay; other swept\n"
		"parameters held at one value), or the JSON of mapbench compare as a bar chart of the\n"
		"relative changes, coloured by verdict.\n"
		"With --latency: the per-op latency distribution of every result of the files\n"
		"(runs or sweeps made with --latency), one line each, on a log scale of ns: a CDF,\n"
		"or with --hist each bucket's share; a result without one is named and left out.\n"
		"The chart is written atomically; the format follows the -o suffix.\n"
		"\n"
		"Options:\n");
	mb_opts_print_help(f, plot_opts);
	mb_cli_print_globals(f, plot_globals);
	fprintf(f, "\nExamples:\n"
		"  mapbench plot sweep.json -o sweep.svg\n"
		"  mapbench plot bloom.json -o bloom.png --x nr_entries --lines nr_hash_funcs --where value_size=8\n"
		"  mapbench plot cmp.json -o cmp.svg\n"
		"  mapbench plot --latency kernel.json syscall.json -o lat.svg\n");
}

/* The chart's options from plot's, for a chart of @term. */
static void chart_opts(struct mb_plot_opts *po, const struct plot_args *args,
		       enum mb_plot_term term)
{
	po->term = term;
	po->x = args->x;
	po->lines = args->lines;
	po->metric = args->metric;
	po->benches = args->bench;
	po->title = args->title;
	po->overlay = args->overlay;
	po->hist = args->hist;
	for (int i = 0; i < args->where.nr; i++)
		po->where[po->nr_where++] = args->where.items[i];
}

/* The options of the other charts are refused with --latency, --cdf and --hist without it. */
static int check_kind(const struct mb_cli *cli, const struct plot_args *args)
{
	const char *sweep_opt = args->x ? "x" : args->lines ? "lines" : args->metric ? "metric" :
				args->overlay ? "overlay" : args->where.nr ? "where" : NULL;

	if (!cli->env.latency) {
		if (args->cdf || args->hist) {
			mb_err("plot: --%s: draws a latency distribution: only with --latency",
			       args->cdf ? "cdf" : "hist");
			return -EINVAL;
		}
		if (cli->nr_names != 1) {
			mb_err("plot: needs one FILE.json, the output of mapbench sweep or compare (got %d)",
			       cli->nr_names);
			return -EINVAL;
		}
		return 0;
	}
	if (sweep_opt) {
		mb_err("plot: --%s: an option of a sweep's chart, not of --latency's", sweep_opt);
		return -EINVAL;
	}
	if (args->cdf && args->hist) {
		mb_err("plot: --cdf and --hist: one chart at a time; give one of them");
		return -EINVAL;
	}
	if (cli->nr_names < 1) {
		mb_err("plot: --latency needs one or more FILE.json, results of runs with --latency");
		return -EINVAL;
	}
	return 0;
}

/* --latency: every file read, then the script of their results' distributions. */
static char *latency_script(const struct mb_cli *cli, const struct mb_plot_opts *po)
{
	struct mb_plot_input *in = calloc((size_t)cli->nr_names, sizeof(*in));
	enum mb_doc_kind kind;
	char err[1024], *script = NULL;
	int n = 0;

	if (!in) {
		mb_err("plot: out of memory");
		return NULL;
	}
	for (; n < cli->nr_names; n++) {
		in[n].path = cli->names[n];
		in[n].doc = mb_doc_load(cli->names[n], &kind, err, sizeof(err));
		if (!in[n].doc) {
			mb_err("plot: %s", err);
			goto out;
		}
		if (kind != MB_DOC_RESULTS) {
			mb_err("plot: %s: a comparison has no latency distribution: give the documents of runs made with --latency",
			       cli->names[n]);
			n++;
			goto out;
		}
	}
	script = mb_plot_latency_script(in, n, po, err, sizeof(err));
	if (!script)
		mb_err("plot: %s", err);
out:
	while (n-- > 0)
		mb_json_free((struct mb_json *)in[n].doc);
	free(in);
	return script;
}

/* The script of the chart the command line asks for, or NULL after one line why. */
static char *make_script(const struct mb_cli *cli, const struct mb_plot_opts *po)
{
	struct mb_json *doc;
	enum mb_doc_kind kind;
	char err[1024], *script;

	if (cli->env.latency)
		return latency_script(cli, po);
	doc = mb_doc_load(cli->names[0], &kind, err, sizeof(err));
	if (!doc) {
		mb_err("plot: %s", err);
		return NULL;
	}
	script = mb_plot_script(doc, kind, po, err, sizeof(err));
	if (!script)
		mb_err("plot: %s: %s", cli->names[0], err);
	mb_json_free(doc);
	return script;
}

/* -o's suffixes, in the order of enum mb_plot_term. */
static const char *const chart_suffixes[] = { ".svg", ".png", NULL };

int mb_cmd_plot(int argc, char **argv)
{
	struct plot_args args = { 0 };
	struct mb_plot_opts po = { 0 };
	char *script = NULL;
	const char *out;
	int status = MB_EXIT_USAGE, started, term;
	struct mb_cli cli;

	started = mb_verb_start(argc, argv, &cli, plot_opts, &args, "plot", plot_globals, usage);
	if (started) {
		status = started > 0 ? MB_EXIT_OK : MB_EXIT_USAGE;
		goto done;
	}
	if (check_kind(&cli, &args))
		goto done;
	term = mb_verb_output(&cli, "plot", chart_suffixes, "CHART");
	if (term < 0)
		goto done;
	out = cli.env.output;
	chart_opts(&po, &args, (enum mb_plot_term)term);
	script = make_script(&cli, &po);
	if (!script)
		goto done;
	if (cli.env.verbose)
		fprintf(stderr, "%s", script);
	status = MB_EXIT_FAIL;
	if (mb_gnuplot_write(out, script, cli.env.verbose, "plot"))
		goto done;
	if (!cli.env.quiet)
		fprintf(stderr, "Wrote %s\n", out);
	status = MB_EXIT_OK;
done:
	free(script);
	mb_cli_free(&cli);
	return status;
}
