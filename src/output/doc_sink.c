// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "doc_sink.h"
#include "report.h"
#include "util/log.h"

static void table_end(struct mb_sink *sink, struct mb_sink_end *e)
{
	if (*(bool *)sink->priv)
		mb_report_table(mb_progress_stream(), e->runs, e->ran);
}

void mb_table_sink_init(struct mb_sink *sink, bool *show)
{
	*sink = (struct mb_sink){ .end = table_end, .priv = show };
}

static void doc_end(struct mb_sink *sink, struct mb_sink_end *e)
{
	const struct mb_env *env = sink->priv;

	e->doc = mb_report_document(env, e->runs, e->ran);
	if (mb_report_write_doc(env, e->doc, e->runs, e->ran) && e->status == MB_EXIT_OK)
		e->status = MB_EXIT_FAIL;
}

void mb_doc_sink_init(struct mb_sink *sink, const struct mb_env *env)
{
	*sink = (struct mb_sink){ .end = doc_end, .priv = (void *)env };
}
