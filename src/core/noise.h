/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Noise verdicts (docs/methodology.md, "Noise"): which samples a disturbance moved, what the
 * evidence says moved them, and whether that matters for the run's mean. Pure arithmetic on
 * per-sample series, so that every rule can be tested on synthetic samples.
 *
 * A sample is flagged only for its own figure: the reference loop and the CPU clock explain a
 * flag, they never raise one on a sample whose figure is in line.
 */
#ifndef MB_NOISE_H
#define MB_NOISE_H

#include <stdbool.h>

struct mb_stats;

/*
 * A sample whose figure is this many scaled MADs (1.4826 x MAD) from the run's median, and
 * also this far from it, is an outlier, judged from MB_OUTLIER_MIN_SAMPLES samples on: below
 * five, the MAD is the smallest of a few deviations and flags ordinary samples. On normal
 * samples with a CV of 1 % the rule flags about 0.3 % of samples at any count
 * (tests/unit/test_stats.c), and a sample 10 % off nineteen times in twenty from five on.
 */
#define MB_OUTLIER_MADS		3.0
#define MB_OUTLIER_MIN		0.03
#define MB_OUTLIER_MIN_SAMPLES	5

/* (wall - waits) / CPU time above this: the producers lost more than 9 % of their CPU. */
#define MB_PREEMPT_RATIO	1.10
/* A sample's reference ns/op this far from the run's: the host's speed moved. */
#define MB_REF_MOVED		0.05
/*
 * A result is noisy when its flagged samples move its mean by more than its uncertainty: the
 * larger of MB_NOISY_SES standard errors of the mean of the other samples and MB_NOISY_SHIFT
 * (half of compare's default threshold: a smaller shift cannot turn a comparison) ...
 */
#define MB_NOISY_SES		2.0
#define MB_NOISY_SHIFT		0.01
/*
 * ... or when the CV of its figure is above MB_NOISY_CV: then the mean of the 3 to 5 samples
 * of a default run is uncertain by more than the 2 % that compare calls a change.
 */
#define MB_NOISY_CV		0.05
/* The reference's range over the run above this: the text says so (information only). */
#define MB_HOST_VARIED		0.10

/* What moved a flagged sample, by the evidence the run has. */
enum mb_noise_cause {
	MB_CAUSE_NONE,		/* not flagged */
	MB_CAUSE_PREEMPTED,	/* its producers lost their CPU (the CPU-clock check) */
	MB_CAUSE_HOST,		/* the reference loop moved the same way: the host's speed */
	MB_CAUSE_UNEXPLAINED,
	MB_CAUSES,
};

extern const char *const mb_noise_cause_names[MB_CAUSES];

/* Sample flags: why a sample's figure is not the run's. */
#define MB_SAMPLE_OUTLIER	(1u << 0)	/* its figure is off the run's centre */
#define MB_SAMPLE_PREEMPTED	(1u << 1)	/* a wall-clock figure whose producers lost
						 * their CPU: the loss is in the figure */

/* Why a result is noisy (struct mb_noise.noisy). */
#define MB_NOISY_BY_SHIFT	(1u << 0)	/* flagged samples move the mean */
#define MB_NOISY_BY_SPREAD	(1u << 1)	/* the CV is above MB_NOISY_CV */
#define MB_NOISY_BY_ALL		(1u << 2)	/* every sample is flagged */

/* The per-sample series a verdict is made of (NaN: not measured in that sample). */
struct mb_noise_series {
	int n;
	const double *figure;	/* what the run reports: in-kernel ns/op, or a rate */
	bool time_per_op;	/* the figure grows when the op slows (ns/op), else a rate */
	bool wall_figure;	/* the figure is a wall-clock rate: lost CPU time is in it */
	const double *preempt;	/* preemption ratio, see MB_PREEMPT_RATIO */
	const double *reference;	/* the reference loop's ns/op */
};

struct mb_noise {
	int nr_flagged;
	int nr_outlier;
	int nr_preempted;		/* flagged MB_SAMPLE_PREEMPTED */
	int nr_cause[MB_CAUSES];	/* the flagged samples by cause */
	int nr_lost_cpu;		/* samples whose producers lost their CPU, flagged or not */
	int nr_ref_moved;		/* samples whose reference moved more than MB_REF_MOVED */
	double median;			/* the figure's median */
	double cv;			/* the figure's CV over all samples (NaN: fewer than 2) */
	double varied;			/* the figure's (max - min) / median */
	double ref_median;		/* the reference's median over the samples (NaN: none) */
	double ref_varied;		/* its (max - min) / median */
	double mean_shift;		/* (mean without the flagged - mean) / mean; NaN: none left */
	double shift_bound;		/* the uncertainty the shift is held against */
	unsigned int noisy;		/* MB_NOISY_BY_*, 0: not noisy */
};

/*
 * Judge @in: each sample's flags into @flags[i] and cause into @cause[i], the run's verdict
 * into @out. Returns 0, or -ENOMEM.
 */
int mb_noise_judge(const struct mb_noise_series *in, unsigned int *flags,
		   enum mb_noise_cause *cause, struct mb_noise *out);

/* Whether figure @x of one of @n samples whose statistics are @st is an outlier. */
bool mb_noise_is_outlier(double x, const struct mb_stats *st, int n);

#endif
