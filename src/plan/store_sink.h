/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The sink of --db (or MAPBENCH_DB): each result goes into the results history the moment it
 * is summarised, in its own transaction, so a run or a sweep killed half way keeps every
 * result that finished. The store is opened before the first run (mb_session_begin), so a bad
 * --db stops everything before it starts.
 */
#ifndef MB_STORE_SINK_H
#define MB_STORE_SINK_H

#include "core/env.h"
#include "core/sink.h"

struct mb_json;
struct mb_store;

struct mb_store_sink {
	struct mb_sink sink;
	const struct mb_env *env;
	struct mb_store *store;		/* opened by the session, which closes it */
	struct mb_json *context;	/* made at the first result (the preflight's is known) */
	int added, failed;
};

/* Make @s the sink that adds each result of runs under @env to @store. */
void mb_store_sink_init(struct mb_store_sink *s, const struct mb_env *env, struct mb_store *store);

/*
 * The history runs under @env add to: --db, else MAPBENCH_DB (empty: none). Opened in
 * *@store (NULL when there is none). Returns 0, or -errno after one line naming --db.
 */
int mb_store_sink_open(struct mb_env *env, struct mb_store **store);

#endif
