// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The queue family's lines: the kernel's hits/drops lines (hits: ops that succeeded, drops:
 * ops that failed the expected way on a full or empty map), after what the run's extra says
 * of the map, the round trip and the ops read back.
 */
#include <stdio.h>

#include "core/bench.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"
#include "queue.h"

static void qu_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *x = run->extra, *m = mb_json_get(x, "map");
	const struct mb_json *rt = mb_json_get(x, "round_trip"), *c = mb_json_get(x, "ops_checked");
	const struct mb_json *l = mb_json_get(x, "left");

	if (mb_log_quiet() || !m)
		return;
	fprintf(f, "Map: %s (%s), %.0f entries of %.0f bytes at most, level %.0f; op: %s; %.0f resets\n",
		mb_json_str(mb_json_get(m, "type"), "?"), mb_json_str(mb_json_get(x, "order"), "?"),
		mb_json_num(mb_json_get(m, "max_entries"), 0),
		mb_json_num(mb_json_get(m, "value_size"), 0),
		mb_json_num(mb_json_get(m, "level"), 0), mb_json_str(mb_json_get(x, "op"), "?"),
		mb_json_num(mb_json_get(x, "resets"), 0));
	if (rt)
		fprintf(f, "Round trip: %.0f values %s: %s\n",
			mb_json_num(mb_json_get(rt, "values_checked"), 0),
			mb_json_str(mb_json_get(rt, "how"), "?"),
			mb_json_truthy(mb_json_get(rt, "equal")) ? "in order" : "NOT IN ORDER");
	if (c)
		fprintf(f, "Ops read back: %.0f ops, %.0f succeeded, %.0f failed with %s, %.0f errors, %.0f mismatches\n",
			mb_json_num(mb_json_get(c, "ops"), 0),
			mb_json_num(mb_json_get(c, "succeeded"), 0),
			mb_json_num(mb_json_get(c, "failed_as_expected"), 0),
			mb_json_str(mb_json_get(c, "expected_failure"), "?"),
			mb_json_num(mb_json_get(c, "errors"), 0),
			mb_json_num(mb_json_get(c, "mismatches"), 0));
	if (l)
		fprintf(f, "Left in the map: %.0f entries, popped %s\n",
			mb_json_num(mb_json_get(l, "entries"), 0),
			mb_json_truthy(mb_json_get(l, "in_order")) ? "in order" : "NOT IN ORDER");
}

MB_TEXT_WITH_NOTES(qu_text, mb_text_hits_drops, qu_notes);
