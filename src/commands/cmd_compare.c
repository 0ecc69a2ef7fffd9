// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* mapbench compare BASE.json NEW.json: what changed between two runs, and is it significant. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "commands.h"
#include "output/compare.h"
#include "output/doc.h"
#include "util/json.h"
#include "util/log.h"
#include "util/outfile.h"
#include "output/report.h"
#include "core/runner.h"

struct compare_args {
	int metric;			/* enum mb_cmp_metric */
};

static const struct mb_opt compare_opts[] = {
	MB_OPT_ENUM_DEF("metric", struct compare_args, metric, "auto", mb_cmp_metric_names,
			"What to compare: auto (in-kernel ns/op where measured, else throughput)"),
	MB_OPT_END,
};

/* The global options compare takes, as compare uses them; any other is refused. */
static const struct mb_cli_global compare_globals[] = {
	{ "help", "Show this help" },
	{ "quiet", "With -o FILE in json, csv or md: do not also print the verdicts" },
	{ "format", "Output: text (default), json, csv, or md (Markdown tables)" },
	{ "output", "Write the comparison to FILE, atomically (format from a .json/.csv/.md suffix)" },
	{ "threshold", "Changes of the mean below PCT % are 'no change'" },
	{ "alpha", "Significance level of the Mann-Whitney U test" },
	{ "fail-on-regression", "Exit 1 when a result regressed" },
	{ "ignore", "Leave these parameters out of the matching" },
	{ NULL },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: mapbench compare [OPTIONS] BASE.json NEW.json\n"
		"\n"
		"Matches the results of two mapbench documents (runs or sweeps) by bench, parameters,\n"
		"producers, consumers, affinity, call_us and interval_ms, pooling repeats, and prints\n"
		"for each: the compared metric, the mean and standard deviation on both sides, the\n"
		"relative change of the mean, the two-sided Mann-Whitney U test over the measured\n"
		"samples (p), and a verdict:\n"
		"  no change     |change| < --threshold\n"
		"  improved      |change| >= threshold, p < --alpha, in the better direction\n"
		"  regressed     |change| >= threshold, p < --alpha, in the worse direction\n"
		"  within noise  |change| >= threshold but p >= alpha (or too few samples)\n"
		"Higher throughput is better; lower ns/op is better. Results found on one side only are\n"
		"listed. Exit status: 0, 1 with --fail-on-regression when a result regressed, 2 on bad\n"
		"input.\n"
		"\n"
		"Options:\n");
	mb_opts_print_help(f, compare_opts);
	mb_cli_print_globals(f, compare_globals);
	fprintf(f, "\nExamples:\n"
		"  mapbench compare old.json new.json\n"
		"  mapbench compare --ignore nr_loops --fail-on-regression a.json b.json\n"
		"  mapbench compare a.json b.json --format json -o cmp.json && mapbench plot cmp.json -o cmp.svg\n");
}

static int check_globals(const struct mb_cli *cli)
{
	return mb_cli_check_globals(cli, "compare", compare_globals);
}

static int split_ignore(const struct mb_cli *cli, struct mb_cmp_opts *o, char **bufs)
{
	int ret = mb_cmp_opts_ignore(o, &cli->env.ignore, bufs);

	if (ret == -E2BIG)
		mb_err("compare: --ignore: at most %d names", MB_CMP_MAX_IGNORE);
	else if (ret)
		mb_err("compare: out of memory");
	return ret;
}

struct out_ctx {
	const struct mb_comparison *c;
	enum mb_format format;
	const char *base_name, *cur_name;
	const struct mb_json *base, *cur, *doc;
};

static int write_out(FILE *f, void *p)
{
	struct out_ctx *o = p;

	if (o->format == MB_FORMAT_JSON)
		return mb_json_write(f, o->doc, 2);
	return mb_comparison_print(f, o->c, o->format, o->base_name, o->base, o->cur_name, o->cur);
}

/*
 * Parses and checks the command line of compare: 1 when it asked for --help (printed), 0 to go
 * on, -1 on bad input (said).
 */
static int parse_args(int argc, char **argv, struct mb_cli *cli, struct compare_args *args,
		      struct mb_cmp_opts *opts, char **ignore_bufs)
{
	char err[1024];

