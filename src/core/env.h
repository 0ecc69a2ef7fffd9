/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Global options (the kernel bench's, plus output and sampling settings). */
#ifndef MB_ENV_H
#define MB_ENV_H

#include <stdbool.h>
#include <stdint.h>

#include "util/cpuset.h"
#include "opts.h"

enum mb_format {
	MB_FORMAT_TEXT,
	MB_FORMAT_JSON,
	MB_FORMAT_CSV,
	MB_FORMAT_MD,		/* Markdown tables: sweep and compare only */
};

struct mb_json;

/* -o can be given once per format: the first, and up to three more. */
#define MB_MORE_OUTPUTS 3

struct mb_env {
	uint32_t warmup;	/* samples dropped before measuring */
	uint32_t duration;	/* samples measured */
	uint32_t interval_ms;	/* sample length */
	uint32_t call_us;	/* in-kernel work per test_run call */
	uint32_t producers;
	uint32_t consumers;
	bool affinity;
	bool quiet;
	bool verbose;
	bool machine_readable;	/* the kernel's RESULT line per in-kernel result (implies quiet) */
	bool list;
	bool map_types;	/* list the map types, probed, and their benches */
	bool help;
	bool version;
	bool net;		/* subtract the empty loop's cost from in-kernel ns/op */
	int loop;		/* enum mb_loop_kind: which in-kernel loop to load */
	bool latency;		/* time one op in 1024 on its own: per-op percentiles */
	bool no_linearity;	/* skip the N vs 2N self-check after the samples */
	struct mb_cpuset prod_cpus;	/* count 0: not given */
	struct mb_cpuset cons_cpus;
	int format;		/* enum mb_format */
	const char *output;	/* -o FILE, or NULL for stdout */
	/* -o given again: more documents of the same results, each in its suffix's format */
	const char *more_output[MB_MORE_OUTPUTS];
	int more_format[MB_MORE_OUTPUTS];	/* enum mb_format */
	int nr_more_outputs;
	bool strict;		/* refuse to measure when the noise preflight warns */
	const char *save_baseline;	/* save the document as this named baseline */
	const char *baseline;	/* compare the results with this named baseline */
	double threshold;	/* comparisons: smallest relative change that counts, in % */
	double alpha;		/* comparisons: significance level of the U test */
	bool fail_on_regression;	/* comparisons: exit 1 when a result regressed */
	struct mb_cli_list ignore;	/* comparisons: names left out of the match */
	const char *db;		/* the results history to add each result to (or MAPBENCH_DB) */

	/* Not options: filled at start-up. */
	bool consumers_given;	/* -c was given (a bench with consumers has 1 otherwise) */
	struct mb_cpuset online;
	int argc;
	char **argv;
	struct mb_json *preflight;	/* the noise preflight's record, for the context (or NULL) */
};

extern const struct mb_opt mb_global_opts[];

#endif
