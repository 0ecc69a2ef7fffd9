/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The live text sink: the kernel bench's lines as a run goes ("Setting up benchmark", each
 * sample's Iter line, the Summary), in each bench's own text style, on the progress stream
 * (log.h). Flushed after every line, so that whoever watches a pipe or a file sees each sample.
 */
#ifndef MB_LIVE_TEXT_H
#define MB_LIVE_TEXT_H

#include "core/sink.h"

/* Make @sink the live text sink (it holds nothing to free). */
void mb_live_text_sink_init(struct mb_sink *sink);

#endif
