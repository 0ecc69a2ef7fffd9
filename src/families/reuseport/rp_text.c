// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The reuseport family's lines: the stock throughput and latency lines (update and lookup:
 * latency from the rate, wall clock per syscall; select: the program's in-kernel ns per
 * bpf_sk_select_reuseport call), after the group, the op and what was read back.
 */
#include <stdio.h>

#include "rp.h"
#include "util/json.h"
#include "util/log.h"
#include "output/report.h"

static void rp_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *x = run->extra, *c = mb_json_get(x, "ops_checked");
	const struct mb_json *rb = mb_json_get(x, "read_back");

	if (mb_log_quiet() || !c)
		return;
	fprintf(f, "Group: %.0f %s sockets on 127.0.0.1:%.0f, %.0f slots; op: %s\n",
		mb_json_num(mb_json_get(x, "sockets"), 0), mb_json_str(mb_json_get(x, "proto"), "?"),
		mb_json_num(mb_json_get(x, "port"), 0), mb_json_num(mb_json_get(x, "slots"), 0),
		mb_json_str(mb_json_get(x, "op"), "?"));
	fprintf(f, "Ops checked: %.0f ops, %.0f ok, %.0f errors",
		mb_json_num(mb_json_get(c, "ops"), 0), mb_json_num(mb_json_get(c, "ok"), 0),
		mb_json_num(mb_json_get(c, "errors"), 0));
	if (rb)
		fprintf(f, "; slots read back: %.0f, %s\n", mb_json_num(mb_json_get(rb, "slots"), 0),
			mb_json_truthy(mb_json_get(rb, "equal")) ? "as the ops left them" : "NOT AS LEFT");
	else
		fprintf(f, "; program runs %.0f, selections %.0f, slots differing %.0f, left queued %.0f; test_run: %s\n",
			mb_json_num(mb_json_get(c, "program_runs"), 0),
			mb_json_num(mb_json_get(c, "selected"), 0),
			mb_json_num(mb_json_get(c, "slots_differing"), 0),
			mb_json_num(mb_json_get(c, "left_queued"), 0),
			mb_json_str(mb_json_get(x, "test_run"), "?"));
}

MB_TEXT_WITH_NOTES(rp_text, mb_text_ops, rp_notes);
