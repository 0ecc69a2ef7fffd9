// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The SQLite back-end: one file, in WAL mode with a busy timeout so that two runs can write at
 * once (one waits for the other's transaction, never fails), one transaction per result, so a
 * writer killed at any point leaves every result it committed and nothing half-written.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store_backend.h"

/* How long a writer waits for another's transaction before it gives up. */
#define BUSY_TIMEOUT_MS	60000

static int fail(sqlite3 *db, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(db));
	return -EIO;
}

static int exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	snprintf(err, errlen, "%s", msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -EIO;
}

/*
 * exec(), waiting out another process's lock: SQLite does not call the busy handler for every
 * statement that meets one (a new file's switch to WAL, for one), so two runs opening a new
 * history at once would fail with "database is locked".
 */
static int exec_waiting(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
	for (int waited = 0;; waited += 5) {
		int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);

		if (rc == SQLITE_OK)
			return 0;
		if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || waited >= BUSY_TIMEOUT_MS)
			return fail(db, sql, err, errlen);
		sqlite3_sleep(5);
	}
}

/* The first column of the first row of @sql as an integer; @def when there is no row. */
static int query_int(sqlite3 *db, const char *sql, long long def, long long *out, char *err,
		     size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail(db, "reading the schema", err, errlen);
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL ?
		       sqlite3_column_int64(st, 0) : def;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fail(db, "reading the schema", err, errlen);
	return 0;
}

/* Apply the migrations past the file's version, all in one transaction. */
static int migrate_locked(sqlite3 *db, char *err, size_t errlen)
{
	long long ours, others, version;
	char sql[256];

	if (query_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'schema_migrations'",
		      0, &ours, err, errlen) ||
	    query_int(db, "SELECT count(*) FROM sqlite_master", 0, &others, err, errlen))
		return -EIO;
	if (!ours && others) {
		snprintf(err, errlen, "an SQLite database, but not a mapbench history (no schema_migrations table)");
		return -EINVAL;
	}
	if (exec(db, "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
		 err, errlen) ||
	    query_int(db, "SELECT max(version) FROM schema_migrations", 0, &version, err, errlen))
		return -EIO;
	if (version > mb_store_migrations[mb_store_nr_migrations - 1].version) {
		snprintf(err, errlen, "schema version %lld: newer than this mapbench knows (%d); use a newer mapbench",
			 version, mb_store_migrations[mb_store_nr_migrations - 1].version);
		return -EINVAL;
	}
	for (int i = 0; i < mb_store_nr_migrations; i++) {
		if (mb_store_migrations[i].version <= version)
			continue;
		snprintf(sql, sizeof(sql),
			 "INSERT INTO schema_migrations VALUES (%d, strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', 'now'))",
			 mb_store_migrations[i].version);
		if (exec(db, mb_store_migrations[i].sqlite, err, errlen) ||
		    exec(db, sql, err, errlen))
			return -EIO;
	}
	return 0;
}

/* The schema is the newest already: a reader (or a second writer) takes no write lock. */
static bool schema_current(sqlite3 *db)
{
	long long version;
	char err[256];

	return !query_int(db, "SELECT max(version) FROM schema_migrations", 0, &version, err,
			  sizeof(err)) &&
	       version == mb_store_migrations[mb_store_nr_migrations - 1].version;
}

static int migrate(sqlite3 *db, char *err, size_t errlen)
{
	int ret;

	if (schema_current(db))
		return 0;
	/* IMMEDIATE: two processes opening a new file at once migrate it one after the other. */
	if (exec_waiting(db, "BEGIN IMMEDIATE", err, errlen))
		return -EIO;
	ret = migrate_locked(db, err, errlen);
	if (ret || exec(db, "COMMIT", err, errlen)) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return ret ? ret : -EIO;
	}
	return 0;
}

static int configure(sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
	if (exec_waiting(db, "PRAGMA journal_mode = WAL", err, errlen) ||
	    exec(db, "PRAGMA foreign_keys = ON", err, errlen) ||
	    exec(db, "PRAGMA synchronous = NORMAL", err, errlen))
		return -EIO;
	return migrate(db, err, errlen);
}

