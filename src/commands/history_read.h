/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What gate, trend and report share: their filter of the history's runs ([BENCH], --param,
 * --since), reading the runs into series, and the gate's settings from the command line.
 */
#ifndef MB_HISTORY_READ_H
#define MB_HISTORY_READ_H

#include <stdbool.h>

#include "cli/cli.h"
#include "output/gate.h"
#include "output/series.h"
#include "store/store.h"

/* The readers' filter options, --param NAME=VALUE (repeatable) and --since DATE, of @type. */
#define MB_READER_FILTER_OPTS(type)							\
	MB_OPT_CUSTOM_DEF("param", type, params, NULL, mb_cli_list_add,			\
			  mb_cli_list_format, "NAME=VALUE, as the runs' params show it",	\
			  "NAME=VALUE", "Only runs with this parameter value (repeatable: all must match)"), \
	MB_OPT_STRING_DEF("since", type, since, NULL, "DATE",				\
			  "Only runs started at or after DATE (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, UTC)")

/* The readers' --db, in their table of globals. */
#define MB_READER_DB_GLOBAL								\
	{ "db", "The history to read: an SQLite FILE or a PostgreSQL connection string; "	\
		"MAPBENCH_DB when not given" }

struct mb_reader_args {
	struct mb_cli_list params;
	const char *since;
	unsigned int window;
	const char *markdown;
	const char *title;
};

/*
 * The filter of the command line: one BENCH at most, each --param NAME=VALUE, --since a date.
 * Returns 0, or -EINVAL after one line naming @verb.
 */
int mb_reader_filter(const struct mb_cli *cli, const char *verb, const struct mb_reader_args *a,
		     struct mb_store_filter *f);

/*
 * Open the history @db names (it must exist) and read the runs @f matches, once, into each
 * of the @nsets sets @sets (split by kernel where a set's by_kernel says so). Returns an exit
 * status: 0, 2 when the history cannot be opened (said), 1 when reading failed (said).
 */
int mb_reader_load(const char *verb, const char *db, const struct mb_store_filter *f,
		   struct mb_series_set *sets, size_t nsets);

/* The gate's settings: --threshold and --alpha as compare takes them, k and the minimum. */
void mb_reader_gate_opts(const struct mb_cli *cli, struct mb_gate_opts *o);

/* What a report may show of @db: an SQLite file's name; never a connection string's secrets. */
const char *mb_reader_source(const char *db);

#endif
