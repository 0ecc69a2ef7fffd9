// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>

#include "baseline_sink.h"
#include "output/baseline.h"
#include "output/compare.h"
#include "util/json.h"
#include "util/log.h"

static int compare_baseline(const struct mb_baseline_sink *b, const struct mb_json *doc,
			    int status)
{
	const struct mb_env *env = b->env;
	struct mb_cmp_opts opts = {
		.threshold = env->threshold / 100,
		.alpha = env->alpha,
		.metric = MB_CMP_AUTO,
	};
	char *bufs[MB_CLI_LIST_MAX] = { NULL }, base[128];
	struct mb_comparison c = { 0 };
	FILE *f = mb_progress_stream();

	/* The names were counted before the runs (mb_session_check_options). */
	if (mb_cmp_opts_ignore(&opts, &env->ignore, bufs) ||
	    mb_compare(b->base, doc, &opts, &c)) {
		mb_comparison_free(&c);
		for (int i = 0; i < MB_CLI_LIST_MAX; i++)
			free(bufs[i]);
		mb_err("--baseline %s: out of memory", env->baseline);
		return MB_EXIT_FAIL;
	}
	snprintf(base, sizeof(base), "baseline %s", env->baseline);
	fprintf(f, "\n");
	mb_comparison_print(f, &c, MB_FORMAT_TEXT, base, b->base, "this run", doc);
	fflush(f);
	if (env->fail_on_regression && mb_comparison_regressed(&c) && status == MB_EXIT_OK) {
		mb_err("--fail-on-regression: %d result%s regressed against baseline %s",
		       c.counts[MB_CMP_REGRESSED], c.counts[MB_CMP_REGRESSED] > 1 ? "s" : "",
		       env->baseline);
		status = MB_EXIT_FAIL;
	}
	mb_comparison_free(&c);
	for (int i = 0; i < MB_CLI_LIST_MAX; i++)
		free(bufs[i]);
	return status;
}

static int baseline_status(const struct mb_baseline_sink *b, const struct mb_json *doc,
			   int status)
{
	const struct mb_env *env = b->env;
	char path[4096], err[1024];

	if (b->base && doc && status != MB_EXIT_INTERRUPTED)
		status = compare_baseline(b, doc, status);
	if (!env->save_baseline || !doc)
		return status;
	if (status != MB_EXIT_OK) {
		mb_warn("--save-baseline %s: not saved: the runs did not all succeed",
			env->save_baseline);
		return status;
	}
	if (mb_baseline_save(env->save_baseline, doc, path, sizeof(path), err, sizeof(err))) {
		mb_err("--save-baseline %s: %s", env->save_baseline, err);
		return MB_EXIT_FAIL;
	}
	if (!mb_log_quiet())
		fprintf(mb_progress_stream(), "Saved baseline '%s' (%s)\n", env->save_baseline,
			path);
	return status;
}

/* @e->doc is the document the chain made before the end event (chain.c). */
static void baseline_end(struct mb_sink *sink, struct mb_sink_end *e)
{
	e->status = baseline_status(sink->priv, e->doc, e->status);
}

void mb_baseline_sink_init(struct mb_baseline_sink *b, const struct mb_env *env,
			   const struct mb_json *base)
{
	*b = (struct mb_baseline_sink){
		.sink = { .end = baseline_end, .priv = b },
		.env = env,
		.base = base,
	};
}