/* A file this open created and could not make a history of goes again, with its WAL files. */
static void remove_created(const char *path)
{
	static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
	char name[4096];

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++) {
		snprintf(name, sizeof(name), "%s%s", path, suffixes[i]);
		unlink(name);
	}
}

/*
 * Whether this process makes @path: created here by an exclusive create (an empty file is a
 * new SQLite database), so that of two processes opening a new history at once only the one
 * that made it removes it again on failure. 0, or a negative errno.
 */
static int create_file(const char *path, bool *created)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	*created = fd >= 0;
	if (fd >= 0)
		close(fd);
	return fd >= 0 || errno == EEXIST ? 0 : -errno;
}

int mb_store_sqlite_open(const char *path, bool create, void **out, char *err, size_t errlen)
{
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	bool created = false;
	sqlite3 *db = NULL;
	int ret;

	*out = NULL;
	if (!create && access(path, F_OK)) {
		snprintf(err, errlen, "no such file (a history that --db FILE or mapbench import made)");
		return -ENOENT;
	}
	if (create) {
		ret = create_file(path, &created);
		if (ret) {
			snprintf(err, errlen, "cannot create it: %s", strerror(-ret));
			return ret;
		}
	}
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open it as an SQLite file: %s",
			 db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		ret = -EIO;
	} else {
		ret = configure(db, err, errlen);
		if (ret)
			sqlite3_close(db);
	}
	if (ret && created)
		remove_created(path);
	if (!ret)
		*out = db;
	return ret;
}

static void sqlite_close(void *db)
{
	sqlite3_close(db);
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static const char insert_run[] =
	"INSERT OR IGNORE INTO runs (dedupe_key, time, end_time, bench, family, params, status, "
	"kernel, machine_class, hostname, version, git_revision, figure, unit, higher_is_better, "
	"mean, median, stddev, cv, nsamples, noisy, result_json, context_json) VALUES "
	"(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

static void bind_record(sqlite3_stmt *st, const struct mb_store_record *r)
{
	const char *texts[] = { r->dedupe_key, r->time, r->end_time, r->bench, r->family,
				r->params, r->status, r->kernel, r->machine_class, r->hostname,
				r->version, r->git_revision, r->figure, r->unit };
	int i = 1;

	for (size_t k = 0; k < sizeof(texts) / sizeof(*texts); k++)
		bind_text(st, i++, texts[k]);
	sqlite3_bind_int(st, i++, r->higher_is_better);
	bind_real(st, i++, r->mean);
	bind_real(st, i++, r->median);
	bind_real(st, i++, r->stddev);
	bind_real(st, i++, r->cv);
	sqlite3_bind_int(st, i++, r->nsamples);
	sqlite3_bind_int(st, i++, r->noisy);
	bind_text(st, i++, r->result_json);
	bind_text(st, i, r->context_json);
}

static int add_samples(sqlite3 *db, long long id, const struct mb_store_record *r, char *err,
		       size_t errlen)
{
	sqlite3_stmt *st;
	int ret = 0;

	if (sqlite3_prepare_v2(db, "INSERT INTO samples (run_id, idx, value) VALUES (?, ?, ?)", -1,
			       &st, NULL) != SQLITE_OK)
		return fail(db, "adding the samples", err, errlen);
	for (int i = 0; i < r->nsamples && !ret; i++) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, i);
		bind_real(st, 3, r->samples[i]);
		if (sqlite3_step(st) != SQLITE_DONE)
			ret = fail(db, "adding the samples", err, errlen);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return ret;
}

/* 1 added, 0 already there; the transaction is left for the caller to end. */
static int add_locked(sqlite3 *db, const struct mb_store_record *r, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	long long id;
	int rc;

	if (sqlite3_prepare_v2(db, insert_run, -1, &st, NULL) != SQLITE_OK)
		return fail(db, "adding the result", err, errlen);
	bind_record(st, r);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail(db, "adding the result", err, errlen);
	if (!sqlite3_changes(db))
		return 0;
	id = sqlite3_last_insert_rowid(db);
	return add_samples(db, id, r, err, errlen) ? -EIO : 1;
}

