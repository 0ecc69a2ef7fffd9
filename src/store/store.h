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
 * (the same context time, command line, host and result), a negative errno with @err on error.
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

#endif
