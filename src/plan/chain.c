// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <stddef.h>

#include "chain.h"
#include "output/live_text.h"
#include "output/report.h"
#include "output/result_sink.h"
#include "util/json.h"
#include "util/log.h"

/* The table of results, on the terminal: a text document to -o has its own; -q: none. */
static void table_end(struct mb_sink *sink, struct mb_sink_end *e)
{
	const struct mb_chain *c = sink->priv;
	const struct mb_env *env = c->env;
	bool several = e->ran > 1 || (e->ran == 1 && e->runs[0].nr_parts > 1);

	if ((several || c->table_when == MB_CHAIN_TABLE_ALWAYS) &&
	    env->format == MB_FORMAT_TEXT && !env->output && !env->quiet)
		mb_report_table(mb_progress_stream(), e->runs, e->ran);
}

static void document_end(struct mb_sink *sink, struct mb_sink_end *e)
{
	const struct mb_chain *c = sink->priv;

	if (c->doc.write(c->doc.priv, e->doc, e->runs, e->ran) && e->status == MB_EXIT_OK)
		e->status = MB_EXIT_FAIL;
}

/* The runs' own document, in env's format (text: already printed as the runs went). */
static struct mb_json *runs_doc_make(void *priv, struct mb_run *runs, int ran)
{
	return mb_report_document(priv, runs, ran);
}

static int runs_doc_write(void *priv, struct mb_json *doc, struct mb_run *runs, int ran)
{
	return mb_report_write_doc(priv, doc, runs, ran);
}

void mb_chain_build(struct mb_chain *c, const struct mb_chain_want *want,
		    const struct mb_env *env, const struct mb_json *base)
{
	/*
	 * The one order of every chain: what shows a run as it goes (a RESULT line right under
	 * its Summary), then what the end writes: the table, the document, the comparison with
	 * the baseline (all on the progress stream or stdout, in this order).
	 */
	struct mb_sink *const order[] = {
		want->live_text ? &c->live : NULL,
		want->result_lines ? &c->result : NULL,
		want->store ? &c->store.sink : NULL,
		want->progress,
		want->table != MB_CHAIN_NO_TABLE ? &c->table : NULL,
		&c->document,
		want->baseline ? &c->baseline.sink : NULL,
	};

	*c = (struct mb_chain){ .table_when = want->table, .env = env };
	c->doc = want->doc ? *want->doc : (struct mb_chain_doc){
		.make = runs_doc_make, .write = runs_doc_write, .priv = (void *)env,
	};
	mb_live_text_sink_init(&c->live);
	mb_result_sink_init(&c->result);
	c->table = (struct mb_sink){ .end = table_end, .priv = c };
	c->document = (struct mb_sink){ .end = document_end, .priv = c };
	mb_baseline_sink_init(&c->baseline, env, base);
	mb_store_sink_init(&c->store, env, want->store);
	for (size_t i = 0; i < sizeof(order) / sizeof(*order); i++) {
		if (!order[i])
			continue;
		order[i]->next = NULL;
		mb_sink_chain(&c->head, order[i]);
	}
}

int mb_chain_end(struct mb_chain *c, struct mb_run *runs, int nr, int ran, int status)
{
	struct mb_sink_end e = { .runs = runs, .nr = nr, .ran = ran, .status = status };

	/* Made before any sink sees the end: the writer and the baseline sink both read it. */
	e.doc = c->doc.make(c->doc.priv, runs, ran);
	mb_sink_end(c->head, &e);
	mb_json_free(e.doc);
	return e.status;
}
