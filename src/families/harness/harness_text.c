// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The harness family's text lines: the stock reporters, taken here so that the benches'
 * files include no output code.
 */
#include <stdio.h>

#include "core/bench.h"
#include "harness.h"
#include "output/report.h"

/* A style of this family that writes what the stock style @_stock writes. */
#define HARNESS_STYLE(_name, _stock)							\
static void _name##_progress(FILE *f, const struct mb_run *run, int iter,		\
			     const struct mb_sample *s)					\
{											\
	_stock.progress(f, run, iter, s);						\
}											\
static void _name##_summary(FILE *f, const struct mb_run *run,				\
			    const struct mb_summary *sum)				\
{											\
	_stock.summary(f, run, sum);							\
}											\
static void _name##_figures(const struct mb_run *run, const struct mb_summary *sum,	\
			    struct mb_json *figs)					\
{											\
	_stock.figures(run, sum, figs);							\
}											\
const struct mb_text_style _name = {							\
	.progress = _name##_progress,							\
	.summary = _name##_summary,							\
	.figures = _name##_figures,							\
}

HARNESS_STYLE(harness_text_hits, mb_text_hits_drops);
HARNESS_STYLE(harness_text_ops, mb_text_ops);
