// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <stdio.h>

#include "core/bench.h"
#include "live_text.h"
#include "report.h"
#include "util/log.h"

static void text_run_begin(struct mb_sink *sink, const struct mb_run *run)
{
	(void)sink;
	if (!mb_log_quiet())
		fprintf(mb_progress_stream(), "Setting up benchmark '%s'...\n", run->bench->name);
}

static void text_run_started(struct mb_sink *sink, const struct mb_run *run)
{
	(void)sink;
	if (!mb_log_quiet())
		fprintf(mb_progress_stream(), "Benchmark '%s' started.\n", run->bench->name);
	fflush(mb_progress_stream());
}

static void text_sample(struct mb_sink *sink, const struct mb_run *run, int iter,
			const struct mb_sample *s)
{
	const struct mb_text_style *text = run->bench->text;

	(void)sink;
	if (text && text->progress) {
		text->progress(mb_progress_stream(), run, iter, s);
		fflush(mb_progress_stream());
	}
}

static void text_partial(struct mb_sink *sink, const struct mb_run *run, const void *what)
{
	const struct mb_text_style *text = run->bench->text;

	(void)sink;
	if (text && text->partial) {
		text->partial(mb_progress_stream(), run, what);
		fflush(mb_progress_stream());
	}
}

static void text_result(struct mb_sink *sink, const struct mb_run *result)
{
	const struct mb_text_style *text = result->bench->text;

	(void)sink;
	if (text && text->summary && result->summary)
		text->summary(mb_progress_stream(), result, result->summary);
}

static void text_run_end(struct mb_sink *sink, const struct mb_run *run)
{
	(void)sink;
	(void)run;
	fflush(mb_progress_stream());
}

void mb_live_text_sink_init(struct mb_sink *sink)
{
	*sink = (struct mb_sink){
		.run_begin = text_run_begin,
		.run_started = text_run_started,
		.sample = text_sample,
		.partial = text_partial,
		.result = text_result,
		.run_end = text_run_end,
	};
}
