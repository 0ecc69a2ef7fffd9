// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * --latency in a result (docs/output.md): latency_ns in JSON, the Per-op line in text, the
 * latency row of the CSV; every one from mb_latency_figures(), so they say the same numbers.
 * JSON also carries the histogram the percentiles were read from (its non-empty buckets).
 */
#include <math.h>
#include <string.h>

#include "core/latency.h"
#include "report.h"
#include "util/json.h"

static struct mb_json *num_or_null(double v)
{
	return isnan(v) ? mb_json_null() : mb_json_number(v);
}

/*
 * The histogram's buckets that hold a value, lowest first, each [lowest ns, highest ns, count]
 * (bounds inclusive); the last bucket, which has no top of its own, ends at max.
 */
static struct mb_json *buckets_json(const struct mb_lat_hist *h)
{
	struct mb_json *arr = mb_json_array(), *row;

	for (__u32 i = 0; arr && i < MB_LAT_BUCKETS; i++) {
		__u64 low = mb_lat_bucket_low(i), high = mb_lat_bucket_high(i);

		if (!h->bucket[i])
			continue;
		if (i == MB_LAT_BUCKETS - 1)
			high = h->max > low ? h->max : low;
		row = mb_json_array();
		if (mb_json_append(row, mb_json_uint(low)) || mb_json_append(row, mb_json_uint(high)) ||
		    mb_json_append(row, mb_json_uint(h->bucket[i])) || mb_json_len(row) != 3) {
			mb_json_free(row);
			row = NULL;
		}
		if (mb_json_append(arr, row)) {
			mb_json_free(arr);
			arr = NULL;
		}
	}
	return arr;
}

struct mb_json *mb_report_latency_json(const struct mb_run *run)
{
	const struct mb_latency *lat = run->latency;
	struct mb_latency_figures f;
	struct mb_json *o;

	if (!lat)
		return NULL;
	mb_latency_figures(lat, &f);
	o = mb_json_object();
	mb_json_set(o, "p50", num_or_null(f.p50));
	mb_json_set(o, "p90", num_or_null(f.p90));
	mb_json_set(o, "p99", num_or_null(f.p99));
	mb_json_set(o, "p999", num_or_null(f.p999));
	mb_json_set(o, "max", num_or_null(f.max));
	mb_json_set_num(o, "count", (double)f.count);
	mb_json_set(o, "timer_ns", num_or_null(f.timer_ns));
	mb_json_set(o, "every", lat->every ? mb_json_number(lat->every) : mb_json_null());
	mb_json_set(o, "ops_per_timed", lat->ops_per_timed ? mb_json_number(lat->ops_per_timed) :
							      mb_json_null());
	mb_json_set_str(o, "why", lat->why[0] ? lat->why : NULL);
	mb_json_set(o, "buckets", buckets_json(&lat->op));
	return o;
}

void mb_text_latency(FILE *f, const struct mb_run *run)
{
	const struct mb_latency *lat = run->latency;
	struct mb_latency_figures fig;
	char what[96];

	if (!lat)
		return;
	mb_latency_figures(lat, &fig);
	if (lat->why[0] || !fig.count) {
		fprintf(f, "Per-op: not available: %s\n", lat->why[0] ? lat->why : "no op was timed");
		return;
	}
	/* What was timed: ops, iterations of several, or what the driver names (batch calls). */
	if (lat->timed)
		snprintf(what, sizeof(what), "%s of %u ops", lat->timed, lat->ops_per_timed);
	else
		snprintf(what, sizeof(what), "%s", lat->ops_per_timed > 1 ? "iterations" : "ops");
	fprintf(f, "Per-op: p50 %.1f, p90 %.1f, p99 %.1f, p99.9 %.1f, max %.1f ns over %llu timed %s (1 in %u); timer %.1f ns, included\n",
		fig.p50, fig.p90, fig.p99, fig.p999, fig.max, (unsigned long long)fig.count, what,
		lat->every, fig.timer_ns);
}

/* The CSV's latency columns, in the order of mb_csv_latency_header. */
static const char *const csv_keys[] = { "p50", "p90", "p99", "p999", "max", "count", "timer_ns" };

const char *const mb_csv_latency_header = ",latency_p50,latency_p90,latency_p99,latency_p999,latency_max,latency_count,timer_ns";

void mb_csv_latency_end(FILE *f, const struct mb_json *lat, bool columns)
{
	char num[64];

	if (!columns) {
		fputc('\n', f);
		return;
	}
	for (size_t k = 0; k < sizeof(csv_keys) / sizeof(*csv_keys); k++) {
		const struct mb_json *v = lat ? mb_json_get(lat, csv_keys[k]) : NULL;

		fputc(',', f);
		if (v && mb_json_is(v, MB_JSON_NUMBER)) {
			mb_json_number_text(v, num, sizeof(num));
			fputs(num, f);
		}
	}
	fputc('\n', f);
}
