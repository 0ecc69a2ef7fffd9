// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The in-kernel op loop as an instrument (core/bench.h): what the runner does around every run
 * of a bench that runs the loop, at the points it calls these hooks.
 */
#include <stddef.h>

#include "core/env.h"
#include "kloop.h"
#include "kloop_latency.h"
#include "kloop_linearity.h"
#include "loop_diag.h"
#include "loop_kind.h"
#include "reference.h"
#include "user_latency.h"
#include "sys/probe.h"

static int kloop_probe(const struct mb_run *run, char *why, size_t len)
{
	(void)run;
	return mb_probe_kernel_loop(why, len);
}

/* Every program of the run's op loops is loaded in this kind: the bench's and the reference. */
static int kloop_prepare(struct mb_run *run)
{
	enum mb_loop_kind requested = run->env->loop;

	mb_loop_kind_pick(requested, &run->loop);
	if (requested == MB_LOOP_MAY_GOTO && !mb_loop_may_goto_supported())
		return mb_run_skip(run, "--loop may_goto: this kernel does not accept the may_goto instruction (it needs Linux 6.9 or later); use --loop auto or --loop bpf_loop");
	mb_kloop_latency_prepare(run);
	return 0;
}

static void kloop_sample(struct mb_run *run, struct mb_sample *s)
{
	mb_reference_sample(run, s);
	mb_kloop_latency_sample(run, s);
	mb_user_latency_sample(run, s);
}

static void kloop_release(struct mb_run *run)
{
	mb_reference_release(run);
	mb_kloop_latency_release(run);
	mb_user_latency_release(run);
}

/*
 * After the producers ran, which read the evidence of the bench's own program and made the
 * linearity check.
 */
static void kloop_diagnose(struct mb_run *run)
{
	if (run->instrument_state)
		mb_loop_diagnose(run, run->loop_overhead_ns);
	mb_kloop_linearity_warn(run);
}

const struct mb_instrument mb_kloop_instrument = {
	.probe = kloop_probe,
	.prepare = kloop_prepare,
	.calibrate = mb_reference_calibrate,
	.sample = kloop_sample,
	.diagnose = kloop_diagnose,
	.release = kloop_release,
};
