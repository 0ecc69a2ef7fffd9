// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* mapbench: the command line, bench selection, and the run of each selected bench. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "log.h"
#include "registry.h"
#include "report.h"
#include "runner.h"

/* The default suite runs shorter unless -w/-d say otherwise: it must stay under a minute. */
#define SUITE_WARMUP	1
#define SUITE_DURATION	3

static int resolve_names(const struct mb_cli *cli, const struct mb_bench **benches)
{
	for (int i = 0; i < cli->nr_names; i++) {
		const char *sugg[4];
		int n;

		benches[i] = mb_bench_find(cli->names[i]);
		if (benches[i])
			continue;
		n = mb_bench_suggest(cli->names[i], sugg, 4);
		if (n == 0)
			mb_err("unknown bench '%s' (mapbench --list names them all)", cli->names[i]);
		else
			mb_err("unknown bench '%s'; did you mean %s%s%s%s%s%s%s?", cli->names[i],
			       sugg[0], n > 1 ? ", " : "", n > 1 ? sugg[1] : "", n > 2 ? ", " : "",
			       n > 2 ? sugg[2] : "", n > 3 ? ", " : "", n > 3 ? sugg[3] : "");
		return -EINVAL;
	}
	return 0;
}

static void pick_format(struct mb_cli *cli)
{
	struct mb_env *env = &cli->env;
	const char *dot;

	if (mb_cli_given(cli, "format") || !env->output)
		return;
	dot = strrchr(env->output, '.');
	if (dot && !strcmp(dot, ".json"))
		env->format = MB_FORMAT_JSON;
	else if (dot && !strcmp(dot, ".csv"))
		env->format = MB_FORMAT_CSV;
}

/* Create, configure and validate every run before any of them starts. */
static int prepare_runs(struct mb_cli *cli, const struct mb_bench **benches,
			const struct mb_suite_entry *suite, struct mb_run *runs, int nr)
{
	for (int i = 0; i < nr; i++) {
		int err = mb_run_init(&runs[i], benches[i], &cli->env);

		if (err)
			return err;
		if (suite && mb_cli_apply_words(&runs[i], suite[i].args, "the default suite"))
			return -EINVAL;
		if (mb_cli_apply(cli, &runs[i]))
			return -EINVAL;
	}
	if (mb_cli_check_unused(cli, runs, nr))
		return -EINVAL;
	for (int i = 0; i < nr; i++)
		if (mb_run_validate(&runs[i]))
			return -EINVAL;
	return 0;
}

static int exit_status(struct mb_run *runs, int nr, int ran)
{
	int skipped = 0, failed = 0;

	if (mb_interrupted())
		return MB_EXIT_INTERRUPTED;
	for (int i = 0; i < ran; i++) {
		skipped += runs[i].status == MB_RUN_SKIPPED;
		failed += runs[i].status == MB_RUN_FAILED;
	}
	if (failed)
		return MB_EXIT_FAIL;
	if (ran == nr && skipped == nr)
		return MB_EXIT_SKIP;
	return MB_EXIT_OK;
}

static int run_benches(struct mb_cli *cli)
{
	const struct mb_suite_entry *suite = NULL;
	const struct mb_bench **benches;
	struct mb_env *env = &cli->env;
	struct mb_run *runs = NULL;
	int nr = cli->nr_names, ran = 0, status = MB_EXIT_USAGE;

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
	if (!suite && resolve_names(cli, benches))
		goto out;
	if (mb_cpuset_online(&env->online)) {
		mb_err("cannot read the online CPUs");
		status = MB_EXIT_FAIL;
		goto out;
	}
	if (prepare_runs(cli, benches, suite, runs, nr))
		goto out;

	mb_log_setup_libbpf();
	mb_signals_install();
	for (ran = 0; ran < nr && !mb_interrupted(); ran++)
		mb_run_execute(&runs[ran]);
	if ((suite || ran > 1) && env->format == MB_FORMAT_TEXT && !env->output)
		mb_report_table(mb_progress_stream(), runs, ran);
	status = exit_status(runs, nr, ran);
	if (mb_report_write(env, runs, ran) && status == MB_EXIT_OK)
		status = MB_EXIT_FAIL;
out:
	for (int i = 0; runs && i < nr; i++)
		mb_run_free(&runs[i]);
	free(runs);
	free(benches);
	return status;
}

int main(int argc, char **argv)
{
	struct mb_cli cli;
	int status;

	mb_log_init(false, false, stdout);
	if (mb_cli_parse(argc, argv, &cli)) {
		mb_cli_free(&cli);
		return MB_EXIT_USAGE;
	}
	pick_format(&cli);
	/* When stdout carries the JSON or CSV document, progress goes to stderr. */
	mb_log_init(cli.env.quiet, cli.env.verbose,
		    cli.env.format != MB_FORMAT_TEXT && !cli.env.output ? stderr : stdout);
	if (cli.env.help) {
		mb_cli_help(stdout, cli.names, cli.nr_names);
		status = MB_EXIT_OK;
	} else if (cli.env.list) {
		mb_cli_list(stdout);
		status = MB_EXIT_OK;
	} else {
		status = run_benches(&cli);
	}
	mb_cli_free(&cli);
	return status;
}
