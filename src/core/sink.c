// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <stddef.h>

#include "sink.h"

void mb_sink_run_begin(struct mb_sink *sink, const struct mb_run *run)
{
	for (; sink; sink = sink->next)
		if (sink->run_begin)
			sink->run_begin(sink, run);
}

void mb_sink_run_started(struct mb_sink *sink, const struct mb_run *run)
{
	for (; sink; sink = sink->next)
		if (sink->run_started)
			sink->run_started(sink, run);
}

void mb_sink_sample(struct mb_sink *sink, const struct mb_run *run, int iter,
		    const struct mb_sample *s)
{
	for (; sink; sink = sink->next)
		if (sink->sample)
			sink->sample(sink, run, iter, s);
}

void mb_sink_partial(struct mb_sink *sink, const struct mb_run *run, const void *what)
{
	for (; sink; sink = sink->next)
		if (sink->partial)
			sink->partial(sink, run, what);
}

void mb_sink_result(struct mb_sink *sink, const struct mb_run *result)
{
	for (; sink; sink = sink->next)
		if (sink->result)
			sink->result(sink, result);
}

void mb_sink_run_end(struct mb_sink *sink, const struct mb_run *run)
{
	for (; sink; sink = sink->next)
		if (sink->run_end)
			sink->run_end(sink, run);
}

void mb_sink_end(struct mb_sink *sink, struct mb_sink_end *end)
{
	for (; sink; sink = sink->next)
		if (sink->end)
			sink->end(sink, end);
}

void mb_sink_chain(struct mb_sink **head, struct mb_sink *tail)
{
	while (*head)
		head = &(*head)->next;
	*head = tail;
}
