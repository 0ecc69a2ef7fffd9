// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-tasks-trace's bookkeeping, apart from the programs so that the tests run it
 * with counts of their own: a sample's metrics from two readings of the programs' counts, the
 * measured samples' totals, and the verdict a run must pass before it reports a figure.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ls_trace.h"

void ls_trace_fill_sample(struct mb_sample *s, const struct ls_trace_counts *last,
			  const struct ls_trace_counts *now, long ticks_last, long ticks_now)
{
	s->metric[LS_TRACE_M_GP] = (double)(now->gp_hits - last->gp_hits);
	s->metric[LS_TRACE_M_GP_NS] = (double)(now->gp_ns - last->gp_ns);
	s->metric[LS_TRACE_M_TICKS] = ticks_last >= 0 && ticks_now >= 0 ?
				      (double)(ticks_now - ticks_last) : NAN;
}

void ls_trace_totals(const struct mb_run *run, struct ls_trace_totals *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < run->nr_samples; i++) {
		const struct mb_sample *s = &run->samples[i];

		if (s->warmup)
			continue;
		t->samples++;
		t->gp += (uint64_t)s->metric[LS_TRACE_M_GP];
		t->ops += s->total.ops;
		t->without_gp += !(s->metric[LS_TRACE_M_GP] > 0);
		t->without_ticks += isnan(s->metric[LS_TRACE_M_TICKS]);
	}
}

int ls_trace_verdict(const struct ls_trace_counts *c, const struct ls_trace_totals *t,
		     bool gp_loaded, char *why, size_t len)
{
	if (c->unexpected)
		snprintf(why, len, "%llu grace periods ended without their start (%s before %s): the latencies cannot be trusted",
			 (unsigned long long)c->unexpected, LS_TRACE_GP_END, LS_TRACE_GP_START);
	else if (!t->ops)
		snprintf(why, len, "the storage program made no storage in the producer (%llu get(F_CREATE) calls returned NULL)",
			 (unsigned long long)c->get_fails);
	else if (!gp_loaded)
		snprintf(why, len, "no grace period was timed: the grace-period programs were left out (%s), so no figure is reported",
			 LS_TRACE_NO_GP_ENV);
	else if (!t->gp)
		snprintf(why, len, "no RCU Tasks Trace grace period ended in the %d measured samples, although %llu storages were deleted: nothing to time",
			 t->samples, (unsigned long long)t->ops);
	else
		return 0;
	return -EIO;
}
