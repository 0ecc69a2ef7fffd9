/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The sinks of a plain run's end: the one-table summary of several runs (text), and the
 * document in env->format to -o (atomically) or stdout, which later sinks (the baseline
 * comparison) read from the end event.
 */
#ifndef MB_DOC_SINK_H
#define MB_DOC_SINK_H

#include <stdbool.h>

#include "core/env.h"
#include "core/sink.h"

/* The table on the progress stream, when @show. */
void mb_table_sink_init(struct mb_sink *sink, bool *show);
/* The document of the runs that ran, written as @env says. */
void mb_doc_sink_init(struct mb_sink *sink, const struct mb_env *env);

#endif
