// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The op loop's linearity self-check (kloop_linearity.h). */
#include "core/env.h"
#include "core/run.h"
#include "kloop.h"
#include "kloop_linearity.h"
#include "kloop_step.h"
#include "util/linearity.h"
#include "util/log.h"

/*
 * One timed call of @iters iterations: its in-kernel time, as a sample's kernel_ns counts it.
 * -1 when the call did not run them all (a bench's return value, an op that failed): its
 * time is not the time of @iters iterations, and the check stops there.
 */
static int timed_call(struct mb_run *run, struct mb_producer *p, const struct mb_kloop_cfg *cfg,
		      uint64_t iters, double *ns)
{
	const struct mb_slot *slot = &cfg->slots[p->idx];
	uint64_t ns0 = slot->kernel_ns, ops0 = slot->ops;
	struct mb_counters scratch = {};
	int ret = mb_kloop_step(run, p, cfg, iters, &scratch);

	if (ret != MB_RET_OK || slot->ops - ops0 != iters) {
		mb_debug("%s: linearity check stopped: a call of %llu iterations returned %d after %llu",
			 run->bench->name, (unsigned long long)iters, ret,
			 (unsigned long long)(slot->ops - ops0));
		return -1;
	}
	*ns = (double)(slot->kernel_ns - ns0);
	return 0;
}

/* Whether the check runs: once, on the first producer, when the samples ended normally. */
static bool linearity_wanted(const struct mb_run *run, const struct mb_producer *p,
			     const struct mb_kloop_cfg *cfg)
{
	/* A bench that fixes its iterations per call has no call length to vary. */
	return p->idx == 0 && !cfg->fixed_iters && !run->env->no_linearity &&
	       !mb_interrupted() && cfg->slots[p->idx].ops;
}

void mb_kloop_linearity(struct mb_run *run, struct mb_producer *p, const struct mb_kloop_cfg *cfg,
			uint64_t max_iters)
{
	struct mb_linearity *lin = &run->loop.linearity;
	const struct mb_slot *slot = &cfg->slots[p->idx];
	double ns[2][MB_LINEARITY_CALLS];
	uint64_t n, t0 = mb_now_ns();

	if (!linearity_wanted(run, p, cfg))
		return;
	/* The run's own cost per iteration sizes N: a call of about 10 ms, as the kernel's. */
	n = mb_linearity_iters((double)slot->kernel_ns / (double)slot->ops, MB_LINEARITY_CALL_NS,
			       max_iters);
	if (!n)
		return;
	/* N, 2N, N, 2N ...: a drift of the machine's speed reaches both sets alike. */
	for (int i = 0; i < 2 * MB_LINEARITY_CALLS; i++)
		if (timed_call(run, p, cfg, n << (i & 1), &ns[i & 1][i / 2]))
			return;
	lin->n = n;
	if (mb_linearity_judge(ns[0], ns[1], MB_LINEARITY_CALLS, lin))
		return;
	mb_debug("%s: linearity check: N=%llu, ratio %.3f, %.1f ms", run->bench->name,
		 (unsigned long long)n, lin->ratio, (double)(mb_now_ns() - t0) / 1e6);
}

void mb_kloop_linearity_warn(struct mb_run *run)
{
	const struct mb_linearity *lin = &run->loop.linearity;

	if (lin->done && !lin->ok)
		mb_run_warn(run, "linearity: 2N ops took %.2f times as long as N (N=%llu iterations, median of %d calls each), not 2 within %.0f %%: per-op figures depend on the call length",
			    lin->ratio, (unsigned long long)lin->n, MB_LINEARITY_CALLS,
			    MB_LINEARITY_TOL * 100);
}
