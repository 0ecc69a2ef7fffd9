// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-syscall's text: the stock throughput and latency lines (latency: wall-clock ns
 * per syscall of one producer), after a line that says what was keyed by what and how the
 * round trip showed it, from the result's extra.
 */
#include <stdio.h>

#include "ls_sys.h"
#include "util/json.h"
#include "util/log.h"
#include "output/report.h"

static void ls_sys_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *x = run->extra, *rt = mb_json_get(x, "round_trip");

	if (mb_log_quiet() || !rt)
		return;
	fprintf(f, "Storage: %s, value %.0f B, owner a %s keyed by %s; round trip: read back through %s%s; one op: one %s, ns/op by the wall clock",
		mb_json_str(mb_json_get(x, "storage"), "?"),
		mb_json_num(mb_json_get(x, "value_size"), 0), mb_json_str(mb_json_get(x, "owner"), "?"),
		mb_json_str(mb_json_get(x, "owner_fd"), "?"),
		mb_json_str(mb_json_get(rt, "second_fd"), "?"),
		mb_json_truthy(mb_json_get(rt, "bpf")) ? " and by BPF (a syscall program)" : "",
		mb_json_str(mb_json_get(x, "method"), "?"));
	if (mb_json_get(x, "clock_read_ns"))
		fprintf(f, " (each timed delete holds one clock read, %.1f ns)",
			mb_json_num(mb_json_get(x, "clock_read_ns"), 0));
	fputc('\n', f);
}

MB_TEXT_WITH_NOTES(ls_sys_text, mb_text_ops, ls_sys_notes);
