// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-owners' text: the stock throughput and latency lines (one op: an owner of the
 * --nr_maps config made and destroyed), after the Owners line, which sets the three configs'
 * ns per owner side by side with the storage's share (the difference from none).
 */
#include <math.h>
#include <stdio.h>

#include "ls_owner.h"
#include "util/json.h"
#include "util/log.h"
#include "core/summary.h"
#include "output/report.h"

static double metric(const struct mb_summary *sum, int m)
{
	return sum->has_metric[m] ? sum->metric[m].mean : NAN;
}

static void ls_owner_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	const struct mb_json *x = run->extra;
	double none = metric(sum, LS_OWNER_M_NONE), one = metric(sum, LS_OWNER_M_ONE);
	double n = metric(sum, LS_OWNER_M_N), maps = mb_json_num(mb_json_get(x, "nr_maps"), 0);

	if (!mb_log_quiet() && x)
		fprintf(f, "Owners: %s (%s), made and destroyed, ns per owner: with no storage %.1f, 1 storage %.1f (%+.1f), %.0f storages %.1f (%+.1f, %+.1f per map); attaching by update, not timed: %.1f ns per storage\n",
			mb_json_str(mb_json_get(x, "owner"), "?"),
			mb_json_str(mb_json_get(x, "owner_fd"), "?"), none, one, one - none, maps,
			n, n - none, maps > 0 ? (n - none) / maps : NAN,
			metric(sum, LS_OWNER_M_ATTACH));
	mb_text_ops.summary(f, run, sum);
}

static void ls_owner_progress(FILE *f, const struct mb_run *run, int iter,
			      const struct mb_sample *s)
{
	mb_text_ops.progress(f, run, iter, s);
}

static void ls_owner_figures(const struct mb_run *run, const struct mb_summary *sum,
			     struct mb_json *figs)
{
	mb_text_ops.figures(run, sum, figs);
}

const struct mb_text_style ls_owner_text = {
	.progress = ls_owner_progress,
	.summary = ls_owner_summary,
	.figures = ls_owner_figures,
};
