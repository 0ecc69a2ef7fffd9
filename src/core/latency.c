// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

int mb_latency_take(struct mb_latency *lat, const struct mb_lat_hist *op,
		    const struct mb_lat_hist *timer, bool measured)
{
	if (!lat->last_op)
		lat->last_op = calloc(1, sizeof(*lat->last_op));
	if (!lat->last_timer)
		lat->last_timer = calloc(1, sizeof(*lat->last_timer));
	if (!lat->last_op || !lat->last_timer)
		return -ENOMEM;
	if (measured) {
		mb_lat_hist_add_difference(&lat->op, op, lat->last_op);
		mb_lat_hist_add_difference(&lat->timer, timer, lat->last_timer);
	}
	memcpy(lat->last_op, op, sizeof(*op));
	memcpy(lat->last_timer, timer, sizeof(*timer));
	return 0;
}

int mb_latency_sample(struct mb_latency *lat, mb_latency_read_fn read, bool measured)
{
	/* The histograms are 18 KiB each: off the sampler's stack. */
	struct mb_lat_hist *op = malloc(sizeof(*op)), *timer = malloc(sizeof(*timer));
	int err = op && timer ? read(lat, op, timer) : -ENOMEM;

	if (!err)
		err = mb_latency_take(lat, op, timer, measured);
	free(op);
	free(timer);
	return err;
}

void mb_latency_forget(struct mb_latency *lat)
{
	free(lat->last_op);
	free(lat->last_timer);
	lat->last_op = lat->last_timer = NULL;
}
