// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The tailcall family's text lines: the stock ops lines, taken here so tailcall.c has none. */
#include <stdio.h>

#include "core/bench.h"
#include "output/report.h"
#include "tailcall.h"

static void tc_progress(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s)
{
	mb_text_ops.progress(f, run, iter, s);
}

static void tc_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	mb_text_ops.summary(f, run, sum);
}

static void tc_figures(const struct mb_run *run, const struct mb_summary *sum,
		       struct mb_json *figs)
{
	mb_text_ops.figures(run, sum, figs);
}

const struct mb_text_style tailcall_text_ops = {
	.progress = tc_progress,
	.summary = tc_summary,
	.figures = tc_figures,
};
