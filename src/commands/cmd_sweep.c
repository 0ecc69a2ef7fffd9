// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * mapbench sweep: run every point of a parameter product (or a preset), each as a normal run
 * in this process, and write one document with all of them plus a table. This file: the
 * command, its options and help; sweep_plan.c, sweep_run.c and sweep_output.c do the rest.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "util/json.h"
#include "util/log.h"
#include "output/progress.h"
#include "families/registry.h"
#include "output/report.h"
#include "core/runner.h"
#include "plan/session.h"
#include "plan/sweep_cmd.h"

static const struct mb_opt sweep_opts[] = {
	MB_OPT_CUSTOM_DEF("param", struct sweep_args, params, NULL, mb_cli_list_add,
			  mb_cli_list_format, "NAME=V1,V2,... with ranges A..B[:STEP|*FACTOR]",
			  "NAME=LIST", "Sweep NAME over LIST (repeatable: the product is swept)"),
	MB_OPT_U32_DEF("repeat", struct sweep_args, repeat, "1", 1, 1000, "N",
		       "Run the whole sweep N times, point after point, round after round"),
	MB_OPT_STRING_DEF("preset", struct sweep_args, preset, NULL, "NAME",
			  "Run a preset sweep (the kernel's run_bench scripts; --list-presets)"),
	MB_OPT_FLAG_DEF("list-presets", struct sweep_args, list_presets, "List the presets"),
	MB_OPT_FLAG_DEF("skip-invalid", struct sweep_args, skip_invalid,
			"Skip points a bench refuses (presets always do), instead of stopping"),
	MB_OPT_STRING_DEF("fastest", struct sweep_args, fastest, NULL, "NAME",
			  "Under the table, name the value of the swept parameter NAME with the lowest ns/op at each combination of the other swept values (a bench may name one by default: map-scan's method)"),
	MB_OPT_END,
};

/* ---- help ---- */

/* The global options whose meaning differs in a sweep. */
static const struct mb_cli_global sweep_globals[] = {
	{ "help", "Show this help" },
	{ "quiet", "No progress lines and no bar" },
	{ "verbose", "Each run's own Iter and Summary lines (on stderr), libbpf's messages" },
	{ "format", "stdout: a table (text, csv, md), or with json and no -o the JSON document" },
	{ "machine-readable", "The kernel bench's RESULT line on stdout for each point timed in the kernel, before the table; implies -q; --format text only" },
	{ "output", "Write the JSON document of every point to FILE, atomically" },
	{ "db", "Keep each point's result in a history (SQLite FILE or PostgreSQL URL) as it finishes; MAPBENCH_DB when not given" },
	{ NULL },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: mapbench sweep [OPTIONS] BENCH... --param NAME=LIST [--param ...] [BENCH OPTIONS]\n"
		"       mapbench sweep [OPTIONS] --preset NAME [--param NAME=LIST ...]\n"
		"       mapbench sweep --list-presets\n"
		"\n"
		"Runs every point of the product of the --param lists, each as a normal run with the\n"
		"same global options, and writes one document with every point:\n"
		"  -o FILE    the JSON document: every result, and a \"sweep\" object with the points\n"
		"  stdout     a table of the points: --format text (default), csv or md; with\n"
		"             --format json and no -o, the JSON document instead\n"
		"LIST: V1,V2,... and ranges A..B, A..B:STEP, A..B*FACTOR; numbers take k/M/G, e.g.\n"
		"  --param nr_entries=10k,100k,1M  --param nr_hash_funcs=1..10  --param nr_loops=10..1M*10\n"
		"NAME: an option of the bench(es), or one of the global options warmup, duration,\n"
		"producers (p), consumers, affinity (true/false), interval_ms, call_us, net.\n"
		"The first --param varies slowest. --repeat N runs all points, then all again (N rounds),\n"
		"so a slow drift of the machine does not line up with a parameter.\n"
		"A preset sets the kernel script's global options (-w3 -d10 -a) unless given; --param\n"
		"replaces one of its lists; a plain option (-p1, --nr_entries 1000) fixes one.\n"
		"Progress: a line per point on stderr (not with -q) and, on a terminal, a bar with the\n"
		"time left; -v shows each run's own Iter and Summary lines instead.\n"
		"Exit status: as for a run; 2 on bad input, before anything runs.\n"
		"\n"
		"Sweep options:\n");
	mb_opts_print_help(f, sweep_opts);
	fprintf(f, "\nOutput options:\n");
	mb_cli_print_globals(f, sweep_globals);
	fprintf(f, "\nThe other global options: as for a run (mapbench --help): -w, -d, -p, -a,\n"
		"--interval_ms, --call_us, --strict, --baseline, --save-baseline, ...\n"
		"\nExamples:\n"
		"  mapbench sweep bpf-loop --param nr_loops=1..1M*10 --param p=1,2 -o loop.json\n"
		"  mapbench sweep --preset bloom -w1 -d3 -p1 --param value_size=8 --param nr_entries=10k,100k,1M\n"
		"  mapbench plot loop.json -o loop.svg\n");
}

static int count_values(const char *list)
{
	struct mb_sweep_values v;
	char err[256];
	int n;

	if (mb_sweep_parse_values(list, &v, err, sizeof(err)))
		return 0;
	n = v.n;
	mb_sweep_values_free(&v);
	return n;
}

