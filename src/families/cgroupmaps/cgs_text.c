// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The cgroup storage bench's lines: the stock ops lines, after where the storage came from
 * and every call's value read back.
 */
#include <stdio.h>

#include "core/bench.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"
#include "cgs.h"

static void cgs_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *x = run->extra, *c = mb_json_get(x, "ops_checked");

	if (mb_log_quiet() || !c)
		return;
	fprintf(f, "Storage: %s of a cgroup_skb program run by test_run: each call's own, zeroed; the map holds %.0f keys\n",
		mb_json_str(mb_json_get(x, "map_type"), "?"),
		mb_json_num(mb_json_get(x, "map_entries"), 0));
	fprintf(f, "Ops read back: %.0f ops in %.0f calls, the value equal to the call's ops after %.0f, not after %.0f\n",
		mb_json_num(mb_json_get(c, "ops"), 0), mb_json_num(mb_json_get(c, "calls"), 0),
		mb_json_num(mb_json_get(c, "calls_value_equal"), 0),
		mb_json_num(mb_json_get(c, "calls_value_wrong"), 0));
}

MB_TEXT_WITH_NOTES(cgs_text, mb_text_ops, cgs_notes);
