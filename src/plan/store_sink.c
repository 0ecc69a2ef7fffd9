// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>

#include "output/report.h"
#include "store/store.h"
#include "store_sink.h"
#include "util/json.h"
#include "util/log.h"

int mb_store_sink_open(struct mb_env *env, struct mb_store **store)
{
	const char *from_env = getenv("MAPBENCH_DB");
	char err[1024];
	int ret;

	*store = NULL;
	if (!env->db && from_env && *from_env)
		env->db = from_env;
	if (!env->db)
		return 0;
	ret = mb_store_open(env->db, store, err, sizeof(err));
	if (ret)
		mb_err("--db %s: %s", env->db, err);
	return ret;
}

static void store_result(struct mb_sink *sink, const struct mb_run *run)
{
	struct mb_store_sink *s = sink->priv;
	struct mb_json *result;
	char err[1024];
	int ret;

	if (!s->context)
		s->context = mb_report_context(s->env);
	result = mb_report_result(run);
	if (!s->context || !result) {
		mb_warn("--db %s: %s: not kept: out of memory", s->env->db, run->bench->name);
		s->failed++;
	} else if (mb_store_result_kept(result)) {
		ret = mb_store_add(s->store, s->context, result, err, sizeof(err));
		if (ret < 0) {
			mb_warn("--db %s: %s: not kept: %s", s->env->db, run->bench->name, err);
			s->failed++;
		} else {
			s->added += ret;
		}
	}
	mb_json_free(result);
}

/* A result the history could not take fails the session, as an unwritten document does. */
static void store_end(struct mb_sink *sink, struct mb_sink_end *e)
{
	struct mb_store_sink *s = sink->priv;

	if (s->failed && e->status == MB_EXIT_OK) {
		mb_err("--db %s: %d result%s not kept", s->env->db, s->failed,
		       s->failed > 1 ? "s" : "");
		e->status = MB_EXIT_FAIL;
	}
	mb_json_free(s->context);
	s->context = NULL;
}

void mb_store_sink_init(struct mb_store_sink *s, const struct mb_env *env, struct mb_store *store)
{
	*s = (struct mb_store_sink){
		.sink = { .result = store_result, .end = store_end, .priv = s },
		.env = env,
		.store = store,
	};
}
