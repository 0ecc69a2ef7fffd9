/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What --latency measured of a run's ops, one op in @every timed on its own (docs/output.md,
 * latency_ns): the driver that times them fills it (drivers/kloop_latency.c), output reads it,
 * core carries it (run->latency, NULL without --latency) and frees it with the run.
 */
#ifndef MB_LATENCY_H
#define MB_LATENCY_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/lat_hist.h"

struct mb_user_lat;

struct mb_latency {
	struct mb_lat_hist op;		/* the measured samples' timed ops (warm-up left out) */
	struct mb_lat_hist timer;	/* the same samples' empty clock pairs */
	unsigned int every;		/* one op (loop iteration) in this many was timed */
	unsigned int ops_per_timed;	/* the ops one timed iteration holds (1 but map-mixed's 3) */
	const char *timed;		/* what one is, plural, for the text (NULL: ops, iterations) */
	char why[256];			/* not measured: why (empty when it was) */
	/* The driver's: its histogram map (-1: none yet) and what it read there last. */
	int fd;
	struct mb_lat_hist *last_op, *last_timer;
	/* Or, on a path that times ops in user space, the producers' own histograms. */
	struct mb_user_lat *user;
	int nr_user;
};

/* The figures of latency_ns, in ns (NaN where nothing was timed). */
struct mb_latency_figures {
	double p50, p90, p99, p999, max;
	uint64_t count;
	double timer_ns;		/* the empty clock pair's median */
};

void mb_latency_figures(const struct mb_latency *lat, struct mb_latency_figures *f);

/*
 * A timing driver's new reading of its cumulative histograms @op and @timer: what they hold
 * beyond the last reading goes to the run's figures when @measured (a warm-up sample's, or
 * the baseline's, does not), and the reading becomes the last. 0, or -ENOMEM.
 */
int mb_latency_take(struct mb_latency *lat, const struct mb_lat_hist *op,
		    const struct mb_lat_hist *timer, bool measured);
/*
 * A timing driver's sample hook, whole: @read puts the driver's cumulative histograms into @op
 * and @timer (0, or a negative errno), and mb_latency_take takes them. 0, or a negative errno.
 */
typedef int (*mb_latency_read_fn)(const struct mb_latency *lat, struct mb_lat_hist *op,
				  struct mb_lat_hist *timer);
int mb_latency_sample(struct mb_latency *lat, mb_latency_read_fn read, bool measured);
/* Frees the last reading mb_latency_take keeps (again: nothing). */
void mb_latency_forget(struct mb_latency *lat);

#endif
