// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * mapbench: the command line, bench selection, and the run of each selected bench; or one of
 * the subcommands (sweep, compare, plot), each in its own cmd_<verb>.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "commands.h"
#include "util/json.h"
#include "util/log.h"
#include "families/registry.h"
#include "core/runner.h"
#include "plan/session.h"
#include "util/version.h"

/* The default suite runs shorter unless -w/-d say otherwise: it must stay under a minute. */
#define SUITE_WARMUP	1
#define SUITE_DURATION	3

static const struct mb_command {
	const char *verb;
	int (*run)(int argc, char **argv);
	const char *usage;
} commands[] = {
	{ "sweep", mb_cmd_sweep, "sweep BENCH --param NAME=V1,V2 ... | --preset NAME: a parameter sweep" },
	{ "compare", mb_cmd_compare, "compare BASE.json NEW.json: changes, significance, verdicts" },
	{ "plot", mb_cmd_plot, "plot FILE.json -o chart.svg|png: chart of a sweep or a comparison" },
	{ "import", mb_cmd_import, "import --db FILE RESULT.json...: documents into the results history" },
	{ "history", mb_cmd_history, "history --db FILE [BENCH]: the runs the history keeps, one a line" },
	{ "gate", mb_cmd_gate, "gate --db FILE [--window N]: exit 1 when the latest run regressed (CI)" },
	{ "trend", mb_cmd_trend, "trend --db FILE [BENCH] -o chart.svg|png: the history drawn by gnuplot" },
	{ "report", mb_cmd_report, "report --db FILE -o report.html: latest verdicts and trends, one page" },
	{ NULL },
};

/* Create, configure and validate every run before any of them starts. */
static int prepare_runs(struct mb_cli *cli, const struct mb_bench **benches,
			const struct mb_suite_entry *suite, struct mb_run *runs, int nr)
{
	for (int i = 0; i < nr; i++)
		if (mb_session_prepare_run(cli, &runs[i], suite ? -1 : i, benches[i], &cli->env,
					   suite ? suite[i].args : NULL, "the default suite"))
			return -EINVAL;
	if (mb_cli_check_unused(cli, runs, nr))
		return -EINVAL;
	for (int i = 0; i < nr; i++) {
		int err = mb_run_validate(&runs[i]);

		/* An option answered (a list): nothing runs, and that is success. */
		if (err == MB_RUN_ANSWERED)
			return err;
		if (err)
			return -EINVAL;
	}
	return 0;
}

static int run_benches(struct mb_cli *cli)
{
	const struct mb_suite_entry *suite = NULL;
	const struct mb_bench **benches;
	struct mb_env *env = &cli->env;
	struct mb_session session = { 0 };
	struct mb_chain_want want = { .live_text = true, .baseline = true,
				      .result_lines = env->machine_readable };
	struct mb_run *runs = NULL;
	int nr = cli->nr_names, ran = 0, status = MB_EXIT_USAGE, err;

	if (env->format == MB_FORMAT_MD) {
		if (mb_cli_given(cli, "format"))
			mb_err("--format md: only for the tables of sweep and compare (runs: text, json or csv)");
		else
			mb_err("-o/--output %s: suffix .md: Markdown is only for the tables of sweep and compare (runs: .json, .csv, .txt)",
			       env->output);
		return MB_EXIT_USAGE;
	}
	if (!nr) {
		suite = mb_default_suite;
		while (suite[nr].bench)
			nr++;
		if (!mb_cli_given(cli, "warmup"))
			env->warmup = SUITE_WARMUP;
		if (!mb_cli_given(cli, "duration"))
			env->duration = SUITE_DURATION;
	}
	benches = calloc((size_t)nr, sizeof(*benches));
	runs = calloc((size_t)nr, sizeof(*runs));
	if (!benches || !runs) {
		mb_err("out of memory");
		status = MB_EXIT_FAIL;
		goto out;
	}
	for (int i = 0; suite && i < nr; i++) {
		benches[i] = mb_bench_find(suite[i].bench);
		if (!benches[i]) {
			mb_err("default suite: unknown bench '%s'", suite[i].bench);
			goto out;
		}
	}
	if (!suite && mb_session_resolve(cli->names, nr, benches))
		goto out;
	if (mb_cpuset_online(&env->online)) {
		mb_err("cannot read the online CPUs");
		status = MB_EXIT_FAIL;
		goto out;
	}
	err = prepare_runs(cli, benches, suite, runs, nr);
	if (err == MB_RUN_ANSWERED)
		status = 0;
	if (err || mb_session_check_options(cli))
		goto out;
	status = mb_session_begin(&session, env, (int)env->producers);
	if (status)
		goto out;

	/* The default suite's table even when one run ran; the runs' own document. */
	want.table = suite ? MB_CHAIN_TABLE_ALWAYS : MB_CHAIN_TABLE_SEVERAL;
	ran = mb_session_execute(&session, runs, nr, &want);
	status = mb_session_finish(&session, runs, nr, ran);
out:
	mb_session_free(&session);
	for (int i = 0; runs && i < nr; i++)
		mb_run_free(&runs[i]);
	free(runs);
	free(benches);
	return status;
}