static int sqlite_add(void *db, const struct mb_store_record *r, char *err, size_t errlen)
{
	int ret;

	if (exec_waiting(db, "BEGIN IMMEDIATE", err, errlen))
		return -EIO;
	ret = add_locked(db, r, err, errlen);
	if (ret < 0 || exec(db, ret ? "COMMIT" : "ROLLBACK", err, errlen)) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return ret < 0 ? ret : -EIO;
	}
	return ret;
}

static const char *col_text(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}

static double col_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static void read_run(sqlite3_stmt *st, struct mb_store_run *run)
{
	*run = (struct mb_store_run){
		.id = sqlite3_column_int64(st, 0),
		.time = col_text(st, 1), .bench = col_text(st, 2), .params = col_text(st, 3),
		.kernel = col_text(st, 4), .machine_class = col_text(st, 5),
		.hostname = col_text(st, 6), .version = col_text(st, 7),
		.git_revision = col_text(st, 8), .figure = col_text(st, 9),
		.unit = col_text(st, 10), .higher_is_better = sqlite3_column_int(st, 11),
		.mean = col_real(st, 12), .median = col_real(st, 13),
		.stddev = col_real(st, 14), .cv = col_real(st, 15),
		.noisy = sqlite3_column_int(st, 16), .result_json = col_text(st, 17),
	};
}

/* @run's samples into *@buf (grown as needed), in order. */
static int read_samples(sqlite3_stmt *st, struct mb_store_run *run, double **buf, int *cap)
{
	int n = 0, rc;

	sqlite3_bind_int64(st, 1, run->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == *cap) {
			int more = *cap ? *cap * 2 : 64;
			double *b = realloc(*buf, (size_t)more * sizeof(double));

			if (!b) {
				sqlite3_reset(st);
				return -ENOMEM;
			}
			*buf = b;
			*cap = more;
		}
		(*buf)[n++] = col_real(st, 0);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return -EIO;
	run->samples = *buf;
	run->nsamples = n;
	return 0;
}

static int walk(sqlite3 *db, sqlite3_stmt *runs, sqlite3_stmt *samples,
		const struct mb_store_query *q, char *err, size_t errlen)
{
	double *buf = NULL;
	int cap = 0, rc, ret = 0;

	while (!ret && (rc = sqlite3_step(runs)) == SQLITE_ROW) {
		struct mb_store_run run;

		read_run(runs, &run);
		if (!mb_store_params_match(q->filter, run.params))
			continue;
		ret = read_samples(samples, &run, &buf, &cap);
		if (ret)
			fail(db, "reading the samples", err, errlen);
		else
			ret = q->fn(&run, q->arg);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = fail(db, "reading the runs", err, errlen);
	free(buf);
	return ret;
}

static int sqlite_each(void *db, const struct mb_store_query *q, char *err, size_t errlen)
{
	char sql[1024];
	sqlite3_stmt *runs = NULL, *samples = NULL;
	int ret;

	snprintf(sql, sizeof(sql),
		 "SELECT %s FROM runs WHERE (?1 IS NULL OR bench = ?1) "
		 "AND (?2 IS NULL OR kernel = ?2) AND (?3 IS NULL OR time >= ?3) "
		 "ORDER BY time, id", mb_store_run_columns);
	if (sqlite3_prepare_v2(db, sql, -1, &runs, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT value FROM samples WHERE run_id = ? ORDER BY idx", -1,
			       &samples, NULL) != SQLITE_OK) {
		ret = fail(db, "reading the runs", err, errlen);
		goto out;
	}
	bind_text(runs, 1, q->filter->bench);
	bind_text(runs, 2, q->filter->kernel);
	bind_text(runs, 3, q->since);
	/* One read transaction: the walk sees one state of the file, whatever writers do. */
	if (exec(db, "BEGIN", err, errlen)) {
		ret = -EIO;
		goto out;
	}
	ret = walk(db, runs, samples, q, err, errlen);
	sqlite3_reset(runs);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
out:
	sqlite3_finalize(runs);
	sqlite3_finalize(samples);
	return ret;
}

const struct mb_store_ops mb_store_sqlite_ops = {
	.add = sqlite_add,
	.each = sqlite_each,
	.close = sqlite_close,
};
