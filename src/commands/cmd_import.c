// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* mapbench import --db FILE RESULT.json...: documents of runs and sweeps into the history. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "commands.h"
#include "verb.h"
#include "output/doc.h"
#include "store/store.h"
#include "util/json.h"
#include "util/log.h"

static const struct mb_opt import_opts[] = {
	MB_OPT_END,
};

static const struct mb_cli_global import_globals[] = {
	{ "help", "Show this help" },
	{ "quiet", "Print nothing but errors" },
	{ "db", "The history to add to: an SQLite FILE (made if missing) or a PostgreSQL connection string; MAPBENCH_DB when not given" },
	{ NULL },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: mapbench import --db FILE|URL RESULT.json...\n"
		"\n"
		"Adds every result of each document (runs and sweeps, JSON) to the results history,\n"
		"each in one transaction, with its context and samples. A result already there (the\n"
		"same host, command line, bench, parameters, times and mean: added by --db as it ran,\n"
		"or imported before) is skipped, and so is one that measured nothing (skipped or\n"
		"failed). Prints how many were added and skipped. Exit status: 0, 1 when the history\n"
		"cannot be written, 2 on bad input (no document is read in part: all are checked\n"
		"before the first is added).\n"
		"\n"
		"Options:\n");
	mb_cli_print_globals(f, import_globals);
	fprintf(f, "\nExamples:\n"
		"  mapbench import --db results.db run1.json sweep.json\n"
		"  MAPBENCH_DB=postgresql://ci@db/mapbench mapbench import results/*.json\n");
}

static int load_all(const struct mb_cli *cli, struct mb_json **docs)
{
	char err[1024];

	for (int i = 0; i < cli->nr_names; i++) {
		enum mb_doc_kind kind;

		docs[i] = mb_doc_load(cli->names[i], &kind, err, sizeof(err));
		if (!docs[i]) {
			mb_err("import: %s", err);
			return -EINVAL;
		}
		if (kind != MB_DOC_RESULTS) {
			mb_err("import: %s: a comparison, not results of a run or sweep",
			       cli->names[i]);
			return -EINVAL;
		}
	}
	return 0;
}

struct counts {
	int added, there, unmeasured;
};

static int import_doc(struct mb_store *store, const char *name, const struct mb_json *doc,
		      struct counts *c)
{
	const struct mb_json *context = mb_json_get(doc, "context");
	const struct mb_json *results = mb_json_get(doc, "results");
	char err[1024];

	for (size_t i = 0; i < mb_json_len(results); i++) {
		const struct mb_json *result = mb_json_at(results, i);
		int ret;

		if (!mb_store_result_kept(result)) {
			c->unmeasured++;
			continue;
		}
		ret = mb_store_add(store, context, result, err, sizeof(err));
		if (ret < 0) {
			mb_err("import: %s: result %zu: %s", name, i, err);
			return ret;
		}
		c->added += ret;
		c->there += !ret;
	}
	return 0;
}

static int import_all(const struct mb_cli *cli, const char *db, struct mb_json **docs)
{
	struct mb_store *store;
	struct counts c = { 0 };
	char err[1024];
	int status = MB_EXIT_OK;

	if (mb_store_open(db, &store, err, sizeof(err))) {
		mb_err("import: --db %s: %s", db, err);
		return MB_EXIT_USAGE;
	}
	for (int i = 0; i < cli->nr_names && status == MB_EXIT_OK; i++)
		if (import_doc(store, cli->names[i], docs[i], &c))
			status = MB_EXIT_FAIL;
	mb_store_close(store);
	if (!cli->env.quiet)
		printf("import: %d result%s added, %d skipped (already there)%s%.0d%s\n", c.added,
		       c.added == 1 ? "" : "s", c.there, c.unmeasured ? ", " : "",
		       c.unmeasured, c.unmeasured ? " skipped (measured nothing)" : "");
	return status;
}

int mb_cmd_import(int argc, char **argv)
{
	struct mb_json **docs = NULL;
	int status = MB_EXIT_USAGE, started;
	const char *db;
	struct mb_cli cli;

	started = mb_verb_start(argc, argv, &cli, import_opts, NULL, "import", import_globals, usage);
	if (started) {
		status = started > 0 ? MB_EXIT_OK : MB_EXIT_USAGE;
		goto out;
	}
	db = mb_cmd_db(&cli, "import");
	if (!db)
		goto out;
	if (!cli.nr_names) {
		mb_err("import: needs one or more documents, RESULT.json... (mapbench import --help)");
		goto out;
	}
	docs = calloc((size_t)cli.nr_names, sizeof(*docs));
	if (!docs) {
		mb_err("import: out of memory");
		status = MB_EXIT_FAIL;
		goto out;
	}
	if (load_all(&cli, docs) == 0)
		status = import_all(&cli, db, docs);
out:
	for (int i = 0; docs && i < cli.nr_names; i++)
		mb_json_free(docs[i]);
	free(docs);
	mb_cli_free(&cli);
	return status;
}
