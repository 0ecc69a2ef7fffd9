// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* mapbench history --db FILE [BENCH] ...: the runs the results history keeps, one a line. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "commands.h"
#include "history_read.h"
#include "verb.h"
#include "output/report.h"
#include "store/store.h"
#include "util/json.h"
#include "util/log.h"

struct history_args {
	struct mb_cli_list params;
	const char *since;
	const char *kernel;
};

static const struct mb_opt history_opts[] = {
	MB_READER_FILTER_OPTS(struct history_args),
	MB_OPT_STRING_DEF("kernel", struct history_args, kernel, NULL, "RELEASE",
			  "Only runs on this kernel release (uname -r), exactly"),
	MB_OPT_END,
};

static const struct mb_cli_global history_globals[] = {
	{ "help", "Show this help" },
	MB_READER_DB_GLOBAL,
	{ "format", "Output: text (default, one line per run), json or csv" },
	{ NULL },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: mapbench history --db FILE|URL [BENCH] [--param NAME=VALUE]... [--since DATE]\n"
		"                        [--kernel RELEASE] [--format text|json|csv]\n"
		"\n"
		"Lists the runs the results history keeps (--db as they ran, or mapbench import),\n"
		"oldest first, one line per result: when it started, the bench, its parameters, the\n"
		"mean of its headline figure and its unit, the spread (CV, or the standard deviation),\n"
		"whether it was noisy, and the kernel, host and mapbench version it ran with.\n"
		"Exit status: 0, 1 when the history cannot be read, 2 on bad input.\n"
		"\n"
		"Options:\n");
	mb_opts_print_help(f, history_opts);
	mb_cli_print_globals(f, history_globals);
	fprintf(f, "\nExamples:\n"
		"  mapbench history --db results.db\n"
		"  mapbench history --db results.db map-lookup --param key_size=4 --since 2026-12-01\n"
		"  mapbench history --db postgresql://ci@db/mapbench --kernel 6.18.0 --format csv\n");
}

static void num_text(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.6g", v);
	else
		snprintf(buf, len, "n/a");
}

static void spread_text(char *buf, size_t len, const struct mb_store_run *r)
{
	if (isfinite(r->cv))
		snprintf(buf, len, "cv %.2f %%", r->cv * 100);
	else if (isfinite(r->stddev))
		snprintf(buf, len, "sd %.4g", r->stddev);
	else
		snprintf(buf, len, "n/a");
}

static int print_text(const struct mb_store_run *r, void *arg)
{
	char mean[32], spread[32];
	int *n = arg;

	if (!(*n)++)
		printf("%-20s  %-20s  %-28s  %12s  %-6s  %-11s  %-5s  %-20s  %-12s  %s\n", "time",
		       "bench", "params", "mean", "unit", "spread", "noisy", "kernel", "host",
		       "version");
	num_text(mean, sizeof(mean), r->mean);
	spread_text(spread, sizeof(spread), r);
	printf("%-20s  %-20s  %-28s  %12s  %-6s  %-11s  %-5s  %-20s  %-12s  %s (%s)\n", r->time,
	       r->bench, *r->params ? r->params : "-", mean, *r->unit ? r->unit : "-", spread,
	       r->noisy ? "yes" : "no", r->kernel, r->hostname, r->version, r->git_revision);
	return ferror(stdout) ? -EIO : 0;
}

static void csv_real(double v)
{
	if (isfinite(v))
		printf(",%.17g", v);
	else
		fputc(',', stdout);
}

static int print_csv(const struct mb_store_run *r, void *arg)
{
	const char *const texts[] = { r->time, r->bench, r->params, r->figure, r->unit };
	const char *const tail[] = { r->kernel, r->machine_class, r->hostname, r->version,
				     r->git_revision };
	int *n = arg;

	if (!(*n)++)
		printf("id,time,bench,params,figure,unit,higher_is_better,mean,median,stddev,cv,samples,noisy,kernel,machine_class,hostname,version,git_revision\n");
	printf("%lld", r->id);
	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
		fputc(',', stdout);
		mb_csv_field(stdout, texts[i]);
	}
	printf(",%s", r->higher_is_better ? "true" : "false");
	csv_real(r->mean);
	csv_real(r->median);
	csv_real(r->stddev);
	csv_real(r->cv);
	printf(",%d,%s", r->nsamples, r->noisy ? "true" : "false");
	for (size_t i = 0; i < sizeof(tail) / sizeof(*tail); i++) {
		fputc(',', stdout);
		mb_csv_field(stdout, tail[i]);
	}
	fputc('\n', stdout);
	return ferror(stdout) ? -EIO : 0;
}

static struct mb_json *real_json(double v)
{
	return isfinite(v) ? mb_json_number(v) : mb_json_null();
}

static struct mb_json *run_json(const struct mb_store_run *r)
{
	struct mb_json *o = mb_json_object(), *samples = mb_json_array();

