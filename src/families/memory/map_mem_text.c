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

/* The tables come from the result's JSON: a type's header, then its rows, then the legend. */
static void mm_print_header(FILE *f, const char *type, const struct mb_json *tj,
			    const struct mb_json *extra)
{
	const struct mb_json *mc = mb_json_get(extra, "memcg");
	const struct mb_json *sj = mb_json_get(tj, "storage");
	bool storage = mb_json_is(sj, MB_JSON_OBJECT);

	fprintf(f, "\nmap-mem: %s, key %.0f B, value %.0f B%s, flags %s; ", type,
		num(tj, "key_size"), num(tj, "value_size"), flag(tj, "percpu") ? " per CPU" : "",
		mb_json_str(mb_json_get(tj, "map_flags"), "?"));
	if (storage)
		fprintf(f, "owners: %ss; hash (by owner id): key %.0f B (%s), flags %s; ",
			mb_json_str(mb_json_get(sj, "owner_kind"), "?"),
			num(mb_json_get(sj, "hash"), "key_size"),
			mb_json_str(mb_json_get(mb_json_get(sj, "hash"), "key"), "?"),
			mb_json_str(mb_json_get(mb_json_get(sj, "hash"), "map_flags"), "?"));
	if (flag(mc, "available"))
		fprintf(f, "charged = %s of a fresh cgroup %s per row\n",
			mb_json_str(mb_json_get(mc, "charged_file"), "?"),
			mb_json_str(mb_json_get(mc, "version"), "?"));
	else
		fprintf(f, "memory cgroup unavailable (%s): memlock only\n",
			mb_json_str(mb_json_get(mc, "reason"), "?"));
	if (storage)
		fprintf(f, "%11s %-18s ", "owners", "map");
	else
		fprintf(f, "%11s ", "max_entries");
	fprintf(f, "%9s %11s %11s %11s %9s %11s %10s %11s %-12s %11s %-12s %8s %8s\n",
		"entries", "created", "filled", "percpu", "B/entry", "memlock",
		"vs charged", "deleted", "(released)", "closed", "(released)", "fill", "delete");
}

/*
 * A streaming map's row: no entries, fill and delete not applicable ("n/a"), memlock at
 * creation. The other columns as the other types have them.
 */
static void stream_cols(const struct mb_json *row, char *ent, char *fl, char *ml, char *del,
			char *ft, char *dt, size_t len)
{
	snprintf(ent, len, "n/a");
	snprintf(fl, len, "n/a");
	mem_format_bytes(num(row, "memlock_created_bytes"), ml, len);
	snprintf(del, len, "n/a");
	snprintf(ft, len, "n/a");
	snprintf(dt, len, "n/a");
}

