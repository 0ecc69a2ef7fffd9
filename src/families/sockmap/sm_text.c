// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * sockmap family: the lines of sockmap-update, -lookup and -delete: the kernel's throughput
 * and latency lines (the latency from the rate of the timed syscalls), after notes on the
 * map, the sockets and the ops read back.
 */
#include <stdio.h>

#include "core/bench.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"

static void sm_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *x = run->extra, *m = mb_json_get(x, "map");
	const struct mb_json *c = mb_json_get(x, "ops_checked"), *l = mb_json_get(x, "left");

	if (mb_log_quiet() || !m)
		return;
	fprintf(f, "Map: %s of %.0f entries, level %.0f; op: %s; %.0f sockets (%.0f loopback TCP pairs)",
		mb_json_str(mb_json_get(m, "type"), "?"),
		mb_json_num(mb_json_get(m, "max_entries"), 0),
		mb_json_num(mb_json_get(m, "level"), 0), mb_json_str(mb_json_get(x, "op"), "?"),
		mb_json_num(mb_json_get(x, "sockets"), 0),
		mb_json_num(mb_json_get(x, "tcp_pairs"), 0));
	if (mb_json_get(x, "path"))
		fprintf(f, "; path: %s", mb_json_str(mb_json_get(x, "path"), "?"));
	if (mb_json_get(x, "rounds"))
		fprintf(f, "; %.0f rounds of %.0f", mb_json_num(mb_json_get(x, "rounds"), 0),
			mb_json_num(mb_json_get(x, "batch"), 0));
	fprintf(f, "\n");
	if (c)
		fprintf(f, "Ops read back: %.0f ops, %.0f succeeded, %.0f verified, %.0f errors\n",
			mb_json_num(mb_json_get(c, "ops"), 0),
			mb_json_num(mb_json_get(c, "succeeded"), 0),
			mb_json_num(mb_json_get(c, "verified"), 0),
			mb_json_num(mb_json_get(c, "errors"), 0));
	if (l)
		fprintf(f, "Left in the map: %.0f entries, %.0f of them the socket due\n",
			mb_json_num(mb_json_get(l, "entries"), 0),
			mb_json_num(mb_json_get(l, "level_checked"), 0));
}

MB_TEXT_WITH_NOTES(sm_text, mb_text_ops, sm_notes);
