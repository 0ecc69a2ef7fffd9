// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The per-type benches' lines: the op loop's Iter and Summary lines (mb_text_ops), after what
 * the run's extra says of its storage, its owner, the round trip and the ops read back.
 */
#include <stdio.h>

#include "core/bench.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"
#include "ls_types.h"

static void ls_types_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *x = run->extra, *rt = mb_json_get(x, "round_trip");
	const struct mb_json *chk = mb_json_get(x, "ops_checked");

	if (mb_log_quiet() || !x || !mb_json_get(x, "storage"))
		return;
	fprintf(f, "Storage: %s, %.0f map%s per owner, owner: %s; op: %s; program: %s\n",
		mb_json_str(mb_json_get(x, "storage"), "?"),
		mb_json_num(mb_json_get(x, "nr_maps"), 0),
		mb_json_num(mb_json_get(x, "nr_maps"), 0) == 1 ? "" : "s",
		mb_json_str(mb_json_get(x, "owner"), "?"), mb_json_str(mb_json_get(x, "op"), "?"),
		mb_json_str(mb_json_get(x, "program"), "?"));
	if (mb_json_get(x, "other_storage_maps"))
		fprintf(f, "Cache: %.0f other %s map(s) alive on the machine share the owners' 16 cache slots with these\n",
			mb_json_num(mb_json_get(x, "other_storage_maps"), 0),
			mb_json_str(mb_json_get(x, "storage"), "?"));
	if (rt)
		fprintf(f, "Round trip: %.0f values written by %s, read back through %s: %s\n",
			mb_json_num(mb_json_get(rt, "values_checked"), 0),
			mb_json_str(mb_json_get(rt, "written_by"), "?"),
			mb_json_str(mb_json_get(rt, "read_by"), "?"),
			mb_json_truthy(mb_json_get(rt, "equal")) ? "equal" : "NOT EQUAL");
	if (chk)
		fprintf(f, "Ops read back: %.0f ops, %.0f hits, %.0f errors\n",
			mb_json_num(mb_json_get(chk, "ops"), 0),
			mb_json_num(mb_json_get(chk, "hits"), 0),
			mb_json_num(mb_json_get(chk, "errors"), 0));
}

MB_TEXT_WITH_NOTES(ls_types_text, mb_text_ops, ls_types_notes);
