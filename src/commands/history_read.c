// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* What gate, trend and report share: the filter, the runs read into series, the gate's opts. */
#include <errno.h>
#include <string.h>

#include "history_read.h"
#include "commands.h"
#include "store/series_read.h"
#include "util/log.h"

int mb_reader_filter(const struct mb_cli *cli, const char *verb, const struct mb_reader_args *a,
		     struct mb_store_filter *f)
{
	char since[32];

	if (cli->nr_names > 1) {
		mb_err("%s: one BENCH at most (got %d)", verb, cli->nr_names);
		return -EINVAL;
	}
	for (int i = 0; i < a->params.nr; i++) {
		const char *eq = strchr(a->params.items[i], '=');

		if (!eq || eq == a->params.items[i]) {
			mb_err("%s: --param %s: must be NAME=VALUE", verb, a->params.items[i]);
			return -EINVAL;
		}
	}
	if (a->since && mb_store_since_parse(a->since, since, sizeof(since))) {
		mb_err("%s: --since %s: not a date: YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] (UTC)", verb,
		       a->since);
		return -EINVAL;
	}
	*f = (struct mb_store_filter){
		.bench = cli->nr_names ? cli->names[0] : NULL,
		.params = a->params.items, .nparams = a->params.nr, .since = a->since,
	};
	return 0;
}

/* @db in a message: a file's path, but never a connection string, which may hold a password. */
static const char *shown(const char *db)
{
	return mb_store_is_postgres(db) ? "(PostgreSQL)" : db;
}

int mb_reader_load(const char *verb, const char *db, const struct mb_store_filter *f,
		   struct mb_series_set *sets, size_t nsets)
{
	struct mb_store *store;
	char err[1024];
	int ret;

	if (mb_store_open_existing(db, &store, err, sizeof(err))) {
		mb_err("%s: --db %s: %s", verb, shown(db), err);
		return MB_EXIT_USAGE;
	}
	ret = mb_store_read_series(store, f, sets, nsets, err, sizeof(err));
	mb_store_close(store);
	if (ret) {
		mb_err("%s: --db %s: %s", verb, shown(db), err);
		return MB_EXIT_FAIL;
	}
	return MB_EXIT_OK;
}

void mb_reader_gate_opts(const struct mb_cli *cli, struct mb_gate_opts *o)
{
	mb_gate_opts_default(o);
	o->cmp.threshold = cli->env.threshold / 100;
	o->cmp.alpha = cli->env.alpha;
}

const char *mb_reader_source(const char *db)
{
	const char *slash;

	if (mb_store_is_postgres(db))
		return "PostgreSQL";
	slash = strrchr(db, '/');
	return slash && slash[1] ? slash + 1 : db;
}
