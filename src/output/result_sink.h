/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --machine-readable's sink: the kernel bench's RESULT line (result_line.h) on stdout for each
 * result that times in the kernel, as it comes; for any other result one line on stderr saying
 * why it has none, so a script that finds no line is told rather than left guessing.
 */
#ifndef MB_RESULT_SINK_H
#define MB_RESULT_SINK_H

#include "core/sink.h"

/* Make @sink the RESULT line sink (it holds nothing to free). */
void mb_result_sink_init(struct mb_sink *sink);

#endif
