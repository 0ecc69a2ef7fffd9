/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Comparing two result documents: results are matched by bench, parameters and producers
 * (repeats pooled), each pair gets the relative change of its mean, a Mann-Whitney U test over
 * the measured samples (Welch's t-test where too few samples leave the rank test no p below
 * alpha) and a verdict. Pure functions of parsed documents.
 */
#ifndef MB_COMPARE_H
#define MB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/env.h"
#include "util/mwu.h"
#include "util/welch.h"

struct mb_json;
struct mb_table;

enum mb_cmp_metric {
	MB_CMP_AUTO,		/* in-kernel ns/op where both sides measured it, else throughput */
	MB_CMP_THROUGHPUT,	/* ops/s, higher is better */
	MB_CMP_LATENCY,		/* in-kernel ns/op, lower is better */
};

enum mb_cmp_verdict {
	MB_CMP_IMPROVED,
	MB_CMP_REGRESSED,
	MB_CMP_NO_CHANGE,	/* |change| below the threshold */
	MB_CMP_NOISE,		/* above the threshold, but not significant at alpha */
	MB_CMP_NOT_COMPARABLE,	/* no samples, no such metric, a zero mean */
	MB_CMP_VERDICTS,
};

extern const char *const mb_cmp_metric_names[];	/* "auto", "throughput", "latency" */

#define MB_CMP_MAX_IGNORE	32

struct mb_cmp_opts {
	double threshold;	/* a fraction (0.02 for 2 %) */
	double alpha;
	enum mb_cmp_metric metric;
	const char *ignore[MB_CMP_MAX_IGNORE];	/* parameters left out of the match */
	int nr_ignore;
};

/* The results of one document with the same bench, parameters and producers. */
struct mb_cmp_group {
	char *key;			/* what matching compares */
	const char *bench;		/* point into the document */
	const struct mb_json *params;
	const struct mb_json *config;	/* of the first result */
	double producers;
	int nr_results;
	const char *status;		/* "ok", or the first other status seen */
	double *tput, *lat;		/* measured samples, pooled over the results */
	size_t n, n_lat;
	bool matched;
	bool noisy;			/* a result's summary says it is noisy (summary.noisy) */
	char *label;			/* the parameters that tell it apart, for display */
};

/* The test behind a verdict on two sets of samples (mb_cmp_decide). */
struct mb_cmp_test {
	bool tested;			/* the rank test ran (both sides have samples) */
	struct mb_mwu mwu;
	bool welch;			/* mwu.p_min >= alpha: Welch's t-test decided */
	struct mb_welch t;
	double p;			/* the deciding test's p-value; NaN when none ran */
};

/*
 * The verdict of compare on samples @cur (@nc of them) against @base (@nb), whose means differ
 * by @change ((cur - base) / base): no change below the threshold, else improved or regressed
 * (by @higher_is_better) when the U test (Welch's t-test where too few samples leave it no p
 * below alpha) gives p < alpha, else within noise. @t gets the test. NaNs must be removed.
 */
enum mb_cmp_verdict mb_cmp_decide(const double *base, size_t nb, const double *cur, size_t nc,
				  double change, bool higher_is_better,
				  const struct mb_cmp_opts *o, struct mb_cmp_test *t);

/* "improved", "regressed", "no change", "within noise", "not comparable". */
const char *mb_cmp_verdict_name(enum mb_cmp_verdict v);

struct mb_cmp_row {
	const struct mb_cmp_group *base, *cur;
	enum mb_cmp_metric metric;	/* what was compared (never AUTO) */
	double base_mean, base_sd, cur_mean, cur_sd;
	size_t base_n, cur_n;
	double change;			/* (new - base) / base, NaN if not comparable */
	bool tested;
	struct mb_mwu test;
	/*
	 * Where the rank test cannot reach alpha (too few samples: test.p_min >= alpha), Welch's
	 * t-test decides instead; p is then the t-test's.
	 */
	bool welch;
	struct mb_welch t;
	double p;			/* the deciding test's p-value */
	enum mb_cmp_verdict verdict;
	char note[384];			/* why not comparable, too few samples, what differs */
};

struct mb_comparison {
	struct mb_cmp_opts opts;
	struct mb_cmp_group *base, *cur;
	size_t nr_base, nr_cur;
	struct mb_cmp_row *rows;
	size_t nr_rows;
	int counts[MB_CMP_VERDICTS];
	double geomean;			/* of the speed ratios (new/base, > 1 is faster); NaN if none */
	int geomean_n;
};

/*
 * Fill @o's ignore list from the --ignore uses in @l (each NAME[,NAME]), split into copies in
 * @bufs (MB_CLI_LIST_MAX of them, NULL at first, freed by the caller after the comparison).
 * Returns 0, -ENOMEM, or -E2BIG for more than MB_CMP_MAX_IGNORE names.
 */
int mb_cmp_opts_ignore(struct mb_cmp_opts *o, const struct mb_cli_list *l, char **bufs);

/* Compare two result documents (as mb_doc_parse checks them). Returns 0 or -ENOMEM. */
int mb_compare(const struct mb_json *base, const struct mb_json *cur,
	       const struct mb_cmp_opts *opts, struct mb_comparison *c);
void mb_comparison_free(struct mb_comparison *c);

/* Whether a result regressed (for --fail-on-regression). */
static inline bool mb_comparison_regressed(const struct mb_comparison *c)
{
	return c->counts[MB_CMP_REGRESSED] > 0;
}

/* The comparison document (docs/output.md, "Comparison"); @context is taken over. */
struct mb_json *mb_comparison_json(const struct mb_comparison *c, struct mb_json *context,
				   const char *base_name, const struct mb_json *base_doc,
				   const char *cur_name, const struct mb_json *cur_doc);

/*
 * Print the comparison: a header (what is compared, how), the table, the geometric mean, the
 * unmatched results and notes. CSV is the table alone. Returns 0 or -EIO.
 */
int mb_comparison_print(FILE *f, const struct mb_comparison *c, enum mb_format format,
			const char *base_name, const struct mb_json *base_doc,
			const char *cur_name, const struct mb_json *cur_doc);

#endif
