// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>

#include "core/bench.h"
#include "result_line.h"
#include "result_sink.h"
#include "util/log.h"

static void result_line(struct mb_sink *sink, const struct mb_run *result)
{
	const char *why = mb_result_line_why_not(result);
	char name[512];
	int err;

	(void)sink;
	/* stdout whatever the progress stream is: the lines are what a script reads there. */
	if (!why) {
		err = mb_result_line_print(stdout, result);
		if (err)
			why = err == -ENOMEM ? "out of memory" :
					       "no sample timed its ops in the kernel";
	}
	if (why)
		mb_err("%s: no RESULT line: %s", mb_result_line_scenario(result, name, sizeof(name)),
		       why);
}

void mb_result_sink_init(struct mb_sink *sink)
{
	*sink = (struct mb_sink){ .result = result_line };
}
