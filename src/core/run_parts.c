// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The parts of a split run: a run that measured several things at once (map-perf's tests,
 * interleaved on every producer) reports each as its own result, with its own samples,
 * summary and params, so that no figure averages different operations and compare, sweep
 * and the scrapers of the last Summary line see one operation per result.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "latency.h"
#include "run.h"
#include "run_parts.h"
#include "summary.h"

void mb_run_parts_free(struct mb_run *run)
{
	for (int k = 0; run->parts && k < run->nr_parts; k++)
		mb_run_free_results(&run->parts[k]);
	free(run->parts);
	run->parts = NULL;
	run->nr_parts = 0;
}

/* --latency: the run's timed ops mix its parts' operations, so a part has none of its own. */
static int part_latency(struct mb_run *part)
{
	part->latency = calloc(1, sizeof(*part->latency));
	if (!part->latency)
		return -1;
	part->latency->fd = -1;
	snprintf(part->latency->why, sizeof(part->latency->why), "this run measures several operations at once, and its timed ops mix them (per-op timing of each part is for later)");
	return 0;
}

/* The part's own copy of what it reports; the rest it shares with the run. */
static int part_init(struct mb_run *part, const struct mb_run *run, const char *name)
{
	*part = *run;
	part->parts = NULL;
	part->nr_parts = 0;
	part->priv = NULL;
	part->instrument_state = NULL;
	part->latency = NULL;
	part->summary = NULL;
	part->max_samples = run->nr_samples;
	part->samples = calloc((size_t)run->nr_samples + 1, sizeof(*part->samples));
	part->params = run->params ? mb_json_copy(run->params) : mb_json_object();
	part->extra = mb_json_object();
	part->warnings = mb_json_copy(run->warnings);
	snprintf(part->part_name, sizeof(part->part_name), "%s", name);
	if (run->latency && part_latency(part))
		return -1;
	if (!part->samples || !part->params || !part->extra || !part->warnings ||
	    mb_json_set_str(part->params, run->bench->part_param, name))
		return -1;
	for (int i = 0; i < run->nr_samples; i++) {
		struct mb_sample *s = &part->samples[i];

		s->start_ns = run->samples[i].start_ns;
		s->elapsed_ns = run->samples[i].elapsed_ns;
		s->warmup = run->samples[i].warmup;
		for (int m = 0; m < MB_MAX_METRICS; m++)
			s->metric[m] = NAN;
		s->prod = calloc((size_t)run->nr_producers, sizeof(*s->prod));
		if (!s->prod)
			return -1;
	}
	return 0;
}

struct mb_run *mb_run_add_part(struct mb_run *run, const char *name)
{
	int max = run->bench->nr_parts ? run->bench->nr_parts(run) : 0;
	struct mb_run *part;

	if (!run->parts)
		run->parts = calloc(max > 0 ? (size_t)max : 1, sizeof(*run->parts));
	if (!run->parts || run->nr_parts >= max)
		return NULL;
	part = &run->parts[run->nr_parts];
	if (part_init(part, run, name)) {
		mb_run_free_results(part);
		memset(part, 0, sizeof(*part));
		return NULL;
	}
	run->nr_parts++;
	return part;
}

/* Each sample's totals and covered time from the producers' counters the bench filled. */
static void part_totals(struct mb_run *part)
{
	for (int i = 0; i < part->nr_samples; i++) {
		struct mb_sample *s = &part->samples[i];

		memset(&s->total, 0, sizeof(s->total));
		for (int p = 0; p < part->nr_producers; p++) {
			const uint64_t *src = (const uint64_t *)&s->prod[p];
			uint64_t *dst = (uint64_t *)&s->total;

			for (size_t c = 0; c < MB_COUNTERS_NR; c++)
				dst[c] += src[c];
		}
		s->covered_ns = mb_sample_covered_ns(s, part->nr_producers);
	}
}

void mb_run_parts_summarize(struct mb_run *run)
{
	for (int k = 0; k < run->nr_parts; k++) {
		struct mb_run *part = &run->parts[k];

		part->status = run->status;
		memcpy(part->reason, run->reason, sizeof(part->reason));
		memcpy(part->end_time, run->end_time, sizeof(part->end_time));
		part->loop = run->loop;
		part->loop_overhead_ns = run->loop_overhead_ns;
		part_totals(part);
		part->summary = mb_summarize(part);
	}
}

int mb_run_nr_results(const struct mb_run *run)
{
	return run->nr_parts ? run->nr_parts : 1;
}

const struct mb_run *mb_run_result(const struct mb_run *run, int k)
{
	return run->nr_parts ? &run->parts[k] : run;
}