/* One table row after @lead (its size, and for storage tables which map). */
static void print_row(FILE *f, const char *lead, const struct mb_json *row, bool percpu,
		      const struct mb_json *extra)
{
	char c[32], fl[32], ml[32], del[32], dw[40], cl[32], cw[40], bpe[32], err[32], pc[32];
	char ft[32], dt[32], ent[32];
	bool waiting = num(extra, "release_timeout_ms") > 0;
	bool memcg = mb_json_is(mb_json_get(row, "memcg_reason"), MB_JSON_NULL);
	double filled = num(row, "filled_bytes"), entries = num(row, "entries");
	double memlock_err = num(row, "memlock_error");

	if (mb_json_str(mb_json_get(row, "error"), NULL)) {
		fprintf(f, "%s error: %s\n", lead, mb_json_str(mb_json_get(row, "error"), ""));
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
	snprintf(ent, sizeof(ent), "%.0f", entries);
	if (mb_json_str(mb_json_get(row, "fill_reason"), NULL))
		stream_cols(row, ent, fl, ml, del, ft, dt, sizeof(ent));
	fprintf(f, "%s %9s %11s %11s %11s %9s %11s %10s %11s %-12s %11s %-12s %8s %8s\n",
		lead, ent, c, fl, pc, bpe, ml, err, del, dw, cl, cw, ft, dt);
}

/* A storage table's rows of one size: the storage map's, then the hash's beside it. */
static void print_storage_rows(FILE *f, const char *type, const struct mb_json *row,
			       const struct mb_json *extra)
{
	char lead[64];

	snprintf(lead, sizeof(lead), "%11.0f %-18s", num(row, "owners"), type);
	print_row(f, lead, row, false, extra);
	snprintf(lead, sizeof(lead), "%11.0f %-18s", num(row, "owners"), MM_HASH_ROW);
	print_row(f, lead, mb_json_get(row, "hash"), false, extra);
}

static void mm_print_row(FILE *f, const char *type, const struct mb_json *row, bool percpu,
			 const struct mb_json *extra)
{
	char lead[32];

	if (mb_json_is(mb_json_get(row, "hash"), MB_JSON_OBJECT)) {
		print_storage_rows(f, type, row, extra);
		return;
	}
	snprintf(lead, sizeof(lead), "%11.0f", num(row, "max_entries"));
	print_row(f, lead, row, percpu, extra);
}

/* Ring sizes rounded up from the sizes asked, as " (sizes rounded up ...: 10000 -> 16384)". */
static void print_rounded(FILE *f, const struct mb_json *rows)
{
	int n = 0;

	for (size_t i = 0; i < mb_json_len(rows); i++) {
		const struct mb_json *r = mb_json_at(rows, i);

		if (isnan(num(r, "rounded_from")))
			continue;
		fprintf(f, "%s%.0f -> %.0f", n++ ? ", " : "; sizes rounded up to a power of two multiple of the page size: ",
			num(r, "rounded_from"), num(r, "max_entries"));
	}
}

/* What a streaming map's figures hold, and why fill and delete are n/a. */
static void print_stream_note(FILE *f, const char *type, const struct mb_json *tj)
{
	if (!strcmp(mb_json_str(mb_json_get(tj, "stream"), ""), "ring")) {
		fprintf(f, "%11s %s: max_entries is the ring's bytes; the whole ring (its data pages, mapped twice, and its meta pages) is allocated and charged at creation; fill, delete: n/a (only BPF programs or a user-space producer write records); memlock and vs charged: at creation",
			"note:", type);
		print_rounded(f, mb_json_get(tj, "rows"));
		fprintf(f, "\n");
		return;
	}
	fprintf(f, "%11s %s: an array of perf event fds (libbpf's perf_buffer makes one slot per CPU), charged at creation; fill, delete: n/a (slots take perf_event_open fds); the per-CPU perf rings are perf's memory (perf_event_open, mmap), not the map's, and are not in these figures\n",
		"note:", type);
}

/* The owners' own charge per size, measured apart: "1000 threads 27.0 MiB (27.6 KiB each)". */
static void print_owner_costs(FILE *f, const char *kind, const struct mb_json *rows)
{
	for (size_t i = 0; i < mb_json_len(rows); i++) {
		const struct mb_json *r = mb_json_at(rows, i);
		char all[32], each[32];

		mem_format_bytes(num(r, "owners_bytes"), all, sizeof(all));
		mem_format_bytes(num(r, "owner_bytes_each"), each, sizeof(each));
		if (isnan(num(r, "owners_bytes")))
			fprintf(f, "%s%.0f %ss: not measured", i ? ", " : "", num(r, "owners"), kind);
		else
			fprintf(f, "%s%.0f %ss %s (%s each)", i ? ", " : "", num(r, "owners"), kind,
				all, each);
	}
}

/* What a storage table's rows are: owners, not entries, and the hash beside them. */
static void print_storage_note(FILE *f, const char *type, const struct mb_json *tj)
{
	const struct mb_json *sj = mb_json_get(tj, "storage"), *hj = mb_json_get(sj, "hash");
	const char *kind = mb_json_str(mb_json_get(sj, "owner_kind"), "?");

	fprintf(f, "%11s %s: a storage map has no capacity: made with max_entries 0 and no_prealloc, it holds one value per owner; owners: %ss made for each row (at most %.0f here: %s), keyed by %s; each owner's value is made by one update, read back, then deleted one by one; B/entry: bytes per owner\n",
		"note:", type, kind, num(sj, "max_owners"),
		mb_json_str(mb_json_get(sj, "max_owners_why"), "?"),
		mb_json_str(mb_json_get(sj, "key"), "?"));
	fprintf(f, "%11s the owners are made in a cgroup of their own before the map's, so what they cost themselves is in no figure here (", "note:");
	print_owner_costs(f, kind, mb_json_get(tj, "rows"));
	fprintf(f, "); the storage is charged to the map's cgroup (its creator's), not to the owners'\n");
	fprintf(f, "%11s %s: a hash map of %.0f-byte keys (the %s), the same value size, max_entries = owners, flags %s (%s), filled, read back and emptied the same way, in a cgroup of its own; memlock of a storage map counts the map and its buckets, not the values\n",
		"note:", MM_HASH_ROW, num(hj, "key_size"), mb_json_str(mb_json_get(hj, "key"), "?"),
		mb_json_str(mb_json_get(hj, "map_flags"), "?"),
		flag(hj, "preallocated") ? "preallocated: every entry is charged at creation" :
					   "entries charged as they are inserted");
}

/* What the charge of this type's rows holds and leaves out, after its rows. */
static void mm_print_note(FILE *f, const char *type, const struct mb_json *tj)
{
	const struct mb_json *charged = mb_json_get(tj, "percpu_values_charged");

	if (mb_json_is(mb_json_get(tj, "storage"), MB_JSON_OBJECT) &&
	    !mb_json_str(mb_json_get(tj, "skipped"), NULL)) {
		print_storage_note(f, type, tj);
		return;
	}

	if (mb_json_str(mb_json_get(tj, "stream"), NULL) &&
	    !mb_json_str(mb_json_get(tj, "skipped"), NULL)) {
		print_stream_note(f, type, tj);
		return;
	}
	/* A type made from its recipe: how its size is taken, why it is not filled. */
	if (mb_json_str(mb_json_get(tj, "size_rule"), NULL) &&
	    !mb_json_str(mb_json_get(tj, "skipped"), NULL))
		fprintf(f, "%11s %s: %s\n", "note:", type,
			mb_json_str(mb_json_get(tj, "size_rule"), ""));
	if (mb_json_str(mb_json_get(tj, "fill_reason"), NULL) &&
	    !mb_json_str(mb_json_get(tj, "skipped"), NULL))
		fprintf(f, "%11s %s: fill, delete: n/a: %s; memlock and vs charged: at creation\n",
			"note:", type, mb_json_str(mb_json_get(tj, "fill_reason"), ""));
	if (!mb_json_is(charged, MB_JSON_BOOL) || mb_json_str(mb_json_get(tj, "skipped"), NULL))
		return;
	if (mb_json_truthy(charged))
		fprintf(f, "%11s %s: per-CPU values are allocated on insert and are in created/filled; percpu is part of filled (do not add it); vs charged: memlock vs filled\n",
			"note:", type);
	else
		fprintf(f, "%11s %s: per-CPU values are allocated with the map and are not in created/filled (kernel: before the map's cgroup is set); memlock counts them; vs charged: memlock vs filled + those values (slots x value x possible CPUs, in JSON percpu_values_bytes)\n",
			"note:", type);
}

static void mm_print_legend(FILE *f)
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
			mm_print_row(f, mb_json_key_at(fp, i), mb_json_at(rows, r),
				     flag(tj, "percpu"), run->extra);
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
		mm_print_row(f, n->type, n->row, n->percpu, run->extra);
		break;
	case MM_NEWS_NOTE:
		mm_print_note(f, n->type, n->tj);
		break;
	case MM_NEWS_LEGEND:
		mm_print_legend(f);
		break;
	}
}