/* -h [BENCH...]: an unknown name is a usage error, as in a run. */
static int help(const struct mb_cli *cli)
{
	const struct mb_bench **benches = calloc((size_t)cli->nr_names + 1, sizeof(*benches));

	if (!benches) {
		mb_err("out of memory");
		return MB_EXIT_FAIL;
	}
	if (mb_session_resolve(cli->names, cli->nr_names, benches)) {
		free(benches);
		return MB_EXIT_USAGE;
	}
	free(benches);
	mb_cli_help(stdout, cli->names, cli->nr_names);
	if (!cli->nr_names) {
		fprintf(stdout, "\nSubcommands (mapbench VERB --help for their options):\n");
		for (int i = 0; commands[i].verb; i++)
			fprintf(stdout, "  mapbench %s\n", commands[i].usage);
	}
	return MB_EXIT_OK;
}

/* mapbench -h VERB: the subcommand's own help, as mapbench VERB --help. */
static int subcommand_help(const char *verb, char *argv0)
{
	char *args[] = { argv0, (char *)verb, (char *)"--help", NULL };

	for (int i = 0; commands[i].verb; i++)
		if (!strcmp(verb, commands[i].verb))
			return commands[i].run(3, args);
	return MB_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	struct mb_cli cli;
	int status;

	mb_log_init(false, false, stdout);
	for (int i = 0; argc > 1 && commands[i].verb; i++)
		if (!strcmp(argv[1], commands[i].verb))
			return commands[i].run(argc, argv);
	if (mb_cli_parse(argc, argv, &cli)) {
		mb_cli_free(&cli);
		return MB_EXIT_USAGE;
	}
	if (mb_cli_check_quiet(&cli, "") || mb_cli_output_format(&cli, "", -1) ||
	    mb_cli_machine_readable(&cli, "", cli.env.format != MB_FORMAT_TEXT && !cli.env.output,
				    "or -o FILE for the document")) {
		mb_cli_free(&cli);
		return MB_EXIT_USAGE;
	}
	/* When stdout carries the JSON or CSV document, progress goes to stderr. */
	mb_log_init(cli.env.quiet, cli.env.verbose,
		    cli.env.format != MB_FORMAT_TEXT && !cli.env.output ? stderr : stdout);
	if (cli.env.version) {
		/* The same two strings as every document's context.version and .git_revision. */
		printf("mapbench %s (git %s)\n", mb_version, mb_git_revision);
		status = MB_EXIT_OK;
	} else if (cli.env.help && cli.subcommand) {
		status = subcommand_help(cli.subcommand, argv[0]);
	} else if (cli.env.help) {
		status = help(&cli);
	} else if (cli.env.list) {
		mb_cli_list(stdout, cli.env.format);
		status = MB_EXIT_OK;
	} else if (cli.env.map_types) {
		status = mb_cmd_map_types(&cli);
	} else {
		status = run_benches(&cli);
	}
	mb_cli_free(&cli);
	return status;
}
