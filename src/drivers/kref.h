/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The drift reference of the in-kernel benches: every producer runs a fixed amount of the empty
 * in-kernel loop (reference.bpf.c) several times per sample interval, between its bench
 * calls; each sample keeps the median ns/op of the calls made during it. The summary flags a
 * sample whose median moved away from the run's (core/summary.c): the machine's speed changed.
 */
#ifndef MB_KREF_H
#define MB_KREF_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "kloop_shared.h"
#include "core/bench.h"

#define MB_KREF_SHARE		0.004	/* the calls take this share of each producer's time */
#define MB_KREF_CALLS		16	/* ... in this many calls per interval, */
#define MB_KREF_MIN_CALL_NS	25000	/* each at least this long (fewer calls if need be) */

struct mb_kref;

/*
 * Plan the calls for @run (its interval and producers) from the loop's cost @loop_ns per op and
 * log them; @prog_fd runs the empty loop, @slots is its .bss. NULL when out of memory.
 */
struct mb_kref *mb_kref_new(const struct mb_run *run, int prog_fd, struct mb_slot *slots,
			    double loop_ns);
void mb_kref_free(struct mb_kref *kr);

/* Producer side: run a call when due (@next_ref: the producer's schedule, start at 0). */
int mb_kref_call(struct mb_kref *kr, struct mb_producer *p, struct mb_counters *c,
		 uint64_t *next_ref);

/*
 * Sampler side: the median ns/op of the calls logged since the last sample into
 * @s->ref_median and @s->ref_calls; with @s NULL, forget the calls made so far.
 */
void mb_kref_sample(struct mb_kref *kr, struct mb_sample *s);

/*
 * A sample's reference figure from the ns/op of its @n calls (reordered): their median, which
 * the few calls an interrupt lengthened do not move. NaN without a call.
 */
double mb_kref_statistic(double *ns_op, size_t n);

#endif