/* Which row a figure is of: its table (map type), size, and for storage tables which map. */
struct fig_label {
	const char *type;
	const char *map;	/* storage tables: the type or MM_HASH_ROW; else NULL */
	double size;		/* max_entries, or storage tables' owners */
};

/* Figure @name in @unit, labelled with its row. */
static struct mb_json *row_figure(struct mb_json *figs, const struct fig_label *lab,
				  const char *name, const char *unit, double value)
{
	struct mb_json *fig = mb_figure(figs, name, unit, value);

	mb_figure_label_str(fig, "map_type", lab->type);
	mb_figure_label_num(fig, lab->map ? "owners" : "max_entries", lab->size);
	if (lab->map)
		mb_figure_label_str(fig, "map", lab->map);
	return fig;
}

/* A release wait's figure: when the last drop came, where the table shows it as a time. */
static double release_ms(const struct mb_json *w, bool waiting)
{
	if (!waiting || !mb_json_is(w, MB_JSON_OBJECT) || flag(w, "interrupted") ||
	    (!flag(w, "reached") && !flag(w, "settled")))
		return NAN;
	return num(w, "release_ms");
}

/* The figures of one table row, as mm_print_row shows them ("-", "n/a": null). */
static void row_figures(struct mb_json *figs, const struct fig_label *lab,
			const struct mb_json *row, bool percpu, bool waiting)
{
	bool memcg = mb_json_is(mb_json_get(row, "memcg_reason"), MB_JSON_NULL);
	bool stream = mb_json_str(mb_json_get(row, "fill_reason"), NULL) != NULL;
	bool del = flag(row, "can_delete") && !stream;
	double entries = stream ? NAN : num(row, "entries");
	double filled = memcg && !stream ? num(row, "filled_bytes") : NAN;

	row_figure(figs, lab, "entries", "entries", entries);
	row_figure(figs, lab, "created", "bytes", memcg ? num(row, "created_bytes") : NAN);
	row_figure(figs, lab, "filled", "bytes", filled);
	if (percpu)
		row_figure(figs, lab, "percpu", "bytes", num(row, "percpu_filled_bytes"));
	row_figure(figs, lab, "B/entry", "bytes/entry", entries > 0 ? filled / entries : NAN);
	row_figure(figs, lab, "memlock", "bytes",
		   num(row, stream ? "memlock_created_bytes" : "memlock_filled_bytes"));
	row_figure(figs, lab, "vs charged", "%", num(row, "memlock_error") * 100);
	row_figure(figs, lab, "deleted", "bytes", memcg && del ? num(row, "deleted_bytes") : NAN);
	row_figure(figs, lab, "deleted (released)", "ms",
		   memcg && del && !isnan(num(row, "deleted_bytes")) ?
			   release_ms(mb_json_get(row, "delete_release"), waiting) : NAN);
	row_figure(figs, lab, "closed", "bytes", memcg ? num(row, "closed_bytes") : NAN);
	row_figure(figs, lab, "closed (released)", "ms",
		   memcg && !isnan(num(row, "closed_bytes")) ?
			   release_ms(mb_json_get(row, "close_release"), waiting) : NAN);
	row_figure(figs, lab, "fill", "ms", stream ? NAN : num(row, "fill_ms"));
	row_figure(figs, lab, "delete", "ms", stream ? NAN : num(row, "delete_ms"));
}

