// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The PostgreSQL back-end (libpq): the schema of store_schema.c on a shared server, for a
 * fleet of hosts writing to one history. Migrations hold an advisory lock, so hosts that open
 * a new database at once apply them once; a result is one transaction.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_backend.h"

#ifndef MB_HAVE_PG
int mb_store_pg_open(const char *conninfo, void **db, char *err, size_t errlen)
{
	(void)conninfo;
	*db = NULL;
	snprintf(err, errlen, "a PostgreSQL connection string, but this mapbench was built without PostgreSQL (STATIC=1): use an SQLite file, or the dynamic build");
	return -ENOTSUP;
}

const struct mb_store_ops mb_store_pg_ops;
#else
#include <libpq-fe.h>

/* The advisory lock that orders migrations: "mapbench" in ASCII. */
#define MIGRATION_LOCK	"7021787506571683944"

/* libpq's message, its first line: the rest is a hint for psql users. */
static int fail(PGconn *pg, const char *what, char *err, size_t errlen)
{
	const char *msg = PQerrorMessage(pg);
	size_t len = strcspn(msg, "\n");

	snprintf(err, errlen, "%s: %.*s", what, (int)len, msg);
	return -EIO;
}

/*
 * Run @sql (with @n text parameters; none: it may hold several statements, as a migration
 * does); 0 when it succeeded, the result in *@out if asked.
 */
static int run(PGconn *pg, const char *sql, int n, const char *const *params, PGresult **out,
	       const char *what, char *err, size_t errlen)
{
	PGresult *res = n ? PQexecParams(pg, sql, n, NULL, params, NULL, NULL, 0) :
			    PQexec(pg, sql);
	ExecStatusType st = PQresultStatus(res);

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		PQclear(res);
		return fail(pg, what, err, errlen);
	}
	if (out)
		*out = res;
	else
		PQclear(res);
	return 0;
}

static int migrate_locked(PGconn *pg, char *err, size_t errlen)
{
	int last = mb_store_migrations[mb_store_nr_migrations - 1].version, version;
	PGresult *res;
	char num[16];

	if (run(pg, "SELECT pg_advisory_xact_lock(" MIGRATION_LOCK ")", 0, NULL, NULL,
		"locking the schema", err, errlen) ||
	    run(pg, "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
		0, NULL, NULL, "creating the schema", err, errlen) ||
	    run(pg, "SELECT coalesce(max(version), 0) FROM schema_migrations", 0, NULL, &res,
		"reading the schema", err, errlen))
		return -EIO;
	version = atoi(PQgetvalue(res, 0, 0));
	PQclear(res);
	if (version > last) {
		snprintf(err, errlen, "schema version %d: newer than this mapbench knows (%d); use a newer mapbench",
			 version, last);
		return -EINVAL;
	}
	for (int i = 0; i < mb_store_nr_migrations; i++) {
		const char *p[] = { num };

		if (mb_store_migrations[i].version <= version)
			continue;
		snprintf(num, sizeof(num), "%d", mb_store_migrations[i].version);
		if (run(pg, mb_store_migrations[i].postgres, 0, NULL, NULL, "creating the schema",
			err, errlen) ||
		    run(pg, "INSERT INTO schema_migrations VALUES ($1::integer, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'))",
			1, p, NULL, "creating the schema", err, errlen))
			return -EIO;
	}
	return 0;
}

static int migrate(PGconn *pg, char *err, size_t errlen)
{
	int ret;

	if (run(pg, "BEGIN", 0, NULL, NULL, "creating the schema", err, errlen))
		return -EIO;
	ret = migrate_locked(pg, err, errlen);
	if (ret || run(pg, "COMMIT", 0, NULL, NULL, "creating the schema", err, errlen)) {
		PQclear(PQexec(pg, "ROLLBACK"));
		return ret ? ret : -EIO;
	}
	return 0;
}

