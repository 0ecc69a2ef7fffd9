// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "latency.h"

void mb_latency_figures(const struct mb_latency *lat, struct mb_latency_figures *f)
{
	f->p50 = mb_lat_hist_percentile(&lat->op, 50);
	f->p90 = mb_lat_hist_percentile(&lat->op, 90);
	f->p99 = mb_lat_hist_percentile(&lat->op, 99);
	f->p999 = mb_lat_hist_percentile(&lat->op, 99.9);
	f->max = mb_lat_hist_max(&lat->op);
	f->count = lat->op.count;
	f->timer_ns = mb_lat_hist_percentile(&lat->timer, 50);
}