/* A row's figures unless it failed; a storage row's, then its hash's. */
static void table_row_figures(struct mb_json *figs, const char *type, const struct mb_json *row,
			      bool percpu, bool waiting)
{
	const struct mb_json *hash = mb_json_get(row, "hash");
	struct fig_label lab = { .type = type, .size = num(row, "max_entries") };

	if (mb_json_is(hash, MB_JSON_OBJECT)) {
		lab.map = type;
		lab.size = num(row, "owners");
	}
	if (!mb_json_str(mb_json_get(row, "error"), NULL))
		row_figures(figs, &lab, row, percpu, waiting);
	if (!mb_json_is(hash, MB_JSON_OBJECT) || mb_json_str(mb_json_get(hash, "error"), NULL))
		return;
	lab.map = MM_HASH_ROW;
	row_figures(figs, &lab, hash, false, waiting);
}

/* Every measured row of every table; rows that failed and skipped types have none. */
static void map_mem_figures(const struct mb_run *run, const struct mb_summary *sum,
			    struct mb_json *figs)
{
	const struct mb_json *fp = mb_json_get(run->extra, "footprint");
	bool waiting = num(run->extra, "release_timeout_ms") > 0;

	(void)sum;
	for (size_t i = 0; i < mb_json_len(fp); i++) {
		const struct mb_json *tj = mb_json_at(fp, i), *rows = mb_json_get(tj, "rows");

		for (size_t r = 0; r < mb_json_len(rows); r++)
			table_row_figures(figs, mb_json_key_at(fp, i), mb_json_at(rows, r),
					  flag(tj, "percpu"), waiting);
	}
}

const struct mb_text_style mm_text = {
	.result = map_mem_result,
	.partial = map_mem_partial,
	.figures = map_mem_figures,
};
