// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The structops family's lines: the stock throughput and latency lines (latency from the
 * rate: one op is both its timed steps and nothing else), after a line with each step's own
 * time and what the ops read back.
 */
#include <stdio.h>

#include "so.h"
#include "util/json.h"
#include "util/log.h"
#include "output/report.h"

static void so_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *x = run->extra, *c = mb_json_get(x, "ops_checked");
	const struct mb_json *fr = mb_json_get(x, "freed"), *once = mb_json_get(x, "set_up_once");

	if (mb_log_quiet() || !c)
		return;
	if (fr)
		fprintf(f, "Map: struct_ops of %s (%.0f-byte value); %.0f created, %.0f read back, %.0f errors; one creation %.0f..%.0f ns; the last %.0f closed: %.0f freed after %.1f ms\n",
			mb_json_str(mb_json_get(x, "value_type"), "?"),
			mb_json_num(mb_json_get(x, "value_size"), 0),
			mb_json_num(mb_json_get(c, "ops"), 0),
			mb_json_num(mb_json_get(c, "read_back"), 0),
			mb_json_num(mb_json_get(c, "errors"), 0),
			mb_json_num(mb_json_get(x, "create_min_ns"), 0),
			mb_json_num(mb_json_get(x, "create_max_ns"), 0),
			mb_json_num(mb_json_get(fr, "last_maps"), 0),
			mb_json_num(mb_json_get(fr, "gone"), 0),
			mb_json_num(mb_json_get(fr, "wait_ms"), 0));
	if (once)
		fprintf(f, "Congestion control %s: loaded in %.0f us, map updated in %.0f us (once); %.0f registered, usable and gone after, %.0f errors\n",
			mb_json_str(mb_json_get(x, "congestion_control"), "?"),
			mb_json_num(mb_json_get(once, "load_us"), 0),
			mb_json_num(mb_json_get(once, "update_us"), 0),
			mb_json_num(mb_json_get(c, "usable_then_gone"), 0),
			mb_json_num(mb_json_get(c, "errors"), 0));
}

MB_TEXT_WITH_NOTES(so_text, mb_text_ops, so_notes);
