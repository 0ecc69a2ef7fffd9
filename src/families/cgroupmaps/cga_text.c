// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The cgroup array benches' lines: the stock ops lines, after the cgroup the map's slot held
 * and every op's answer read back from the program.
 */
#include <stdio.h>

#include "core/bench.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"
#include "cga.h"

static void cga_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *x = run->extra, *c = mb_json_get(x, "ops_checked");
	bool in = mb_json_truthy(mb_json_get(x, "producers_in_cgroup"));

	if (mb_log_quiet() || !c)
		return;
	fprintf(f, "Cgroup: %s, %s; asked by %s\n", mb_json_str(mb_json_get(x, "cgroup"), "?"),
		in ? "the producers are in it" : "below the producers' own, which they stay in",
		mb_json_str(mb_json_get(x, "helper"), "?"));
	fprintf(f, "Ops read back: %.0f ops, %.0f answered 1 (under), %.0f answered 0, %.0f errors\n",
		mb_json_num(mb_json_get(c, "ops"), 0), mb_json_num(mb_json_get(c, "under"), 0),
		mb_json_num(mb_json_get(c, "not_under"), 0),
		mb_json_num(mb_json_get(c, "errors"), 0));
}

MB_TEXT_WITH_NOTES(cga_text, mb_text_ops, cga_notes);
