/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One call of a bench's op loop as every caller of mb_kloop_produce() makes it: the producer's
 * calls and the linearity check's (kloop_linearity.h) go through the same path, so the check
 * times the calls the samples count.
 */
#ifndef MB_KLOOP_STEP_H
#define MB_KLOOP_STEP_H

#include <stdint.h>

#include "core/bench.h"

struct mb_kloop_cfg;
struct mb_slot;

/* A slot's counters as a producer publishes them (ops times @ops_per_iter, 0 meaning 1). */
void mb_kloop_slot_counters(const struct mb_slot *s, uint32_t ops_per_iter, struct mb_counters *c);

/*
 * Call @cfg's program with @iters iterations for @p, then read its slot into @c and hand a
 * bench's return value to cfg->on_ret (its wall time added to c->excluded_ns). Returns the
 * program's return value (>= 0), or a negative errno (the call, bad arguments, on_ret).
 */
int mb_kloop_step(struct mb_run *run, struct mb_producer *p, const struct mb_kloop_cfg *cfg,
		  uint64_t iters, struct mb_counters *c);

#endif
