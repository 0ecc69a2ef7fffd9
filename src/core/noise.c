// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "noise.h"
#include "util/stats.h"

const char *const mb_noise_cause_names[MB_CAUSES] = {
	[MB_CAUSE_NONE] = NULL,
	[MB_CAUSE_PREEMPTED] = "preempted",
	[MB_CAUSE_HOST] = "host",
	[MB_CAUSE_UNEXPLAINED] = "unexplained",
};

bool mb_noise_is_outlier(double x, const struct mb_stats *st, int n)
{
	return n >= MB_OUTLIER_MIN_SAMPLES &&
	       mb_is_outlier(x, st, MB_OUTLIER_MADS, MB_OUTLIER_MIN);
}

/* (max - min) / median of @st; NaN when undefined. */
static double varied(const struct mb_stats *st)
{
	return st->n && st->median != 0 ? (st->max - st->min) / fabs(st->median) : NAN;
}

/* -1: the sample's op ran slower than the run's median, +1 faster, 0 in line. */
static int figure_direction(const struct mb_noise_series *in, double x, double median)
{
	int sign = x > median ? 1 : x < median ? -1 : 0;

	return in->time_per_op ? -sign : sign;
}

/* Which way the reference moved beyond MB_REF_MOVED: -1 slower, +1 faster, 0 neither. */
static int reference_direction(double ref, double ref_median)
{
	if (isnan(ref) || !(ref_median > 0) || fabs(ref / ref_median - 1) <= MB_REF_MOVED)
		return 0;
	return ref > ref_median ? -1 : 1;
}

static enum mb_noise_cause cause_of(const struct mb_noise_series *in, int i,
				    const struct mb_noise *out)
{
	int ref_dir = reference_direction(in->reference[i], out->ref_median);

	if (in->preempt[i] > MB_PREEMPT_RATIO)
		return MB_CAUSE_PREEMPTED;
	if (ref_dir && ref_dir == figure_direction(in, in->figure[i], out->median))
		return MB_CAUSE_HOST;
	return MB_CAUSE_UNEXPLAINED;
}

/* Each sample's flags and cause, and the counts of both. */
static void flag_samples(const struct mb_noise_series *in, const struct mb_stats *fig,
			 unsigned int *flags, enum mb_noise_cause *cause, struct mb_noise *out)
{
	for (int i = 0; i < in->n; i++) {
		bool lost_cpu = in->preempt[i] > MB_PREEMPT_RATIO;

		flags[i] = 0;
		if (mb_noise_is_outlier(in->figure[i], fig, in->n))
			flags[i] |= MB_SAMPLE_OUTLIER;
		/* A wall-clock rate falls with the CPU share its producers lost. */
		if (in->wall_figure && lost_cpu)
			flags[i] |= MB_SAMPLE_PREEMPTED;
		cause[i] = flags[i] ? cause_of(in, i, out) : MB_CAUSE_NONE;
		out->nr_outlier += !!(flags[i] & MB_SAMPLE_OUTLIER);
		out->nr_preempted += !!(flags[i] & MB_SAMPLE_PREEMPTED);
		out->nr_flagged += !!flags[i];
		out->nr_cause[cause[i]]++;
		out->nr_lost_cpu += lost_cpu;
		out->nr_ref_moved += reference_direction(in->reference[i], out->ref_median) != 0;
	}
}

/*
 * How far the flagged samples move the mean: the mean of the others against the mean of all,
 * held against the others' standard error (MB_NOISY_SES of it) with a floor of MB_NOISY_SHIFT.
 */
static void judge_shift(const struct mb_noise_series *in, const unsigned int *flags,
			double *scratch, const struct mb_stats *fig, struct mb_noise *out)
{
	struct mb_stats clean;
	int m = 0, err;

	out->mean_shift = 0;
	out->shift_bound = MB_NOISY_SHIFT;
	if (!out->nr_flagged)
		return;
	for (int i = 0; i < in->n; i++)
		if (!flags[i])
			scratch[m++] = in->figure[i];
	if (fig->mean == 0)
		return;
	err = mb_stats_compute(scratch, (size_t)m, &clean);
	if (err) {
		/* No sample left to measure the mean by: every one was flagged. */
		out->mean_shift = NAN;
		if (err == -EINVAL)
			out->noisy |= MB_NOISY_BY_ALL;
		return;
	}
	out->mean_shift = (clean.mean - fig->mean) / fabs(fig->mean);
	if (clean.n > 1)
		out->shift_bound = fmax(MB_NOISY_SES * clean.stddev / sqrt((double)clean.n) /
					fabs(fig->mean), MB_NOISY_SHIFT);
	if (fabs(out->mean_shift) > out->shift_bound)
		out->noisy |= MB_NOISY_BY_SHIFT;
}

int mb_noise_judge(const struct mb_noise_series *in, unsigned int *flags,
		   enum mb_noise_cause *cause, struct mb_noise *out)
{
	size_t n = (size_t)(in->n > 0 ? in->n : 0);
	double *scratch = calloc(n ? n : 1, sizeof(*scratch));
	struct mb_stats fig, ref;

	memset(out, 0, sizeof(*out));
	out->median = out->cv = out->varied = NAN;
	out->ref_median = out->ref_varied = out->mean_shift = NAN;
	out->shift_bound = MB_NOISY_SHIFT;
	if (!scratch)
		return -ENOMEM;
	if (!mb_stats_compute(in->reference, n, &ref)) {
		out->ref_median = ref.median;
		out->ref_varied = varied(&ref);
	}
	if (mb_stats_compute(in->figure, n, &fig)) {
		memset(&fig, 0, sizeof(fig));
		fig.median = NAN;
	} else {
		out->median = fig.median;
		out->cv = fig.cv;
		out->varied = varied(&fig);
	}
	flag_samples(in, &fig, flags, cause, out);
	if (fig.n)
		judge_shift(in, flags, scratch, &fig, out);
	if (out->cv > MB_NOISY_CV)
		out->noisy |= MB_NOISY_BY_SPREAD;
	free(scratch);
	return 0;
}
