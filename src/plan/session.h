/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What plain runs and sweeps share around their runs: preparing each run from the command
 * line, the checks before measuring (options, baseline, noise preflight), executing the runs
 * into the chain of sinks they want (chain.h), and the exit status.
 */
#ifndef MB_SESSION_H
#define MB_SESSION_H

#include "core/bench.h"
#include "cli/cli.h"
#include "core/env.h"
#include "chain.h"

struct mb_json;

struct mb_session {
	struct mb_env *env;		/* the document's env: context, output, baseline options */
	struct mb_json *baseline;	/* --baseline, loaded before anything runs */
	struct mb_chain chain;		/* the sinks of its runs, built by mb_session_execute */
	struct mb_store *store;		/* --db (or MAPBENCH_DB), opened before the runs */
};

/*
 * Initialise @run for @bench with @env, then apply @words ("--name value" pairs, from @origin:
 * the default suite, a sweep preset) and the command line's bench options, in that order.
 * Returns 0 or -EINVAL (reported).
 */
int mb_session_prepare_run(struct mb_cli *cli, struct mb_run *run, int pos,
			   const struct mb_bench *bench,
			   const struct mb_env *env, const char *const *words, const char *origin);

/*
 * Look up @nr bench names into @out; an unknown name gets one error line with the closest
 * names. Returns 0 or -EINVAL.
 */
int mb_session_resolve(const char *const *names, int nr, const struct mb_bench **out);

/*
 * Global options that only make sense together (--threshold without --baseline, ...), and
 * whether -o FILE and --save-baseline can be written (mb_output_check).
 */
int mb_session_check_options(const struct mb_cli *cli);

/*
 * Just before measuring: load --baseline (exit status 2 if it cannot be read), run the noise
 * preflight (77 with --strict and a warning), open --db's history (2 if it cannot be), set up
 * libbpf logging and signals. Returns 0 to go
 * on, else the exit status.
 */
int mb_session_begin(struct mb_session *s, struct mb_env *env, int max_producers);

/*
 * Build the chain of sinks @want describes (mb_chain_build), with the session's --db history,
 * then execute the plan's @nr runs
 * one by one, each sending its events down it, until all ran or a signal set the stop flag.
 * Returns how many ran.
 */
int mb_session_execute(struct mb_session *s, struct mb_run *runs, int nr,
		       const struct mb_chain_want *want);

/*
 * After the runs: the document and the end event down the chain (mb_chain_end): the table,
 * the document written, the comparison with --baseline and --save-baseline. Returns the exit
 * status: that of the runs (interrupted, failed, all skipped, or ok), or 1 when a document or
 * baseline cannot be written or, with --fail-on-regression, a result regressed.
 */
int mb_session_finish(struct mb_session *s, struct mb_run *runs, int nr, int ran);
void mb_session_free(struct mb_session *s);

#endif
