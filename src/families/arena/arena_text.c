// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The arena family's lines: the stock ops lines, after the arena and what set-up checked. */
#include <stdio.h>

#include "core/bench.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"
#include "arena.h"

static void ar_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *x = run->extra, *m = mb_json_get(x, "arena");
	const struct mb_json *c = mb_json_get(x, "check");

	if (mb_log_quiet() || !m || !c)
		return;
	fprintf(f, "Arena: %.0f pages (%.0f bytes), mmapped; op: %s%s%s\n",
		mb_json_num(mb_json_get(m, "pages"), 0), mb_json_num(mb_json_get(m, "bytes"), 0),
		mb_json_str(mb_json_get(x, "op"), "?"), mb_json_get(x, "side") ? " from " : "",
		mb_json_str(mb_json_get(x, "side"), ""));
	if (mb_json_get(c, "pages_seen"))
		fprintf(f, "Checked: %.0f pages BPF allocated and marked, seen through the mmap\n",
			mb_json_num(mb_json_get(c, "pages_seen"), 0));
	else
		fprintf(f, "Checked: first touch of %.0f pages from user space, %.0f page faults, %.0f ns/page (not in the figures); %.0f words written on one side, read on the other\n",
			mb_json_num(mb_json_get(c, "first_touch_pages"), 0),
			mb_json_num(mb_json_get(c, "first_touch_faults"), 0),
			mb_json_num(mb_json_get(c, "first_touch_ns_per_page"), 0),
			mb_json_num(mb_json_get(c, "words_checked"), 0));
}

MB_TEXT_WITH_NOTES(ar_text, mb_text_ops, ar_notes);
