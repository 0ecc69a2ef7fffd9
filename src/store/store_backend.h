/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What store.c asks of a back-end (SQLite, PostgreSQL): add a record in one transaction, walk
 * the runs a query wants oldest first, close. Both keep the schema store_schema.c describes.
 */
#ifndef MB_STORE_BACKEND_H
#define MB_STORE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"
#include "store_record.h"

struct mb_store_query {
	const struct mb_store_filter *filter;
	const char *since;	/* the filter's since, normalised: "YYYY-MM-DDTHH:MM:SSZ" */
	mb_store_run_fn fn;
	void *arg;
};

struct mb_store_ops {
	/* 1 added, 0 already there, or a negative errno with @err. */
	int (*add)(void *db, const struct mb_store_record *rec, char *err, size_t errlen);
	int (*each)(void *db, const struct mb_store_query *q, char *err, size_t errlen);
	void (*close)(void *db);
};

struct mb_store {
	const struct mb_store_ops *ops;
	void *db;
};

/* The columns a reader gets, in the order of struct mb_store_run (store_schema.c). */
extern const char mb_store_run_columns[];

/* What the back-ends' each asks before loading a run's samples: its parameters match. */
bool mb_store_params_match(const struct mb_store_filter *filter, const char *params);

/* The schema, one step per version; each back-end applies the steps past its version. */
struct mb_store_migration {
	int version;
	const char *sqlite;
	const char *postgres;
};

extern const struct mb_store_migration mb_store_migrations[];
extern const int mb_store_nr_migrations;

extern const struct mb_store_ops mb_store_sqlite_ops;
int mb_store_sqlite_open(const char *path, bool create, void **db, char *err, size_t errlen);

/* -ENOTSUP with a sentence when this binary was built without PostgreSQL (STATIC=1). */
extern const struct mb_store_ops mb_store_pg_ops;
int mb_store_pg_open(const char *conninfo, void **db, char *err, size_t errlen);

#endif