static void list_presets(FILE *f)
{
	fprintf(f, "Presets (mapbench sweep --preset NAME; times at the preset's -w/-d):\n");
	for (const struct mb_preset *p = mb_presets; p->name; p++) {
		char missing[256] = "", dur[32], globals[128] = "";
		long points = 0;
		int w = 1, d = 5;
		size_t n = 0;

		for (int g = 0; p->globals && p->globals[g]; g += 2) {
			if (!strcmp(p->globals[g], "warmup"))
				w = atoi(p->globals[g + 1]);
			if (!strcmp(p->globals[g], "duration"))
				d = atoi(p->globals[g + 1]);
			n += (size_t)snprintf(globals + n, sizeof(globals) - n, "%s--%s%s%s",
					      n ? " " : "", p->globals[g],
					      strcmp(p->globals[g + 1], "true") ? " " : "",
					      strcmp(p->globals[g + 1], "true") ? p->globals[g + 1] : "");
		}
		fprintf(f, "\n  %-15s %s\n", p->name, p->desc);
		for (const struct mb_preset_series *s = p->series; s->benches[0]; s++) {
			long pts = 1;
			int nb = 0;

			fprintf(f, "  %-15s ", "");
			for (; s->benches[nb]; nb++) {
				fprintf(f, "%s%s", nb ? ", " : "", s->benches[nb]);
				if (!mb_bench_find(s->benches[nb]) && strlen(missing) < 200)
					snprintf(missing + strlen(missing),
						 sizeof(missing) - strlen(missing), "%s%s",
						 missing[0] ? ", " : "", s->benches[nb]);
			}
			for (int k = 0; s->args && s->args[k]; k++)
				fprintf(f, " %s", s->args[k]);
			fprintf(f, ":");
			for (const struct mb_preset_param *pp = s->params; pp->name; pp++) {
				fprintf(f, " %s=%s", pp->name, pp->values);
				pts *= count_values(pp->values);
			}
			fputc('\n', f);
			points += pts * nb;
		}
		mb_progress_duration(dur, sizeof(dur), points * (w + d + RUN_OVERHEAD_S));
		fprintf(f, "  %-15s %s; %ld runs, about %s\n", "", globals, points, dur);
		fprintf(f, "  %-15s from %s\n", "", p->source);
		if (missing[0])
			fprintf(f, "  %-15s not in this build: %s\n", "", missing);
	}
}

/* ---- the command ---- */

static int max_producers(const struct sweep *sw)
{
	uint32_t max = 1;

	for (int i = 0; i < sw->nr_runs; i++)
		if (sw->envs[i].producers > max)
			max = sw->envs[i].producers;
	return (int)max;
}

static void sweep_free(struct sweep *sw)
{
	for (int i = 0; sw->runs && i < sw->nr_runs; i++)
		mb_run_free(&sw->runs[i]);
	free(sw->runs);
	free(sw->envs);
	for (long i = 0; sw->points && i < sw->nr_points; i++)
		free(sw->points[i].reason);
	free(sw->points);
	for (int i = 0; i < sw->nr_params; i++) {
		mb_sweep_values_free(&sw->params[i].vals);
		mb_json_free(sw->params[i].typed);
	}
	mb_cli_free(&sw->cli);
}

int mb_cmd_sweep(int argc, char **argv)
{
	struct sweep *sw = calloc(1, sizeof(*sw));
	struct mb_session session = { 0 };
	int status = MB_EXIT_USAGE, err;

	if (!sw) {
		mb_err("out of memory");
		return MB_EXIT_FAIL;
	}
	if (mb_cli_parse_cmd(argc - 1, argv + 1, &sw->cli, sweep_opts, &sw->args) ||
	    mb_cli_check_quiet(&sw->cli, "sweep: "))
		goto out;
	sw->cli.env.argc = argc;
	sw->cli.env.argv = argv;
	mb_log_init(sw->cli.env.quiet, sw->cli.env.verbose, stderr);
	if (sw->cli.env.help || sw->args.list_presets) {
		if (sw->cli.env.help)
			usage(stdout);
		else
			list_presets(stdout);
		status = MB_EXIT_OK;
		goto out;
	}
	if (sw->cli.env.list || sw->cli.env.version) {
		const char *what = sw->cli.env.list ? "list" : "version";

		mb_err("sweep: --%s: use mapbench --%s", what, what);
		goto out;
	}
	if (mb_cpuset_online(&sw->cli.env.online)) {
		mb_err("cannot read the online CPUs");
		status = MB_EXIT_FAIL;
		goto out;
	}
	/* -o gets the JSON document whatever --format says (that is the table on stdout). */
	err = mb_cli_one_output(&sw->cli, "sweep");
	if (!err)
		err = mb_cli_output_format(&sw->cli, "sweep: ", MB_FORMAT_JSON);
	/* stdout's table is in --format: RESULT lines would cut into it. */
	if (!err)
		err = mb_cli_machine_readable(&sw->cli, "sweep: ",
					      sw->cli.env.format != MB_FORMAT_TEXT,
					      "-o FILE gets the JSON document");
	if (!err)
		err = sw->args.preset ? sweep_setup_preset(sw) : sweep_setup_benches(sw);
	if (!err)
		err = sweep_setup_params(sw);
	if (!err)
		err = sweep_setup_fastest(sw);
	if (!err)
		err = sweep_make_points(sw);
	if (!err)
		err = sweep_prepare_runs(sw);
	if (!err)
		err = mb_session_check_options(&sw->cli);
	if (err) {
		if (err != -EINVAL) {
			mb_err("sweep: %s", err == -E2BIG ? "too many parameters" : strerror(-err));
			status = err == -E2BIG ? MB_EXIT_USAGE : MB_EXIT_FAIL;
		}
		goto out;
	}
	status = mb_session_begin(&session, &sw->cli.env, max_producers(sw));
	if (status)
		goto out;
	status = sweep_run_all(sw, &session);
out:
	mb_session_free(&session);
	sweep_free(sw);
	free(sw);
	return status;
}
