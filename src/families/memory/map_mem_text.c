// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-mem's tables, rendered from the result's JSON (extra.footprint), so the live output and
 * a text document (-o FILE.txt) come from the same data.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/json.h"
#include "util/log.h"
#include "map_mem.h"
#include "mem.h"
#include "output/report.h"

static double num(const struct mb_json *o, const char *key)
{
	return mb_json_num(mb_json_get(o, key), NAN);
}

static bool flag(const struct mb_json *o, const char *key)
{
	return mb_json_truthy(mb_json_get(o, key));
}

static void fmt_ms(double ms, char *buf, size_t len)
{
	if (ms < 1000)
		snprintf(buf, len, "%.0f ms", ms);
	else
		snprintf(buf, len, "%.1f s", ms / 1e3);
}

/* A phase's duration, "-" where it did not run. */
static void fmt_time(double ms, char *buf, size_t len)
{
	if (isnan(ms))
		snprintf(buf, len, "-");
	else if (ms < 10)
		snprintf(buf, len, "%.1f ms", ms);
	else
		fmt_ms(ms, buf, len);
}

/* When the last drop came: "at once" when already down, "none in T" when nothing dropped. */
static void fmt_wait(const struct mb_json *w, bool waiting, char *buf, size_t len)
{
	double release = num(w, "release_ms"), waited = num(w, "waited_ms");
	char t[32];

	if (!waiting) {
		snprintf(buf, len, "not waited");
	} else if (!mb_json_is(w, MB_JSON_OBJECT)) {
		snprintf(buf, len, "-");
	} else if (flag(w, "interrupted")) {
		snprintf(buf, len, "interrupted");
	} else if (!flag(w, "reached") && !flag(w, "settled")) {
		fmt_ms(waited, t, sizeof(t));
		snprintf(buf, len, "falling %s", t);
	} else if (release == 0) {
		fmt_ms(waited, t, sizeof(t));
		if (flag(w, "reached"))
			snprintf(buf, len, "at once");
		else
			snprintf(buf, len, "none in %s", t);
	} else {
		fmt_ms(release, buf, len);
	}
}

void mm_print_header(FILE *f, const char *type, const struct mb_json *tj,
		     const struct mb_json *extra)
{
	const struct mb_json *mc = mb_json_get(extra, "memcg");

	fprintf(f, "\nmap-mem: %s, key %.0f B, value %.0f B%s, flags %s; ", type,
		num(tj, "key_size"), num(tj, "value_size"), flag(tj, "percpu") ? " per CPU" : "",
		mb_json_str(mb_json_get(tj, "map_flags"), "?"));
	if (flag(mc, "available"))
		fprintf(f, "charged = %s of a fresh cgroup %s per row\n",
			mb_json_str(mb_json_get(mc, "charged_file"), "?"),
			mb_json_str(mb_json_get(mc, "version"), "?"));
	else
		fprintf(f, "memory cgroup unavailable (%s): memlock only\n",
			mb_json_str(mb_json_get(mc, "reason"), "?"));
	fprintf(f, "%11s %9s %11s %11s %11s %9s %11s %10s %11s %-12s %11s %-12s %8s %8s\n",
		"max_entries", "entries", "created", "filled", "percpu", "B/entry", "memlock",
		"vs charged", "deleted", "(released)", "closed", "(released)", "fill", "delete");
}

