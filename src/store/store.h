/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The results history (issue 34): every result a run or a sweep finishes, kept in a database
 * with its context and samples. One API over two back-ends: an SQLite file (the default) and a
 * PostgreSQL server (a connection string), with the same schema. The writers (the --db sink,
 * mapbench import) add results; the readers (history, trend, gate, report) walk runs.
 */
#ifndef MB_STORE_H
#define MB_STORE_H

#include <stdbool.h>
#include <stddef.h>

struct mb_json;
struct mb_store;

/*
 * Open the store @where names, creating it and migrating its schema as needed: a PostgreSQL
 * connection string ("postgresql://...", "postgres://..." or "key=value ..." with host= or
 * dbname=) or else an SQLite file path. Returns 0, or a negative errno with one line in @err.
 */
int mb_store_open(const char *where, struct mb_store **store, char *err, size_t errlen);
void mb_store_close(struct mb_store *store);

/*
 * Add one result in one transaction: @context is a document's "context" object, @result one
 * element of its "results" array. Returns 1 when added, 0 when that result was already there
 * (the same host, command line, bench, parameters, start and end time and mean: whether the
 * --db sink added it as it finished or an import read it from the document later), a
 * negative errno with @err on error. Only results whose status is "ok" are kept: another gets
 * -ENODATA (mb_store_result_kept says which beforehand).
 */
int mb_store_add(struct mb_store *store, const struct mb_json *context,
		 const struct mb_json *result, char *err, size_t errlen);

/* Which runs a reader wants; every field NULL or 0: all of them. */
struct mb_store_filter {
	const char *bench;
	const char *const *params;	/* "key=value" each, all must match the run's parameters */
	int nparams;
	const char *since;		/* ISO 8601 date or date-time (UTC): runs at or after it */
	const char *kernel;		/* a kernel release, exactly */
};

/* One stored result, as a reader sees it. The strings and samples live until the callback returns. */
struct mb_store_run {
	long long id;
	const char *time;		/* the result's start time, ISO 8601 UTC */
	const char *bench;
	const char *params;		/* canonical: "key=value" pairs sorted by key, joined by "," */
	const char *kernel;		/* release */
	const char *machine_class;	/* CPU vendor/family/model/microcode, mitigations, kernel config */
	const char *hostname;
	const char *version;		/* mapbench's version and git revision */
	const char *git_revision;
	const char *figure;		/* the headline figure's name and unit */
	const char *unit;
	bool higher_is_better;
	double mean, median, stddev, cv;
	const double *samples;		/* the headline figure of each measured sample, in order */
	int nsamples;
	bool noisy;
	const char *result_json;	/* the whole result as stored */
};

typedef int (*mb_store_run_fn)(const struct mb_store_run *run, void *arg);

/*
 * Call @fn for each run @filter matches, oldest first (time, then id). Stops at the first
 * nonzero return of @fn and returns it; 0 when all were walked; a negative errno with @err.
 */
int mb_store_each(struct mb_store *store, const struct mb_store_filter *filter,
		  mb_store_run_fn fn, void *arg, char *err, size_t errlen);

/*
 * As mb_store_open, for readers (history, gate, report): an SQLite file must exist already and
 * be a mapbench history, never created. Returns 0, or a negative errno with one line in @err.
 */
int mb_store_open_existing(const char *where, struct mb_store **store, char *err, size_t errlen);

/* Whether @where is a PostgreSQL connection string rather than an SQLite file's path. */
bool mb_store_is_postgres(const char *where);

/* Whether @result measured something the store keeps: its status is "ok". */
bool mb_store_result_kept(const struct mb_json *result);

/*
 * A --since value: "YYYY-MM-DD", or a date-time "YYYY-MM-DDTHH:MM[:SS][Z]" (UTC), written
 * into @out (at least 21 bytes) as the store's times are, "YYYY-MM-DDTHH:MM:SSZ", so that they
 * compare as text. Returns 0, or -EINVAL when it is no such date.
 */
int mb_store_since_parse(const char *text, char *out, size_t len);

#endif
