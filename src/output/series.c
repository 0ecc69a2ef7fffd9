// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Runs of the results history grouped into series, for gate, trend and report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"

static bool same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

static struct mb_series *find(struct mb_series_set *set, const struct mb_series_input *in)
{
	for (size_t i = 0; i < set->nr; i++) {
		struct mb_series *s = &set->s[i];

		if (same(s->bench, in->bench) && same(s->params, in->params) &&
		    same(s->machine_class, in->machine_class) &&
		    (!set->by_kernel || same(s->kernel, in->kernel)))
			return s;
	}
	return NULL;
}

static struct mb_series *make(struct mb_series_set *set, const struct mb_series_input *in)
{
	struct mb_series *s;

	if (set->nr == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 16;
		struct mb_series *p = realloc(set->s, cap * sizeof(*p));

		if (!p)
			return NULL;
		set->s = p;
		set->cap = cap;
	}
	s = &set->s[set->nr++];
	memset(s, 0, sizeof(*s));
	s->bench = dup_or_empty(in->bench);
	s->params = dup_or_empty(in->params);
	s->machine_class = dup_or_empty(in->machine_class);
	s->figure = dup_or_empty(in->figure);
	s->unit = dup_or_empty(in->unit);
	s->higher_is_better = in->higher_is_better;
	if (set->by_kernel)
		s->kernel = dup_or_empty(in->kernel);
	if (!s->bench || !s->params || !s->machine_class || !s->figure || !s->unit ||
	    (set->by_kernel && !s->kernel))
		return NULL;
	return s;
}

static int add_run(struct mb_series *s, const struct mb_series_input *in)
{
	struct mb_series_run *r;

	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct mb_series_run *p = realloc(s->runs, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->runs = p;
		s->cap = cap;
	}
	r = &s->runs[s->nr++];
	memset(r, 0, sizeof(*r));
	r->id = in->id;
	r->mean = in->mean;
	r->median = in->median;
	r->stddev = in->stddev;
	r->noisy = in->noisy;
	r->time = dup_or_empty(in->time);
	r->kernel = dup_or_empty(in->kernel);
	r->version = dup_or_empty(in->version);
	r->hostname = dup_or_empty(in->hostname);
	r->samples = malloc((in->n + 1) * sizeof(double));
	if (!r->time || !r->kernel || !r->version || !r->hostname || !r->samples)
		return -ENOMEM;
	if (in->n)
		memcpy(r->samples, in->samples, in->n * sizeof(double));
	r->n = in->n;
	return 0;
}

int mb_series_add(struct mb_series_set *set, const struct mb_series_input *in)
{
	struct mb_series *s = find(set, in);

	if (!s)
		s = make(set, in);
	return s ? add_run(s, in) : -ENOMEM;
}

void mb_series_number_machines(struct mb_series_set *set)
{
	int next = 0;

	for (size_t i = 0; i < set->nr; i++) {
		struct mb_series *s = &set->s[i];

		s->machine = 0;
		for (size_t j = 0; j < i && !s->machine; j++)
			if (same(set->s[j].machine_class, s->machine_class))
				s->machine = set->s[j].machine;
		if (!s->machine)
			s->machine = ++next;
	}
}

int mb_series_machines(const struct mb_series_set *set, const char *bench)
{
	int count = 0;

	for (size_t i = 0; i < set->nr; i++) {
		bool seen = false;

		if (bench && !same(set->s[i].bench, bench))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = (!bench || same(set->s[j].bench, bench)) &&
			       set->s[j].machine == set->s[i].machine;
		count += !seen;
	}
	return count;
}

const char *mb_series_machine_class(const struct mb_series_set *set, int machine)
{
	for (size_t i = 0; i < set->nr; i++)
		if (set->s[i].machine == machine)
			return set->s[i].machine_class;
	return NULL;
}

static void free_series(struct mb_series *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->runs[i].time);
		free(s->runs[i].kernel);
		free(s->runs[i].version);
		free(s->runs[i].hostname);
		free(s->runs[i].samples);
	}
	free(s->runs);
	free(s->bench);
	free(s->params);
	free(s->machine_class);
	free(s->kernel);
	free(s->figure);
	free(s->unit);
}

void mb_series_free(struct mb_series_set *set)
{
	for (size_t i = 0; i < set->nr; i++)
		free_series(&set->s[i]);
	free(set->s);
	set->s = NULL;
	set->nr = set->cap = 0;
}

/* Whether "key=value" @pair (of @klen key bytes, @plen in all) is in @params. */
static bool has_pair(const char *params, const char *pair, size_t plen)
{
	for (const char *p = params; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		size_t n = strcspn(p, ",");

		if (n == plen && !strncmp(p, pair, plen))
			return true;
	}
	return false;
}

/* Whether a series of @s's bench lacks the pair @pair of @s. */
static bool pair_varies(const struct mb_series_set *set, const struct mb_series *s,
			const char *pair, size_t plen)
{
	for (size_t i = 0; i < set->nr; i++)
		if (&set->s[i] != s && !strcmp(set->s[i].bench, s->bench) &&
		    !has_pair(set->s[i].params, pair, plen))
			return true;
	return false;
}

void mb_series_short_params(const struct mb_series_set *set, const struct mb_series *s,
			    char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const char *p = s->params; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		size_t n = strcspn(p, ",");
		int w;

		if (!pair_varies(set, s, p, n))
			continue;
		w = snprintf(buf + used, len - used, "%s%.*s", used ? "," : "", (int)n, p);
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
	if (!used)
		snprintf(buf, len, "-");
}
