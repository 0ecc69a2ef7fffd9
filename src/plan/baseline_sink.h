/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The sink of --baseline and --save-baseline: at the end of a session it compares the
 * document it is handed (struct mb_sink_end) with the baseline, printed on the progress
 * stream, and saves it as a baseline when every run succeeded.
 */
#ifndef MB_BASELINE_SINK_H
#define MB_BASELINE_SINK_H

#include "core/env.h"
#include "core/sink.h"

struct mb_json;

struct mb_baseline_sink {
	struct mb_sink sink;
	const struct mb_env *env;	/* --baseline, --save-baseline, how to compare */
	const struct mb_json *base;	/* --baseline's document, loaded; NULL: none */
};

/* Make @b the baseline sink of runs under @env, with --baseline's document @base. */
void mb_baseline_sink_init(struct mb_baseline_sink *b, const struct mb_env *env,
			   const struct mb_json *base);

#endif
