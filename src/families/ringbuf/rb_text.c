// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The streaming benches' text: the kernel's hits/drops Iter and Summary lines (so that its
 * run_bench_ringbufs.sh scraping works unchanged), and before the Summary (not with -q) the
 * buffer, the consumer, the records' account (how they were checked) and the latency, from
 * run->extra.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/runner.h"
#include "output/report.h"
#include "rb.h"
#include "util/json.h"
#include "util/log.h"

static double num(const struct mb_json *o, const char *key)
{
	return mb_json_num(mb_json_get(o, key), NAN);
}

static const char *str(const struct mb_json *o, const char *key)
{
	return mb_json_str(mb_json_get(o, key), "?");
}

static void buffer_line(FILE *f, const struct mb_json *o)
{
	if (!o)
		return;
	fprintf(f, "Buffer: %s of %.0f bytes, %.0f-byte records (%.0f bytes each in it, %.0f at most), %s, %.0f per call, wake-up %s",
		str(o, "map_type"), num(o, "bytes"), num(o, "record_size"), num(o, "record_bytes"),
		num(o, "capacity_records"), str(o, "api"), num(o, "batch"),
		mb_json_truthy(mb_json_get(o, "back_to_back")) ? "checked by the producer itself (back-to-back)" :
		mb_json_truthy(mb_json_get(o, "producers_alone")) ? "never (no consumer)" :
		isnan(num(o, "sample_rate")) ? "for every record" : "sampled");
	if (!isnan(num(o, "sample_rate")))
		fprintf(f, " (every %.0f records)", num(o, "sample_rate"));
	fputc('\n', f);
}

static void consumer_line(FILE *f, const struct mb_json *o)
{
	if (!mb_json_is(o, MB_JSON_OBJECT))
		return;
	fprintf(f, "Consumer: %s", str(o, "how"));
	if (!isnan(num(o, "records_per_wakeup")))
		fprintf(f, "; %.1f records per wake-up", num(o, "records_per_wakeup"));
	if (!isnan(num(o, "cpu_ns_per_record")))
		fprintf(f, "; %.2f ns of CPU per record (%.1f %% of a CPU)",
			num(o, "cpu_ns_per_record"), num(o, "cpu_share") * 100);
	fputc('\n', f);
}

/* --rb-check counts: the records add up by their counts; which one went wrong is not known. */
static void counted_line(FILE *f, const struct mb_json *o)
{
	if (mb_json_truthy(mb_json_get(o, "ok"))) {
		fprintf(f, "Records: %.0f attempted, %.0f dropped (buffer full), %.0f received, counted (as the kernel's bench; --rb-check records checks each): as many as were made\n",
			num(o, "attempted"), num(o, "dropped"), num(o, "received"));
		return;
	}
	fprintf(f, "Check: FAILED: %.0f attempted, %.0f dropped, %.0f made, %.0f received (counted only: --rb-check records tells which)\n",
		num(o, "attempted"), num(o, "dropped"), num(o, "made"), num(o, "received"));
}

static void records_line(FILE *f, const struct mb_json *o)
{
	if (!o)
		return;
	if (mb_json_is(mb_json_get(o, "received"), MB_JSON_NULL)) {
		fprintf(f, "Records: %.0f attempted, %.0f dropped (ring full), %.0f in the ring: no consumer (--rb-bench-producer)\n",
			num(o, "attempted"), num(o, "dropped"), num(o, "made"));
		return;
	}
	if (!strcmp(str(o, "check"), "counts")) {
		counted_line(f, o);
		return;
	}
	if (mb_json_truthy(mb_json_get(o, "ok"))) {
		fprintf(f, "Records: %.0f attempted, %.0f dropped (buffer full), %.0f received, each checked: none lost, none seen twice\n",
			num(o, "attempted"), num(o, "dropped"), num(o, "received"));
		return;
	}
	fprintf(f, "Check: FAILED: %.0f attempted, %.0f dropped, %.0f made, %.0f received, %.0f lost, %.0f seen twice, %.0f from no producer%s\n",
		num(o, "attempted"), num(o, "dropped"), num(o, "made"), num(o, "received"),
		num(o, "lost"), num(o, "duplicated"), num(o, "foreign"),
		mb_json_truthy(mb_json_get(o, "checksum_ok")) ? "" : ", sequence checksums differ");
}

static void interrupts_line(FILE *f, const struct mb_json *o)
{
	if (!mb_json_is(o, MB_JSON_OBJECT))
		return;
	fprintf(f, "Interrupts: %.0f IRQ work interrupts per second", num(o, "irq_work_per_second"));
	if (!isnan(num(o, "irq_work_per_record")))
		fprintf(f, ", %.4f per record received", num(o, "irq_work_per_record"));
	fprintf(f, " (the wake-ups; all CPUs)\n");
}

static void latency_line(FILE *f, const struct mb_json *o)
{
	if (!mb_json_is(o, MB_JSON_OBJECT))
		return;
	fprintf(f, "Latency: production to consumption, 1 record in %.0f (%.0f sampled): median %.3f us, p90 %.3f us, p99 %.3f us, max %.3f us\n",
		num(o, "every"), num(o, "sampled"), num(o, "median_ns") / 1e3,
		num(o, "p90_ns") / 1e3, num(o, "p99_ns") / 1e3, num(o, "max_ns") / 1e3);
}

static void rb_notes(FILE *f, const struct mb_run *run)
{
	if (mb_log_quiet())
		return;
	buffer_line(f, mb_json_get(run->extra, "buffer"));
	consumer_line(f, mb_json_get(run->extra, "consumer"));
	interrupts_line(f, mb_json_get(run->extra, "interrupts"));
	records_line(f, mb_json_get(run->extra, "records"));
	latency_line(f, mb_json_get(run->extra, "latency"));
}

MB_TEXT_WITH_NOTES(rb_text, mb_text_hits_drops, rb_notes);