	mb_json_set(o, "id", mb_json_number((double)r->id));
	mb_json_set_str(o, "time", r->time);
	mb_json_set_str(o, "bench", r->bench);
	mb_json_set_str(o, "params", r->params);
	mb_json_set_str(o, "figure", r->figure);
	mb_json_set_str(o, "unit", r->unit);
	mb_json_set_bool(o, "higher_is_better", r->higher_is_better);
	mb_json_set(o, "mean", real_json(r->mean));
	mb_json_set(o, "median", real_json(r->median));
	mb_json_set(o, "stddev", real_json(r->stddev));
	mb_json_set(o, "cv", real_json(r->cv));
	mb_json_set_bool(o, "noisy", r->noisy);
	for (int i = 0; i < r->nsamples; i++)
		mb_json_append(samples, real_json(r->samples[i]));
	mb_json_set(o, "samples", samples);
	mb_json_set_str(o, "kernel", r->kernel);
	mb_json_set_str(o, "machine_class", r->machine_class);
	mb_json_set_str(o, "hostname", r->hostname);
	mb_json_set_str(o, "version", r->version);
	mb_json_set_str(o, "git_revision", r->git_revision);
	return o;
}

static int collect_json(const struct mb_store_run *r, void *arg)
{
	struct mb_json *o = run_json(r);

	return o ? mb_json_append(arg, o) : -ENOMEM;
}

/* The runs as one document, {"schema_version": 1, "runs": [...]}: docs/history.schema.json. */
static int print_json(struct mb_store *store, const struct mb_store_filter *filter, char *err,
		      size_t errlen)
{
	struct mb_json *doc = mb_json_object(), *runs = mb_json_array();
	int ret;

	if (!doc || !runs) {
		mb_json_free(doc);
		mb_json_free(runs);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = mb_store_each(store, filter, collect_json, runs, err, errlen);
	mb_json_set_num(doc, "schema_version", 1);
	mb_json_set(doc, "runs", runs);
	if (!ret && mb_json_write(stdout, doc, 2)) {
		snprintf(err, errlen, "cannot write the output");
		ret = -EIO;
	}
	mb_json_free(doc);
	return ret;
}

/* The filter the command line asks for; -EINVAL (said) on a bad value. */
static int make_filter(const struct mb_cli *cli, const struct history_args *a,
		       struct mb_store_filter *f)
{
	char since[32];

	if (cli->nr_names > 1) {
		mb_err("history: one BENCH at most (got %d; --param narrows the runs of one)",
		       cli->nr_names);
		return -EINVAL;
	}
	for (int i = 0; i < a->params.nr; i++) {
		const char *eq = strchr(a->params.items[i], '=');

		if (!eq || eq == a->params.items[i]) {
			mb_err("history: --param %s: must be NAME=VALUE", a->params.items[i]);
			return -EINVAL;
		}
	}
	if (a->since && mb_store_since_parse(a->since, since, sizeof(since))) {
		mb_err("history: --since %s: not a date: YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] (UTC)",
		       a->since);
		return -EINVAL;
	}
	if (cli->env.format == MB_FORMAT_MD) {
		mb_err("history: --format md: text, json or csv");
		return -EINVAL;
	}
	*f = (struct mb_store_filter){
		.bench = cli->nr_names ? cli->names[0] : NULL,
		.params = a->params.items, .nparams = a->params.nr,
		.since = a->since, .kernel = a->kernel,
	};
	return 0;
}

static int list_runs(const struct mb_cli *cli, const char *db, const struct mb_store_filter *f)
{
	struct mb_store *store;
	char err[1024];
	int n = 0, ret;

	if (mb_store_open_existing(db, &store, err, sizeof(err))) {
		mb_err("history: --db %s: %s", db, err);
		return MB_EXIT_USAGE;
	}
	if (cli->env.format == MB_FORMAT_JSON)
		ret = print_json(store, f, err, sizeof(err));
	else
		ret = mb_store_each(store, f, cli->env.format == MB_FORMAT_CSV ? print_csv :
						  print_text, &n, err, sizeof(err));
	mb_store_close(store);
	if (ret || fflush(stdout)) {
		mb_err("history: --db %s: %s", db, ret ? err : "cannot write the output");
		return MB_EXIT_FAIL;
	}
	if (!n && cli->env.format == MB_FORMAT_TEXT)
		printf("No runs%s.\n", f->bench || f->nparams || f->since || f->kernel ?
					       " match" : " in the history yet");
	return MB_EXIT_OK;
}

int mb_cmd_history(int argc, char **argv)
{
	struct history_args args = { 0 };
	struct mb_store_filter filter;
	int status = MB_EXIT_USAGE, started;
	const char *db;
	struct mb_cli cli;

	started = mb_verb_start(argc, argv, &cli, history_opts, &args, "history", history_globals, usage);
	if (started) {
		status = started > 0 ? MB_EXIT_OK : MB_EXIT_USAGE;
		goto out;
	}
	db = mb_cmd_db(&cli, "history");
	if (db && !make_filter(&cli, &args, &filter))
		status = list_runs(&cli, db, &filter);
out:
	mb_cli_free(&cli);
	return status;
}
