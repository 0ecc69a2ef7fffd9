// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The stacktrace family's lines: the kernel's hits/drops lines (hits: calls that returned a
 * stack id, drops: calls that failed with -EEXIST on a bucket another trace holds), after
 * what the run's extra says of the map, the ops read back and the map walked.
 */
#include <stdio.h>

#include "core/bench.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"
#include "stacktrace.h"

static void st_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *x = run->extra, *m = mb_json_get(x, "map");
	const struct mb_json *c = mb_json_get(x, "ops_checked"), *w = mb_json_get(x, "map_walk");

	if (mb_log_quiet() || !m)
		return;
	fprintf(f, "Map: stack_trace, %.0f ids (%.0f buckets), %.0f frames kept; %s stack, %.0f distinct traces, %s\n",
		mb_json_num(mb_json_get(m, "max_entries"), 0),
		mb_json_num(mb_json_get(m, "buckets"), 0), mb_json_num(mb_json_get(m, "depth"), 0),
		mb_json_str(mb_json_get(m, "stack"), "?"), mb_json_num(mb_json_get(m, "stacks"), 0),
		mb_json_truthy(mb_json_get(m, "reuse_stackid")) ? "BPF_F_REUSE_STACKID" :
		"no reuse (-EEXIST on a collision)");
	if (c)
		fprintf(f, "Ops read back: %.0f calls, %.0f ids returned, %.0f -EEXIST, %.0f -ENOMEM, %.0f errors\n",
			mb_json_num(mb_json_get(c, "ops"), 0),
			mb_json_num(mb_json_get(c, "ids_returned"), 0),
			mb_json_num(mb_json_get(c, "eexist"), 0),
			mb_json_num(mb_json_get(c, "enomem"), 0),
			mb_json_num(mb_json_get(c, "errors"), 0));
	if (w)
		fprintf(f, "Map walked: %.0f stack ids, %.1f frames each on average, %.0f at most\n",
			mb_json_num(mb_json_get(w, "stack_ids"), 0),
			mb_json_num(mb_json_get(w, "frames_mean"), 0),
			mb_json_num(mb_json_get(w, "frames_max"), 0));
}

MB_TEXT_WITH_NOTES(st_text, mb_text_hits_drops, st_notes);
