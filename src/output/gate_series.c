// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The gate over the series of the results history: the latest run of each against its window. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"

static const struct mb_series_run *last_run(const struct mb_series *s)
{
	return &s->runs[s->nr - 1];
}

static int judge_series(const struct mb_series_set *set, const struct mb_series *s,
			const struct mb_gate_opts *o, int window, struct mb_gate_row *row)
{
	size_t first = s->nr - 1 > (size_t)window ? s->nr - 1 - (size_t)window : 0;
	int nprev = (int)(s->nr - 1 - first), ret;
	struct mb_gate_run *prev = calloc((size_t)nprev + 1, sizeof(*prev));
	const struct mb_series_run *last = last_run(s);
	struct mb_gate_run latest = { .samples = last->samples, .n = last->n };

	if (!prev)
		return -ENOMEM;
	for (int i = 0; i < nprev; i++) {
		prev[i].samples = s->runs[first + (size_t)i].samples;
		prev[i].n = s->runs[first + (size_t)i].n;
	}
	row->bench = s->bench;
	row->params = s->params;
	mb_series_short_params(set, s, row->label, sizeof(row->label));
	if (mb_series_machines(set, s->bench) > 1) {
		size_t len = strcmp(row->label, "-") ? strlen(row->label) : 0;

		snprintf(row->label + len, sizeof(row->label) - len, "%smachine %d", len ? ", " : "",
			 s->machine);
		row->machine_shown = true;
	}
	row->machine = s->machine;
	row->kernel = last->kernel;
	row->machine_class = s->machine_class;
	row->time = last->time;
	row->unit = s->unit;
	row->higher_is_better = s->higher_is_better;
	ret = mb_gate_judge(prev, nprev, &latest, s->higher_is_better, o, &row->r);
	free(prev);
	return ret;
}

/*
 * Whether series @i is of an older kernel than another of its bench, parameters and machine
 * class: only the latest run of those is judged, with the runs of its own kernel.
 */
static bool superseded(const struct mb_series_set *set, size_t i)
{
	const struct mb_series *s = &set->s[i];
	const struct mb_series_run *mine = last_run(s);

	for (size_t j = 0; j < set->nr; j++) {
		const struct mb_series *o = &set->s[j];
		const struct mb_series_run *theirs;
		int c;

		if (j == i || !o->nr || strcmp(o->bench, s->bench) ||
		    strcmp(o->params, s->params) || strcmp(o->machine_class, s->machine_class))
			continue;
		theirs = last_run(o);
		c = strcmp(theirs->time, mine->time);
		if (c > 0 || (!c && theirs->id > mine->id))
			return true;
	}
	return false;
}

int mb_gate_series(const struct mb_series_set *set, const struct mb_gate_opts *o, int window,
		   struct mb_gate_row **rows, size_t *n)
{
	*n = 0;
	*rows = calloc(set->nr + 1, sizeof(**rows));
	if (!*rows)
		return -ENOMEM;
	for (size_t i = 0; i < set->nr; i++) {
		if (!set->s[i].nr || superseded(set, i))
			continue;
		if (judge_series(set, &set->s[i], o, window, &(*rows)[*n]))
			return -ENOMEM;
		(*n)++;
	}
	return 0;
}
