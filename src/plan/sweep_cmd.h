/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The state the files of mapbench sweep share: cmd_sweep.c is the command (options, help,
 * the presets list), sweep_plan.c turns parameters and series into points, sweep_run.c makes
 * each point a run and runs them, sweep_output.c writes the table and the document.
 */
#ifndef MB_SWEEP_CMD_H
#define MB_SWEEP_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"
#include "presets.h"
#include "sweep.h"

struct mb_chain_doc;
struct mb_json;
struct mb_run;
struct mb_session;
struct mb_summary;

#define MAX_PARAMS	(MB_CLI_LIST_MAX + MB_PRESET_MAX_PARAMS)
#define MAX_BENCHES	16
#define MAX_SERIES	MB_PRESET_MAX_SERIES
/* Set-up and teardown of one run, on top of its samples, for the time estimates. */
#define RUN_OVERHEAD_S	0.2

struct sweep_args {
	struct mb_cli_list params;
	uint32_t repeat;
	const char *preset;
	bool list_presets;
	bool skip_invalid;
	const char *fastest;	/* --fastest NAME */
};

struct sparam {
	const char *name;		/* the option's own spelling */
	const struct mb_opt *opt;
	bool global;
	bool from_preset;
	struct mb_sweep_values vals;
	struct mb_json *typed;		/* the values as results hold them (numbers, booleans) */
};

struct sseries {
	const struct mb_bench *benches[MAX_BENCHES];
	int nr_benches;
	const char *const *args;	/* fixed bench options */
	int params[MAX_PARAMS];		/* indices into sweep.params */
	int nr_params;
};

struct spoint {
	int series, rep;
	int pos;			/* index of its bench among the names, -1 from a preset */
	const struct mb_bench *bench;
	int idx[MAX_PARAMS];		/* value of each sweep parameter, -1: not in this series */
	int run;			/* index into runs, -1: refused by the bench */
	char *reason;			/* why refused */
};

struct sweep {
	struct mb_cli cli;
	struct sweep_args args;
	const struct mb_preset *preset;
	char origin[96];		/* "preset bloom", for messages */
	struct sparam params[MAX_PARAMS];
	int nr_params;
	struct sseries series[MAX_SERIES];
	int nr_series;
	struct spoint *points;
	long nr_points;
	struct mb_run *runs;
	struct mb_env *envs;
	int nr_runs;
	int nr_refused;
	int fastest;			/* the parameter ranked under the table, -1: none */
};

/* sweep_plan.c: the parameters, the series and the points. */

/* Like mb_opt_apply, and a flag takes true or false (it can be swept, or unset). */
int sweep_apply_value(const struct mb_opt *opt, void *args, const char *value, char *msg,
		      size_t len);
/* The series of --preset, its global options and its parameters. */
int sweep_setup_preset(struct sweep *sw);
/* The one series of the bench names on the command line. */
int sweep_setup_benches(struct sweep *sw);
/* The --param lists, added to every series (or replacing a preset's list). */
int sweep_setup_params(struct sweep *sw);
/* The points in the order they run: round by round, series by series, product, bench. */
int sweep_make_points(struct sweep *sw);

/*
 * sweep_fastest.c: the parameter whose fastest value the text names (--fastest, else one a
 * bench of the sweep declares, .sweep_fastest), checked: 0 or -EINVAL, said.
 */
int sweep_setup_fastest(struct sweep *sw);
/*
 * The "fastest" object of the document: for each combination of the other swept values
 * (and bench), the ranked parameter's value with the lowest mean ns/op; NULL: none ranked.
 */
struct mb_json *sweep_fastest_json(const struct sweep *sw, int ran);
/* Its line under the table. */
void sweep_fastest_line(FILE *f, const struct mb_json *fastest);
/* A point's ns/op, as the table and the ranking give it: in-kernel where timed so, else wall. */
double sweep_point_latency(const struct mb_run *run, const struct mb_summary *sum);

/* sweep_run.c: each point as a run. */

/* Configure and validate a run per point; refused points are skipped where that is allowed. */
int sweep_prepare_runs(struct sweep *sw);
/*
 * Run every point that has a run (up to an interrupt), with progress, then write the table
 * and the document and compare with the baseline. Returns the exit status.
 */
int sweep_run_all(struct sweep *sw, struct mb_session *session);

/* sweep_output.c: what a sweep shows and writes. */

/* The bench and the values of point @p (and its round). */
void sweep_point_label(const struct sweep *sw, const struct spoint *p, char *buf, size_t len);
/* Point @p's label and result, for the progress lines. */
void sweep_point_line(const struct sweep *sw, const struct spoint *p, char *buf, size_t len);
/*
 * The sweep's document for the session's chain (chain.h): the runs' document with a "sweep"
 * object (parameters, series, points, plot hints), written to -o (or stdout with --format
 * json), and the table of the points to stdout.
 */
void sweep_chain_doc(struct mb_chain_doc *doc, struct sweep *sw);

#endif
