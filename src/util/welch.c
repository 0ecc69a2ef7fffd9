// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>

#include "welch.h"

#define CF_ITERS	300
#define CF_EPS		1e-15
#define CF_TINY		1e-300

/*
 * The continued fraction of I_x(a, b) (its terms d_1, d_2, ... alternate between the odd and
 * the even form), evaluated by the modified Lentz method.
 */
static double beta_fraction(double x, double a, double b)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), f;

	d = 1 / (fabs(d) < CF_TINY ? CF_TINY : d);
	f = d;
	for (int m = 1; m <= CF_ITERS; m++) {
		for (int odd = 0; odd < 2; odd++) {
			double k = odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)) :
					 m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
			double step;

			d = 1 + k * d;
			c = 1 + k / c;
			d = 1 / (fabs(d) < CF_TINY ? CF_TINY : d);
			if (fabs(c) < CF_TINY)
				c = CF_TINY;
			step = c * d;
			f *= step;
			if (odd && fabs(step - 1) < CF_EPS)
				return f;
		}
	}
	return f;
}

double mb_incomplete_beta(double x, double a, double b)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* The fraction converges fast below (a + 1) / (a + b + 2); above, by symmetry. */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(x, a, b) / a;
	return 1 - front * beta_fraction(1 - x, b, a) / b;
}

static void mean_var(const double *v, size_t n, double *mean, double *var)
{
	double s = 0, q = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*var = q / (double)(n - 1);
}

int mb_welch_test(const double *x, size_t m, const double *y, size_t n, struct mb_welch *r)
{
	double mx, vx, my, vy, ex, ey, se2;

	if (m < 2 || n < 2)
		return -EINVAL;
	mean_var(x, m, &mx, &vx);
	mean_var(y, n, &my, &vy);
	ex = vx / (double)m;
	ey = vy / (double)n;
	se2 = ex + ey;
	if (!(se2 > 0)) {
		r->t = my == mx ? 0 : copysign(INFINITY, my - mx);
		r->df = (double)(m + n - 2);
		r->p = my == mx ? 1 : 0;
		return 0;
	}
	r->t = (my - mx) / sqrt(se2);
	r->df = se2 * se2 / (ex * ex / (double)(m - 1) + ey * ey / (double)(n - 1));
	/* P(|T| > |t|) for Student's t with df degrees of freedom. */
	r->p = mb_incomplete_beta(r->df / (r->df + r->t * r->t), r->df / 2, 0.5);
	return 0;
}
