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
 * Open the history @db names (it must exist) and read the runs @f matches into @set (split by
 * kernel when @set->by_kernel). Returns an exit status: 0, 2 when the history cannot be opened
 * (said), 1 when reading failed (said).
 */
int mb_reader_load(const char *verb, const char *db, const struct mb_store_filter *f,
		   struct mb_series_set *set);

/* The gate's settings: --threshold and --alpha as compare takes them, k and the minimum. */
void mb_reader_gate_opts(const struct mb_cli *cli, struct mb_gate_opts *o);

/* What a report may show of @db: an SQLite file's name; never a connection string's secrets. */
const char *mb_reader_source(const char *db);

#endif
