// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "store_record.h"
#include "util/json.h"

bool mb_store_result_kept(const struct mb_json *result)
{
	return !strcmp(mb_json_str(mb_json_get(result, "status"), ""), "ok");
}

static char *json_text(const struct mb_json *v)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	if (mb_json_write(f, v, 0)) {
		fclose(f);
		free(text);
		return NULL;
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

struct param {
	const char *name;
	char value[256];
};

static int cmp_param(const void *a, const void *b)
{
	return strcmp(((const struct param *)a)->name, ((const struct param *)b)->name);
}

char *mb_store_canonical_params(const struct mb_json *result)
{
	const struct mb_json *params = mb_json_get(result, "params");
	const struct mb_json *config = mb_json_get(result, "config");
	size_t np = mb_json_len(params), n = 0, size = 0;
	struct param *p = calloc(np + 1, sizeof(*p));
	char *text = NULL;
	FILE *f;

	if (!p)
		return NULL;
	for (size_t i = 0; i < np; i++, n++) {
		p[n].name = mb_json_key_at(params, i);
		mb_json_scalar_text(mb_json_at(params, i), p[n].value, sizeof(p[n].value));
	}
	/* Producers change what a run measures as much as a parameter does (a sweep varies it). */
	if (mb_json_get(config, "producers") && !mb_json_get(params, "producers")) {
		p[n].name = "producers";
		mb_json_scalar_text(mb_json_get(config, "producers"), p[n].value,
				    sizeof(p[n].value));
		n++;
	}
	qsort(p, n, sizeof(*p), cmp_param);
	f = open_memstream(&text, &size);
	if (f) {
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s%s=%s", i ? "," : "", p[i].name, p[i].value);
		if (fclose(f)) {
			free(text);
			text = NULL;
		}
	}
	free(p);
	return text;
}

/* FNV-1a, 64 bits: a short, stable name for a long text (the mitigations). */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The mitigations: a hash of each vulnerability's state, in name order; 0 when unknown. */
static uint64_t mitigations_hash(const struct mb_json *vulns)
{
	size_t n = mb_json_len(vulns);
	const char **names = calloc(n + 1, sizeof(*names));
	uint64_t h = 0xcbf29ce484222325ULL;

	if (!names || !n || !mb_json_is(vulns, MB_JSON_OBJECT)) {
		free(names);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		names[i] = mb_json_key_at(vulns, i);
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		h = fnv1a(h, names[i]);
		h = fnv1a(h, "=");
		h = fnv1a(h, mb_json_str(mb_json_get(vulns, names[i]), "?"));
		h = fnv1a(h, "\n");
	}
	free(names);
	return h;
}

char *mb_store_machine_class(const struct mb_json *context)
{
	const struct mb_json *cpu = mb_json_get(context, "cpu");
	const struct mb_json *kernel = mb_json_get(context, "kernel");
	const struct mb_json *mc = mb_json_get(cpu, "microcode");
	char family[32], model[32], microcode[64], *text = NULL;
	uint64_t mitig = mitigations_hash(mb_json_get(cpu, "vulnerabilities"));

	mb_json_scalar_text(mb_json_get(cpu, "family"), family, sizeof(family));
	mb_json_scalar_text(mb_json_get(cpu, "model"), model, sizeof(model));
	if (mc && !mb_json_is(mc, MB_JSON_NULL))
		mb_json_scalar_text(mc, microcode, sizeof(microcode));
	else
		snprintf(microcode, sizeof(microcode), "unknown");
	if (asprintf(&text, "%s %s/%s microcode %s mitigations %016" PRIx64 " config %s",
		     mb_json_str(mb_json_get(cpu, "vendor"), "unknown"), family, model, microcode,
		     mitig, mb_json_str(mb_json_get(kernel, "config_hash"), "unknown")) < 0)
		return NULL;
	return text;
}

/* The headline figure's statistics, its unit, its direction, and each sample's value. */
static int take_headline(const struct mb_json *result, struct mb_store_record *rec)
{
	const struct mb_json *sum = mb_json_get(result, "summary");
	const struct mb_json *samples = mb_json_get(result, "samples"), *st;

	rec->mean = rec->median = rec->stddev = rec->cv = NAN;
	rec->noisy = mb_json_truthy(mb_json_get(sum, "noisy"));
	if (!mb_json_is(sum, MB_JSON_OBJECT))
		return 0;
	/* Schema 1 has no headline: throughput led. */
	rec->figure = mb_json_str(mb_json_get(mb_json_get(sum, "headline"), "figure"),
				  "throughput");
	st = mb_json_get(sum, rec->figure);
	rec->unit = mb_json_str(mb_json_get(st, "unit"), "");
	rec->higher_is_better = strcmp(rec->figure, "latency_kernel") != 0;
	rec->mean = mb_json_num(mb_json_get(st, "mean"), NAN);
	rec->median = mb_json_num(mb_json_get(st, "median"), NAN);
	rec->stddev = mb_json_num(mb_json_get(st, "stddev"), NAN);
	rec->cv = mb_json_num(mb_json_get(st, "cv"), NAN);
	rec->samples = calloc(mb_json_len(samples) + 1, sizeof(double));
	if (!rec->samples)
		return -ENOMEM;
	for (size_t i = 0; i < mb_json_len(samples); i++) {
		const struct mb_json *s = mb_json_at(samples, i);

		if (mb_json_truthy(mb_json_get(s, "warmup")))
			continue;
		rec->samples[rec->nsamples++] = mb_json_num(mb_json_get(s, rec->figure), NAN);
	}
	return 0;
}

/*
 * What the result measured, as a hash: the headline figure of each sample and each figure the
 * text prints (a one-shot bench has no samples), to the last bit.
 */
static uint64_t measured_hash(const struct mb_json *result, const struct mb_store_record *rec)
{
	const struct mb_json *figs = mb_json_get(result, "figures");
	uint64_t h = 0xcbf29ce484222325ULL;
	char num[64];

	for (int i = 0; i < rec->nsamples; i++) {
		snprintf(num, sizeof(num), "%.17g;", rec->samples[i]);
		h = fnv1a(h, num);
	}
	for (size_t i = 0; i < mb_json_len(figs); i++) {
		const struct mb_json *fig = mb_json_at(figs, i);

		h = fnv1a(h, mb_json_str(mb_json_get(fig, "name"), ""));
		snprintf(num, sizeof(num), "=%.17g;", mb_json_num(mb_json_get(fig, "value"), NAN));
		h = fnv1a(h, num);
	}
	return h;
}

/*
 * What makes a result the same one again, whether the --db sink added it as it finished or an
 * import read it from the document later: the host, the command line, the bench and its
 * parameters, when it started and ended, its mean and what it measured (to the last bit).
 */
static char *dedupe_key(const struct mb_json *context, const struct mb_json *result,
			const struct mb_store_record *rec)
{
	char *cmdline = json_text(mb_json_get(context, "command_line")), *key = NULL;

	if (!cmdline)
		return NULL;
	if (asprintf(&key, "%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%.17g\x1f%d\x1f%016" PRIx64,
		     rec->hostname, cmdline, rec->bench, rec->params, rec->time, rec->end_time,
		     rec->mean, rec->nsamples, measured_hash(result, rec)) < 0)
		key = NULL;
	free(cmdline);
	return key;
}

static void take_context(const struct mb_json *context, const struct mb_json *result,
			 struct mb_store_record *rec)
{
	rec->time = mb_json_str(mb_json_get(result, "start_time"), NULL);
	if (!rec->time)
		rec->time = mb_json_str(mb_json_get(context, "time"), "");
	rec->end_time = mb_json_str(mb_json_get(result, "end_time"), rec->time);
	rec->bench = mb_json_str(mb_json_get(result, "bench"), "");
	rec->family = mb_json_str(mb_json_get(result, "family"), "");
	rec->status = mb_json_str(mb_json_get(result, "status"), "");
	rec->kernel = mb_json_str(mb_json_get(mb_json_get(context, "kernel"), "release"), "");
	rec->hostname = mb_json_str(mb_json_get(context, "hostname"), "");
	rec->version = mb_json_str(mb_json_get(context, "version"), "");
	rec->git_revision = mb_json_str(mb_json_get(context, "git_revision"), "");
}

int mb_store_record_make(const struct mb_json *context, const struct mb_json *result,
			 struct mb_store_record *rec, char *err, size_t errlen)
{
	memset(rec, 0, sizeof(*rec));
	if (!mb_json_is(context, MB_JSON_OBJECT) || !mb_json_is(result, MB_JSON_OBJECT) ||
	    !mb_json_str(mb_json_get(result, "bench"), NULL)) {
		snprintf(err, errlen, "not a mapbench result (a context and a result with a bench)");
		return -EINVAL;
	}
	take_context(context, result, rec);
	rec->params = mb_store_canonical_params(result);
	rec->machine_class = mb_store_machine_class(context);
	rec->result_json = json_text(result);
	rec->context_json = json_text(context);
	if (!rec->params || !rec->machine_class || !rec->result_json || !rec->context_json ||
	    take_headline(result, rec))
		goto nomem;
	rec->dedupe_key = dedupe_key(context, result, rec);
	if (!rec->dedupe_key)
		goto nomem;
	return 0;
nomem:
	mb_store_record_free(rec);
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

void mb_store_record_free(struct mb_store_record *rec)
{
	free(rec->dedupe_key);
	free(rec->params);
	free(rec->machine_class);
	free(rec->samples);
	free(rec->result_json);
	free(rec->context_json);
	memset(rec, 0, sizeof(*rec));
}