void mm_print_row(FILE *f, const struct mb_json *row, bool percpu, const struct mb_json *extra)
{
	char c[32], fl[32], ml[32], del[32], dw[40], cl[32], cw[40], bpe[32], err[32], pc[32];
	char ft[32], dt[32];
	bool waiting = num(extra, "release_timeout_ms") > 0;
	bool memcg = mb_json_is(mb_json_get(row, "memcg_reason"), MB_JSON_NULL);
	double filled = num(row, "filled_bytes"), entries = num(row, "entries");
	double memlock_err = num(row, "memlock_error");

	if (mb_json_str(mb_json_get(row, "error"), NULL)) {
		fprintf(f, "%11.0f error: %s\n", num(row, "max_entries"),
			mb_json_str(mb_json_get(row, "error"), ""));
		return;
	}
	mem_format_bytes(num(row, "created_bytes"), c, sizeof(c));
	mem_format_bytes(filled, fl, sizeof(fl));
	mem_format_bytes(num(row, "memlock_filled_bytes"), ml, sizeof(ml));
	mem_format_bytes(num(row, "deleted_bytes"), del, sizeof(del));
	mem_format_bytes(num(row, "closed_bytes"), cl, sizeof(cl));
	mem_format_bytes(percpu ? num(row, "percpu_filled_bytes") : NAN, pc, sizeof(pc));
	snprintf(bpe, sizeof(bpe), "-");
	snprintf(err, sizeof(err), "-");
	if (!isnan(filled) && entries > 0)
		snprintf(bpe, sizeof(bpe), "%.1f", filled / entries);
	if (!isnan(memlock_err))
		snprintf(err, sizeof(err), "%+.1f %%", memlock_err * 100);
	snprintf(dw, sizeof(dw), "-");
	snprintf(cw, sizeof(cw), "-");
	if (!flag(row, "can_delete"))
		snprintf(del, sizeof(del), "no delete");
	else if (memcg && !isnan(num(row, "deleted_bytes")))
		fmt_wait(mb_json_get(row, "delete_release"), waiting, dw, sizeof(dw));
	if (memcg && !isnan(num(row, "closed_bytes")))
		fmt_wait(mb_json_get(row, "close_release"), waiting, cw, sizeof(cw));
	if (!memcg) {
		snprintf(c, sizeof(c), "unavailable");
		snprintf(fl, sizeof(fl), "unavailable");
		if (flag(row, "can_delete"))
			snprintf(del, sizeof(del), "unavailable");
		snprintf(cl, sizeof(cl), "unavailable");
	}
	fmt_time(num(row, "fill_ms"), ft, sizeof(ft));
	fmt_time(num(row, "delete_ms"), dt, sizeof(dt));
	fprintf(f, "%11.0f %9.0f %11s %11s %11s %9s %11s %10s %11s %-12s %11s %-12s %8s %8s\n",
		num(row, "max_entries"), entries, c, fl, pc, bpe, ml, err, del, dw, cl, cw, ft, dt);
}

void mm_print_note(FILE *f, const char *type, const struct mb_json *tj)
{
	const struct mb_json *charged = mb_json_get(tj, "percpu_values_charged");

	if (!mb_json_is(charged, MB_JSON_BOOL) || mb_json_str(mb_json_get(tj, "skipped"), NULL))
		return;
	if (mb_json_truthy(charged))
		fprintf(f, "%11s %s: per-CPU values are allocated on insert and are in created/filled; percpu is part of filled (do not add it); vs charged: memlock vs filled\n",
			"note:", type);
	else
		fprintf(f, "%11s %s: per-CPU values are allocated with the map and are not in created/filled (kernel: before the map's cgroup is set); memlock counts them; vs charged: memlock vs filled + those values (slots x value x possible CPUs, in JSON percpu_values_bytes)\n",
			"note:", type);
}

void mm_print_legend(FILE *f)
{
	if (mb_log_quiet())
		return;
	fprintf(f, "\nB/entry: charged after the fill / entries; vs charged: memlock minus what it is compared with (the charge, plus per-CPU values the charge leaves out: see each per-CPU table's note), in %% of that (negative: memlock underestimates); "
		   "percpu: growth of /proc/meminfo Percpu (system-wide, in pages); (released): when the last drop was seen; fill, delete: time to fill and to empty the map from user space\n");
}

static void print_skipped(FILE *f, const char *why)
{
	fprintf(f, "%11s skipped: %s\n", "", why);
}

static void map_mem_result(FILE *f, const struct mb_run *run)
{
	const struct mb_json *fp = mb_json_get(run->extra, "footprint");

	for (size_t i = 0; i < mb_json_len(fp); i++) {
		const struct mb_json *tj = mb_json_at(fp, i), *rows = mb_json_get(tj, "rows");

		mm_print_header(f, mb_json_key_at(fp, i), tj, run->extra);
		if (mb_json_str(mb_json_get(tj, "skipped"), NULL))
			print_skipped(f, mb_json_str(mb_json_get(tj, "skipped"), ""));
		for (size_t r = 0; r < mb_json_len(rows); r++)
			mm_print_row(f, mb_json_at(rows, r), flag(tj, "percpu"), run->extra);
		mm_print_note(f, mb_json_key_at(fp, i), tj);
	}
	mm_print_legend(f);
}

/* Live: each line goes out at once (a row can take seconds to measure). */
static void map_mem_partial(FILE *f, const struct mb_run *run, const void *what)
{
	const struct mm_news *n = what;

	switch (n->kind) {
	case MM_NEWS_HEADER:
		mm_print_header(f, n->type, n->tj, run->extra);
		break;
	case MM_NEWS_SKIPPED:
		print_skipped(f, n->why);
		break;
	case MM_NEWS_ROW:
		mm_print_row(f, n->row, n->percpu, run->extra);
		break;
	case MM_NEWS_NOTE:
		mm_print_note(f, n->type, n->tj);
		break;
	case MM_NEWS_LEGEND:
		mm_print_legend(f);
		break;
	}
}

const struct mb_text_style mm_text = {
	.result = map_mem_result,
	.partial = map_mem_partial,
};