	if (mb_cli_parse_cmd(argc - 1, argv + 1, cli, compare_opts, args))
		return -1;
	cli->env.argc = argc;
	cli->env.argv = argv;
	mb_log_init(cli->env.quiet, cli->env.verbose, stderr);
	if (cli->env.help) {
		usage(stdout);
		return 1;
	}
	if (check_globals(cli) || split_ignore(cli, opts, ignore_bufs))
		return -1;
	if (cli->nr_names != 2) {
		mb_err("compare: needs two files, BASE.json and NEW.json (got %d; mapbench compare --help)",
		       cli->nr_names);
		return -1;
	}
	if (mb_cli_one_output(cli, "compare") || mb_cli_output_format(cli, "compare: ", -1))
		return -1;
	if (cli->env.output && mb_output_check(cli->env.output, err, sizeof(err))) {
		mb_err("compare: -o/--output %s: %s", cli->env.output, err);
		return -1;
	}
	return 0;
}

/* Loads BASE and NEW, which must both be results of a run or sweep. */
static int load_results(const struct mb_cli *cli, struct mb_json **docs)
{
	char err[1024];

	for (int i = 0; i < 2; i++) {
		enum mb_doc_kind kind;

		docs[i] = mb_doc_load(cli->names[i], &kind, err, sizeof(err));
		if (!docs[i]) {
			mb_err("compare: %s", err);
			return -1;
		}
		if (kind != MB_DOC_RESULTS) {
			mb_err("compare: %s: a comparison, not results of a run or sweep", cli->names[i]);
			return -1;
		}
	}
	return 0;
}

/* Writes the comparison to -o FILE, and then the verdicts to the terminal, or to stdout. */
static int write_comparison(const struct mb_cli *cli, struct out_ctx *oc)
{
	char err[1024];

	if (cli->env.output) {
		if (mb_write_atomic(cli->env.output, write_out, oc, err, sizeof(err))) {
			mb_err("compare: -o/--output %s", err);
			return -1;
		}
		/* The file holds the document; the terminal still gets the verdicts. */
		if (oc->format != MB_FORMAT_TEXT && !cli->env.quiet) {
			oc->format = MB_FORMAT_TEXT;
			write_out(stdout, oc);
		}
	} else if (write_out(stdout, oc) || fflush(stdout)) {
		mb_err("compare: cannot write the output: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int mb_cmd_compare(int argc, char **argv)
{
	struct compare_args args = { 0 };
	struct mb_cmp_opts opts = { 0 };
	struct mb_comparison c = { 0 };
	struct mb_json *docs[2] = { NULL, NULL }, *out = NULL;
	char *ignore_bufs[MB_CLI_LIST_MAX] = { NULL };
	struct out_ctx oc = { 0 };
	int status = MB_EXIT_USAGE, ret;
	struct mb_cli cli;

	ret = parse_args(argc, argv, &cli, &args, &opts, ignore_bufs);
	if (ret) {
		status = ret > 0 ? MB_EXIT_OK : MB_EXIT_USAGE;
		goto out;
	}
	if (load_results(&cli, docs))
		goto out;
	opts.threshold = cli.env.threshold / 100;
	opts.alpha = cli.env.alpha;
	opts.metric = (enum mb_cmp_metric)args.metric;
	status = MB_EXIT_FAIL;
	if (mb_compare(docs[0], docs[1], &opts, &c) || mb_cpuset_online(&cli.env.online)) {
		mb_err("compare: out of memory");
		goto out;
	}
	oc = (struct out_ctx){ .c = &c, .format = (enum mb_format)cli.env.format,
			       .base_name = cli.names[0],
			       .cur_name = cli.names[1], .base = docs[0], .cur = docs[1] };
	if (oc.format == MB_FORMAT_JSON) {
		out = mb_comparison_json(&c, mb_report_context(&cli.env), cli.names[0], docs[0],
					 cli.names[1], docs[1]);
		oc.doc = out;
		if (!out) {
			mb_err("compare: out of memory");
			goto out;
		}
	}
	if (write_comparison(&cli, &oc))
		goto out;
	status = MB_EXIT_OK;
	if (cli.env.fail_on_regression && mb_comparison_regressed(&c)) {
		mb_err("compare: --fail-on-regression: %d result%s regressed",
		       c.counts[MB_CMP_REGRESSED], c.counts[MB_CMP_REGRESSED] > 1 ? "s" : "");
		status = MB_EXIT_FAIL;
	}
out:
	for (int i = 0; i < MB_CLI_LIST_MAX; i++)
		free(ignore_bufs[i]);
	mb_comparison_free(&c);
	mb_json_free(out);
	mb_json_free(docs[0]);
	mb_json_free(docs[1]);
	mb_cli_free(&cli);
	return status;
}
