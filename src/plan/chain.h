/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The sinks of a session's runs (core/sink.h), assembled in one place from what the run wants,
 * in one order written once (mb_chain_build): the live text lines, the RESULT lines, --db's
 * results history, a sweep's progress, the table of the results, the document writer, then
 * --baseline's comparison and --save-baseline. After the last run the document is made once, before the end event, and
 * handed to every sink with it: the writer writes it and the baseline sink compares and saves
 * it, so neither depends on where the other stands in the chain.
 */
#ifndef MB_CHAIN_H
#define MB_CHAIN_H

#include <stdbool.h>

#include "core/bench.h"
#include "core/env.h"
#include "core/sink.h"
#include "baseline_sink.h"
#include "store_sink.h"

struct mb_json;

/* A run's document: how it is made from the runs that ran, and how it is written. */
struct mb_chain_doc {
	/* The document of the first @ran runs of @runs; NULL: out of memory. */
	struct mb_json *(*make)(void *priv, struct mb_run *runs, int ran);
	/* Write @doc (NULL: it could not be made). Returns 0 or a negative errno, reported. */
	int (*write)(void *priv, struct mb_json *doc, struct mb_run *runs, int ran);
	void *priv;
};

/* When the table of results is printed (on the progress stream; text, no -o, not -q). */
enum mb_chain_table {
	MB_CHAIN_NO_TABLE,
	MB_CHAIN_TABLE_SEVERAL,		/* when the runs gave more than one result */
	MB_CHAIN_TABLE_ALWAYS,		/* the default suite: a table even of one run */
};

/* What a run wants done with its events; each part is a sink of the chain, or absent. */
struct mb_chain_want {
	bool live_text;			/* the kernel-style lines as each run goes */
	bool result_lines;		/* --machine-readable: the kernel's RESULT line per result */
	struct mb_sink *progress;	/* a sweep's progress lines and bar; NULL: none */
	enum mb_chain_table table;
	/* The document and its writer; NULL: the runs' document, in env's format (report.h). */
	const struct mb_chain_doc *doc;
	bool baseline;			/* --baseline's comparison, --save-baseline */
	struct mb_store *store;		/* --db: the history each result goes to; NULL: none */
};

struct mb_chain {
	struct mb_sink *head;		/* where the runs send their events */
	struct mb_sink live, result, table, document;
	struct mb_baseline_sink baseline;
	struct mb_store_sink store;
	struct mb_chain_doc doc;
	enum mb_chain_table table_when;
	const struct mb_env *env;
};

/*
 * Build @c from @want for runs under @env, with --baseline's document @base (loaded, or
 * NULL). @want->progress is linked in, not copied: it must outlive the chain.
 */
void mb_chain_build(struct mb_chain *c, const struct mb_chain_want *want,
		    const struct mb_env *env, const struct mb_json *base);

/*
 * After the last run: make the document of the @ran runs (out of @nr), send the end event
 * down the chain with it and @status (the runs' exit status), free it. Returns the exit
 * status the sinks leave: @status, or 1 when the document or the baseline cannot be written
 * or, with --fail-on-regression, a result regressed.
 */
int mb_chain_end(struct mb_chain *c, struct mb_run *runs, int nr, int ran, int status);

#endif
