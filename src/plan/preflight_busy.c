// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The preflight's cpu_busy check: how busy the CPUs a run will use were over a short window just
 * before it, from two readings of /proc/stat. Judged by what runs now: a load average would
 * still count the runs of the last minutes (mapbench's own among them).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sys/cpustat.h"
#include "util/json.h"
#include "preflight.h"

/* Busy CPUs named in the message; the rest are counted. */
#define NAMED_MAX	4

struct busy_scan {
	int judged;		/* CPUs looked at */
	int known;		/* ... with a reading in both */
	int busy;		/* ... at or above the threshold */
	double max_pct;		/* the busiest one's share, in % */
	struct mb_json *cpus;
	char named[NAMED_MAX * 48];
};

/* A share in % with one decimal: the figure shown is the figure judged. */
static double pct(double fraction)
{
	return round(fraction * 1000) / 10;
}

static void note_cpu(struct busy_scan *sc, bool pinned, int cpu, const struct mb_cpu_busy *b)
{
	double busy = pct(b->busy), steal = pct(b->steal);
	bool above = busy >= MB_PREFLIGHT_BUSY_PCT;
	size_t len = strlen(sc->named);

	sc->known++;
	if (busy > sc->max_pct)
		sc->max_pct = busy;
	if (pinned || above) {
		struct mb_json *o = mb_json_object();

		mb_json_set_num(o, "cpu", cpu);
		mb_json_set_num(o, "busy_pct", busy);
		mb_json_set_num(o, "steal_pct", steal);
		mb_json_append(sc->cpus, o);
	}
	if (!above)
		return;
	if (sc->busy < NAMED_MAX)
		snprintf(sc->named + len, sizeof(sc->named) - len,
			 "%sCPU %d was %.0f %% busy (steal %.0f %%)", sc->busy ? ", " : "", cpu,
			 busy, steal);
	sc->busy++;
}

static void scan(const struct mb_preflight_in *in, const struct mb_cpustat *a,
		 const struct mb_cpustat *b, struct busy_scan *sc)
{
	bool pinned = in->use->pinned.count > 0;
	const struct mb_cpuset *set = pinned ? &in->use->pinned : in->online;
	struct mb_cpu_busy cb;

	for (int cpu = mb_cpuset_next(set, 0); cpu >= 0; cpu = mb_cpuset_next(set, cpu + 1)) {
		sc->judged++;
		if (mb_cpustat_busy(a, b, cpu, &cb))
			note_cpu(sc, pinned, cpu, &cb);
	}
	if (sc->busy > NAMED_MAX) {
		size_t len = strlen(sc->named);

		snprintf(sc->named + len, sizeof(sc->named) - len, " and %d more",
			 sc->busy - NAMED_MAX);
	}
}

static struct mb_json *measured(const struct mb_preflight_in *in, const struct busy_scan *sc)
{
	struct mb_json *m = mb_json_object();

	mb_json_set_num(m, "window_ms", in->window_ms);
	mb_json_set_num(m, "threshold_pct", MB_PREFLIGHT_BUSY_PCT);
	mb_json_set_bool(m, "pinned", in->use->pinned.count > 0);
	mb_json_set_num(m, "threads", in->use->threads);
	mb_json_set_num(m, "free_cpus", sc->judged - sc->busy);
	mb_json_set(m, "cpus", sc->cpus);
	return m;
}

/* The verdict and its message: a pinned CPU busy, or too few idle CPUs for unpinned threads. */
static const char *verdict(const struct mb_preflight_in *in, const struct busy_scan *sc,
			   char *msg, size_t len)
{
	int free_cpus = sc->judged - sc->busy;

	if (!in->stat_before || !in->stat_after) {
		snprintf(msg, len, "cannot read /proc/stat");
		return "unknown";
	}
	if (!sc->known) {
		snprintf(msg, len, "no CPU time of the CPUs the run uses in /proc/stat over %d ms",
			 in->window_ms);
		return "unknown";
	}
	if (in->use->pinned.count && sc->busy) {
		snprintf(msg, len,
			 "%s over %d ms before the run: other tasks compete for the CPUs the run is pinned to (wait for them, stop them, or pin the run to idle CPUs with --prod-affinity)",
			 sc->named, in->window_ms);
		return "warning";
	}
	if (!in->use->pinned.count && free_cpus < in->use->threads) {
		snprintf(msg, len,
			 "%s over %d ms before the run: %d of %d online CPUs left for %d producer%s, other tasks compete for the CPUs (wait for them, or stop them)",
			 sc->named, in->window_ms, free_cpus, sc->judged, in->use->threads,
			 in->use->threads == 1 ? "" : "s");
		return "warning";
	}
	msg[0] = '\0';
	return "ok";
}

struct mb_json *mb_preflight_busy(const struct mb_preflight_in *in, bool *warned)
{
	struct mb_cpustat a = { 0 }, b = { 0 };
	struct busy_scan sc = { .cpus = mb_json_array() };
	struct mb_json *o = mb_json_object();
	const char *status;
	char msg[768];

	if (in->stat_before && in->stat_after && !mb_cpustat_parse(in->stat_before, &a) &&
	    !mb_cpustat_parse(in->stat_after, &b))
		scan(in, &a, &b, &sc);
	mb_cpustat_free(&a);
	mb_cpustat_free(&b);
	status = verdict(in, &sc, msg, sizeof(msg));
	mb_json_set_str(o, "check", "cpu_busy");
	mb_json_set_str(o, "status", status);
	mb_json_set(o, "value", sc.known ? mb_json_number(sc.max_pct) : mb_json_null());
	mb_json_set(o, "message", msg[0] ? mb_json_string(msg) : mb_json_null());
	mb_json_set(o, "measured", measured(in, &sc));
	*warned = !strcmp(status, "warning");
	return o;
}
