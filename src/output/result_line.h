/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The kernel bench's machine-readable line (bench_bpf_timing.c, --machine-readable), for the
 * results that time in the kernel, so that scripts written for the kernel's output read
 * mapbench's unchanged:
 *   RESULT scenario=NAME samples=N median=F stddev=F cv=F min=F p99=F max=F
 * every F with two decimals, ns/op except cv (a percentage of the mean). docs/output.md.
 */
#ifndef MB_RESULT_LINE_H
#define MB_RESULT_LINE_H

#include <stddef.h>
#include <stdio.h>

struct mb_run;

struct mb_result_line {
	size_t samples;		/* kept by the IQR filter (util/iqr.h) */
	double median, stddev, cv, min, p99, max;
};

/*
 * The line's figures over @n per-sample ns/op values (NaNs skipped), after the IQR filter.
 * Returns 0, or -EINVAL when no value is left, -ENOMEM.
 */
int mb_result_line_compute(const double *ns_per_op, size_t n, struct mb_result_line *rl);

/* The line, without a newline, into @buf. Returns what snprintf returns. */
int mb_result_line_format(char *buf, size_t len, const char *scenario,
			  const struct mb_result_line *rl);

/*
 * The scenario's name: the bench's, then "/NAME=VALUE" for the part of a split run, each bench
 * option given (on the command line or by a sweep point) and the run-shaping global options
 * not at their default; no whitespace. Returns @buf.
 */
const char *mb_result_line_scenario(const struct mb_run *run, char *buf, size_t len);

/*
 * Why @result gets no line (it does not time in the kernel, it has no in-kernel sample), or
 * NULL when it gets one.
 */
const char *mb_result_line_why_not(const struct mb_run *result);

/* @result's line and a newline on @f. Returns 0, or -errno where it has none. */
int mb_result_line_print(FILE *f, const struct mb_run *result);

#endif
