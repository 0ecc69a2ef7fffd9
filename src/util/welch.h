/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Welch's t-test: do two sets of samples have the same mean, their variances unequal? Where
 * few samples are tightly grouped, it resolves what a rank test cannot (3 and 3 samples give
 * a Mann-Whitney p of 0.1 at best), at the price of assuming roughly normal samples.
 */
#ifndef MB_WELCH_H
#define MB_WELCH_H

#include <stddef.h>

struct mb_welch {
	double t;	/* (mean(y) - mean(x)) / standard error of the difference */
	double df;	/* Welch-Satterthwaite degrees of freedom */
	double p;	/* two-sided p-value */
};

/*
 * Two-sided test of @x (m values) against @y (n values), NaNs removed beforehand. Returns 0, or
 * -EINVAL when a side has fewer than 2 values. Two sets without any spread: p is 1 when their
 * means are equal, else 0.
 */
int mb_welch_test(const double *x, size_t m, const double *y, size_t n, struct mb_welch *r);

/* The regularized incomplete beta function I_x(a, b), for 0 <= x <= 1, a, b > 0. */
double mb_incomplete_beta(double x, double a, double b);

#endif
