/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The regression gate's arithmetic (mapbench gate, issue 34), on arrays: the latest run of a
 * series (one bench, parameter set, machine class and kernel) against the runs before it.
 * Two judges, and a regression only when both say so:
 *   - compare's verdict (mb_cmp_decide): the latest run's samples against the previous runs'
 *     samples pooled, the Mann-Whitney U test plus the minimum-change threshold of the mean;
 *   - a robust band across runs: the median of the previous runs' medians +- k scaled MADs
 *     (1.4826 * MAD, the normal-consistent scale), never narrower than the threshold times that
 *     median, against the latest run's median.
 * Pooled samples make the U test sharp but blind to the spread between runs (a level shift of
 * a few % between runs is significant); the band knows that spread but not the samples. One
 * noisy run whose median held stays inside the band; a real shift leaves it and is significant.
 */
#ifndef MB_GATE_H
#define MB_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare.h"
#include "series.h"

#define MB_GATE_K		3.0	/* the band's half-width in scaled MADs */
#define MB_GATE_MAD_SCALE	1.4826	/* MAD * this estimates the standard deviation */
#define MB_GATE_MIN_PREVIOUS	3	/* fewer previous runs: too few to judge */
#define MB_GATE_WINDOW		10	/* previous runs compared with, by default */

enum mb_gate_verdict {
	MB_GATE_PASS,		/* neither judge, or only one, says it changed */
	MB_GATE_REGRESSED,	/* both judges: worse */
	MB_GATE_IMPROVED,	/* both judges: better */
	MB_GATE_TOO_FEW,	/* fewer than min_previous runs before the latest */
	MB_GATE_NO_SAMPLES,	/* the latest run has no measured sample */
	MB_GATE_VERDICTS,
};

struct mb_gate_opts {
	struct mb_cmp_opts cmp;	/* threshold (a fraction) and alpha, as compare's */
	double k;		/* the band's half-width in scaled MADs */
	int min_previous;
};

/* One run of a series: its measured samples of the headline figure. */
struct mb_gate_run {
	const double *samples;
	size_t n;
};

struct mb_gate_result {
	enum mb_gate_verdict verdict;
	int previous;			/* previous runs with samples, judged against */
	size_t n_latest, n_previous;	/* samples on each side */
	double latest_median, latest_mean, previous_mean;
	double change;			/* of the mean, latest against the pooled previous */
	enum mb_cmp_verdict cmp;	/* compare's verdict on the samples */
	struct mb_cmp_test test;
	double center;			/* median of the previous runs' medians */
	double mad;			/* their median absolute deviation (unscaled) */
	double half_width;		/* max(k * 1.4826 * mad, threshold * |center|) */
	double lo, hi;			/* the band */
	int band;			/* the latest median: -1 outside on the worse side, +1 on
					 * the better side, 0 inside */
	char note[160];			/* why it passes although a judge disagrees */
};

/* The defaults: compare's threshold (2 %) and alpha (0.05), k = 3, at least 3 previous runs. */
void mb_gate_opts_default(struct mb_gate_opts *o);

/*
 * Judge @latest against @prev (@nprev runs, oldest first; the caller picks the window), in the
 * direction @higher_is_better. Runs without a finite sample are left out. Returns 0 or -ENOMEM.
 */
int mb_gate_judge(const struct mb_gate_run *prev, int nprev, const struct mb_gate_run *latest,
		  bool higher_is_better, const struct mb_gate_opts *o, struct mb_gate_result *r);

/* "pass", "regressed", "improved", "too few runs", "no samples". */
const char *mb_gate_verdict_name(enum mb_gate_verdict v);

/* One row of the gate's table: a series and its result. */
struct mb_gate_row {
	const char *bench, *params, *kernel, *machine_class, *time, *unit;
	char label[256];	/* the parameters that tell it from the bench's other series,
				 * and "machine N" where the bench ran on several classes */
	int machine;		/* the number of machine_class (mb_series_number_machines) */
	bool machine_shown;	/* the label names it */
	bool higher_is_better;
	struct mb_gate_result r;
};

/*
 * The gate's table (text aligned, or Markdown with a heading and a line of totals, for a CI
 * comment): one line per series. Returns 0 or a negative errno.
 */
int mb_gate_print(FILE *f, const struct mb_gate_row *rows, size_t n, enum mb_format format,
		  const struct mb_gate_opts *o, int window);

/*
 * The gate over the series of @set (split by kernel): the latest run of each bench, parameter
 * set and machine class against the @window runs before it on the same kernel (a series of an
 * older kernel is left out). @rows (malloc'd, in @set's order) point into @set.
 * Returns 0 or -ENOMEM.
 */
int mb_gate_series(const struct mb_series_set *set, const struct mb_gate_opts *o, int window,
		   struct mb_gate_row **rows, size_t *n);

/* How many rows have verdict @v. */
size_t mb_gate_count(const struct mb_gate_row *rows, size_t n, enum mb_gate_verdict v);

#endif
