// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The regression gate's arithmetic: compare's verdict and a robust band, both must agree. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "util/stats.h"

static const char *const gate_verdict_names[MB_GATE_VERDICTS] = {
	[MB_GATE_PASS] = "pass",
	[MB_GATE_REGRESSED] = "regressed",
	[MB_GATE_IMPROVED] = "improved",
	[MB_GATE_TOO_FEW] = "too few runs",
	[MB_GATE_NO_SAMPLES] = "no samples",
};

const char *mb_gate_verdict_name(enum mb_gate_verdict v)
{
	return v >= 0 && v < MB_GATE_VERDICTS ? gate_verdict_names[v] : "?";
}

void mb_gate_opts_default(struct mb_gate_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cmp.threshold = 0.02;
	o->cmp.alpha = 0.05;
	o->cmp.metric = MB_CMP_AUTO;
	o->k = MB_GATE_K;
	o->min_previous = MB_GATE_MIN_PREVIOUS;
}

/* The finite samples of @run appended to @out (which has room); how many. */
static size_t take_samples(const struct mb_gate_run *run, double *out)
{
	size_t n = 0;

	for (size_t i = 0; i < run->n; i++)
		if (isfinite(run->samples[i]))
			out[n++] = run->samples[i];
	return n;
}

static double mean_of(const double *v, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / (double)n : NAN;
}

/* The median of @n values, leaving them as they are. */
static double median_copy(const double *v, size_t n, double *scratch)
{
	memcpy(scratch, v, n * sizeof(*v));
	return mb_median(scratch, n);
}

/* Where the latest median lies against the band: r->center, mad, half_width, lo, hi, band. */
static void judge_band(const double *medians, int n, bool higher_is_better,
		       const struct mb_gate_opts *o, struct mb_gate_result *r, double *scratch)
{
	double worse, better;

	r->center = median_copy(medians, (size_t)n, scratch);
	for (int i = 0; i < n; i++)
		scratch[i] = fabs(medians[i] - r->center);
	r->mad = mb_median(scratch, (size_t)n);
	r->half_width = fmax(o->k * MB_GATE_MAD_SCALE * r->mad, o->cmp.threshold * fabs(r->center));
	r->lo = r->center - r->half_width;
	r->hi = r->center + r->half_width;
	worse = higher_is_better ? r->lo - r->latest_median : r->latest_median - r->hi;
	better = higher_is_better ? r->latest_median - r->hi : r->lo - r->latest_median;
	r->band = worse > 0 ? -1 : better > 0 ? 1 : 0;
}

/* The verdict from the two judges, and a note where they disagree. */
static void combine(struct mb_gate_result *r)
{
	bool cmp_worse = r->cmp == MB_CMP_REGRESSED, cmp_better = r->cmp == MB_CMP_IMPROVED;

	r->verdict = MB_GATE_PASS;
	if (cmp_worse && r->band < 0)
		r->verdict = MB_GATE_REGRESSED;
	else if (cmp_better && r->band > 0)
		r->verdict = MB_GATE_IMPROVED;
	else if (cmp_worse || cmp_better)
		snprintf(r->note, sizeof(r->note), "samples %s, but the median is inside the band",
			 mb_cmp_verdict_name(r->cmp));
	else if (r->band)
		snprintf(r->note, sizeof(r->note), "median outside the band (%s), but the samples: %s",
			 r->band < 0 ? "worse" : "better", mb_cmp_verdict_name(r->cmp));
}

int mb_gate_judge(const struct mb_gate_run *prev, int nprev, const struct mb_gate_run *latest,
		  bool higher_is_better, const struct mb_gate_opts *o, struct mb_gate_result *r)
{
	size_t total = latest->n, n;
	double *pool = NULL, *medians = NULL, *scratch = NULL, *cur;
	int ret = -ENOMEM;

	memset(r, 0, sizeof(*r));
	r->latest_median = r->latest_mean = r->previous_mean = r->change = NAN;
	r->center = r->mad = r->half_width = r->lo = r->hi = NAN;
	r->cmp = MB_CMP_NOT_COMPARABLE;
	r->test.p = NAN;
	for (int i = 0; i < nprev; i++)
		total += prev[i].n;
	pool = malloc((total + 1) * sizeof(*pool));
	scratch = malloc((total + 1) * sizeof(*scratch));
	medians = malloc(((size_t)nprev + 1) * sizeof(*medians));
	if (!pool || !scratch || !medians)
		goto out;
	/* The previous runs' samples first, pooled; the latest run's after them. */
	for (int i = 0; i < nprev; i++) {
		n = take_samples(&prev[i], pool + r->n_previous);
		if (!n)
			continue;
		medians[r->previous++] = median_copy(pool + r->n_previous, n, scratch);
		r->n_previous += n;
	}
	cur = pool + r->n_previous;
	r->n_latest = take_samples(latest, cur);
	ret = 0;
	if (!r->n_latest) {
		r->verdict = MB_GATE_NO_SAMPLES;
		goto out;
	}
	r->latest_median = median_copy(cur, r->n_latest, scratch);
	r->latest_mean = mean_of(cur, r->n_latest);
	if (r->previous < o->min_previous) {
		r->verdict = MB_GATE_TOO_FEW;
		goto out;
	}
	r->previous_mean = mean_of(pool, r->n_previous);
	r->change = (r->latest_mean - r->previous_mean) / r->previous_mean;
	if (r->previous_mean > 0 && r->latest_mean > 0)
		r->cmp = mb_cmp_decide(pool, r->n_previous, cur, r->n_latest, r->change,
				       higher_is_better, &o->cmp, &r->test);
	judge_band(medians, r->previous, higher_is_better, o, r, scratch);
	combine(r);
out:
	free(pool);
	free(scratch);
	free(medians);
	return ret;
}

size_t mb_gate_count(const struct mb_gate_row *rows, size_t n, enum mb_gate_verdict v)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i++)
		count += rows[i].r.verdict == v;
	return count;
}