/* The server's notices ("relation already exists, skipping") are not the user's business. */
static void quiet_notice(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

int mb_store_pg_open(const char *conninfo, void **db, char *err, size_t errlen)
{
	PGconn *pg = PQconnectdb(conninfo);
	int ret;

	*db = NULL;
	if (!pg) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (PQstatus(pg) != CONNECTION_OK) {
		fail(pg, "cannot connect to PostgreSQL", err, errlen);
		PQfinish(pg);
		return -EIO;
	}
	PQsetNoticeProcessor(pg, quiet_notice, NULL);
	ret = migrate(pg, err, errlen);
	if (ret) {
		PQfinish(pg);
		return ret;
	}
	*db = pg;
	return 0;
}

static void pg_close(void *db)
{
	PQfinish(db);
}

static const char insert_run[] =
	"INSERT INTO runs (dedupe_key, time, end_time, bench, family, params, status, kernel, "
	"machine_class, hostname, version, git_revision, figure, unit, higher_is_better, mean, "
	"median, stddev, cv, nsamples, noisy, result_json, context_json) VALUES ($1, $2, $3, $4, "
	"$5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::integer, $16::float8, $17::float8, "
	"$18::float8, $19::float8, $20::integer, $21::integer, $22, $23) "
	"ON CONFLICT (dedupe_key) DO NOTHING RETURNING id";

#define NR_RUN_PARAMS	23

/* A double as a parameter's text: NULL for NaN (unknown). */
static const char *real_text(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		return NULL;
	snprintf(buf, len, "%.17g", v);
	return buf;
}

/* The samples as an array literal, "{1.5,NULL,2}". */
static char *samples_array(const struct mb_store_record *r)
{
	char *text = NULL, num[40];
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	fputc('{', f);
	for (int i = 0; i < r->nsamples; i++) {
		const char *s = real_text(r->samples[i], num, sizeof(num));

		fprintf(f, "%s%s", i ? "," : "", s ? s : "NULL");
	}
	fputc('}', f);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* 1 added, 0 already there; the transaction is left for the caller to end. */
static int add_locked(PGconn *pg, const struct mb_store_record *r, char *err, size_t errlen)
{
	char nums[6][40], bools[2][4], *array;
	const char *p[NR_RUN_PARAMS] = {
		r->dedupe_key, r->time, r->end_time, r->bench, r->family, r->params, r->status,
		r->kernel, r->machine_class, r->hostname, r->version, r->git_revision, r->figure,
		r->unit, bools[0], real_text(r->mean, nums[0], 40),
		real_text(r->median, nums[1], 40), real_text(r->stddev, nums[2], 40),
		real_text(r->cv, nums[3], 40), nums[4], bools[1], r->result_json, r->context_json,
	};
	const char *sp[2] = { NULL, NULL };
	PGresult *res;
	int ret;

	snprintf(bools[0], sizeof(bools[0]), "%d", r->higher_is_better);
	snprintf(bools[1], sizeof(bools[1]), "%d", r->noisy);
	snprintf(nums[4], sizeof(nums[4]), "%d", r->nsamples);
	if (run(pg, insert_run, NR_RUN_PARAMS, p, &res, "adding the result", err, errlen))
		return -EIO;
	if (PQntuples(res) == 0) {
		PQclear(res);
		return 0;
	}
	snprintf(nums[5], sizeof(nums[5]), "%s", PQgetvalue(res, 0, 0));
	PQclear(res);
	array = samples_array(r);
	if (!array) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	sp[0] = nums[5];
	sp[1] = array;
	ret = run(pg, "INSERT INTO samples (run_id, idx, value) SELECT $1::bigint, i - 1, v FROM unnest($2::float8[]) WITH ORDINALITY AS t(v, i)",
		  2, sp, NULL, "adding the samples", err, errlen);
	free(array);
	return ret ? ret : 1;
}

static int pg_add(void *db, const struct mb_store_record *r, char *err, size_t errlen)
{
	int ret;

	if (run(db, "BEGIN", 0, NULL, NULL, "adding the result", err, errlen))
		return -EIO;
	ret = add_locked(db, r, err, errlen);
	if (ret < 0 || run(db, ret ? "COMMIT" : "ROLLBACK", 0, NULL, NULL, "adding the result",
			   err, errlen)) {
		PQclear(PQexec(db, "ROLLBACK"));
		return ret < 0 ? ret : -EIO;
	}
	return ret;
}

static double get_real(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NAN : strtod(PQgetvalue(res, row, col), NULL);
}

/* "{1.5,NULL,2}" into *@buf, grown to the array's length. */
static int parse_samples(const char *text, double **buf, int *n)
{
	size_t len = strlen(text);
	const char *p = text + (*text == '{');
	double *b = realloc(*buf, (len / 2 + 1) * sizeof(double));

	if (!b)
		return -ENOMEM;
	*buf = b;
	*n = 0;
	while (*p && *p != '}') {
		char *end;

		if (!strncmp(p, "NULL", 4)) {
			b[(*n)++] = NAN;
			end = (char *)p + 4;
		} else {
			b[(*n)++] = strtod(p, &end);
			if (end == p)
				break;
		}
		p = end + (*end == ',');
	}
	return 0;
}

static void read_run(const PGresult *res, int i, struct mb_store_run *run)
{
	*run = (struct mb_store_run){
		.id = strtoll(PQgetvalue(res, i, 0), NULL, 10),
		.time = PQgetvalue(res, i, 1), .bench = PQgetvalue(res, i, 2),
		.params = PQgetvalue(res, i, 3), .kernel = PQgetvalue(res, i, 4),
		.machine_class = PQgetvalue(res, i, 5), .hostname = PQgetvalue(res, i, 6),
		.version = PQgetvalue(res, i, 7), .git_revision = PQgetvalue(res, i, 8),
		.figure = PQgetvalue(res, i, 9), .unit = PQgetvalue(res, i, 10),
		.higher_is_better = atoi(PQgetvalue(res, i, 11)) != 0,
		.mean = get_real(res, i, 12), .median = get_real(res, i, 13),
		.stddev = get_real(res, i, 14), .cv = get_real(res, i, 15),
		.noisy = atoi(PQgetvalue(res, i, 16)) != 0,
		.result_json = PQgetvalue(res, i, 17),
	};
}

static int pg_each(void *db, const struct mb_store_query *q, char *err, size_t errlen)
{
	const char *p[3] = { q->filter->bench, q->filter->kernel, q->since };
	double *buf = NULL;
	char sql[1024];
	PGresult *res;
	int ret = 0, n;

	snprintf(sql, sizeof(sql),
		 "SELECT %s, (SELECT coalesce(array_agg(value ORDER BY idx), '{}') FROM samples "
		 "WHERE run_id = runs.id) FROM runs WHERE ($1::text IS NULL OR bench = $1) AND "
		 "($2::text IS NULL OR kernel = $2) AND ($3::text IS NULL OR time >= $3) "
		 "ORDER BY time, id", mb_store_run_columns);
	if (run(db, sql, 3, p, &res, "reading the runs", err, errlen))
		return -EIO;
	for (int i = 0; i < PQntuples(res) && !ret; i++) {
		struct mb_store_run r;

		read_run(res, i, &r);
		if (!mb_store_params_match(q->filter, r.params))
			continue;
		ret = parse_samples(PQgetvalue(res, i, 18), &buf, &n);
		if (ret) {
			snprintf(err, errlen, "out of memory");
			break;
		}
		r.samples = buf;
		r.nsamples = n;
		ret = q->fn(&r, q->arg);
	}
	free(buf);
	PQclear(res);
	return ret;
}

const struct mb_store_ops mb_store_pg_ops = {
	.add = pg_add,
	.each = pg_each,
	.close = pg_close,
};
#endif
