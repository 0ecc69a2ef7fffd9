// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The store's API over its back-ends: which one a --db names, and what both share. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "store_backend.h"

bool mb_store_is_postgres(const char *where)
{
	if (!strncmp(where, "postgresql://", 13) || !strncmp(where, "postgres://", 11))
		return true;
	/* key=value words naming a server or a database: no file path looks like that. */
	return strchr(where, '=') && (strstr(where, "host=") || strstr(where, "dbname="));
}

static int store_open(const char *where, bool create, struct mb_store **store, char *err,
		      size_t errlen)
{
	struct mb_store *s = calloc(1, sizeof(*s));
	int ret;

	*store = NULL;
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (!*where) {
		free(s);
		snprintf(err, errlen, "an empty name: give an SQLite file or a PostgreSQL connection string");
		return -EINVAL;
	}
	if (mb_store_is_postgres(where)) {
		s->ops = &mb_store_pg_ops;
		ret = mb_store_pg_open(where, &s->db, err, errlen);
	} else {
		s->ops = &mb_store_sqlite_ops;
		ret = mb_store_sqlite_open(where, create, &s->db, err, errlen);
	}
	if (ret) {
		free(s);
		return ret;
	}
	*store = s;
	return 0;
}

int mb_store_open(const char *where, struct mb_store **store, char *err, size_t errlen)
{
	return store_open(where, true, store, err, errlen);
}

int mb_store_open_existing(const char *where, struct mb_store **store, char *err, size_t errlen)
{
	return store_open(where, false, store, err, errlen);
}

void mb_store_close(struct mb_store *store)
{
	if (!store)
		return;
	store->ops->close(store->db);
	free(store);
}

int mb_store_add(struct mb_store *store, const struct mb_json *context,
		 const struct mb_json *result, char *err, size_t errlen)
{
	struct mb_store_record rec;
	int ret;

	if (!mb_store_result_kept(result)) {
		snprintf(err, errlen, "a result whose status is not ok: nothing measured to keep");
		return -ENODATA;
	}
	ret = mb_store_record_make(context, result, &rec, err, errlen);
	if (ret)
		return ret;
	ret = store->ops->add(store->db, &rec, err, errlen);
	mb_store_record_free(&rec);
	return ret;
}

int mb_store_each(struct mb_store *store, const struct mb_store_filter *filter,
		  mb_store_run_fn fn, void *arg, char *err, size_t errlen)
{
	static const struct mb_store_filter all;
	struct mb_store_query q = { .filter = filter ? filter : &all, .fn = fn, .arg = arg };
	char since[32];

	if (q.filter->since) {
		if (mb_store_since_parse(q.filter->since, since, sizeof(since))) {
			snprintf(err, errlen, "since %s: not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, UTC)",
				 q.filter->since);
			return -EINVAL;
		}
		q.since = since;
	}
	return store->ops->each(store->db, &q, err, errlen);
}
