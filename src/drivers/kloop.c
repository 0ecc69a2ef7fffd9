// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <string.h>

#include "core/env.h"
#include "kloop.h"
#include "kloop_latency.h"
#include "kloop_linearity.h"
#include "kloop_step.h"
#include "loop_evidence.h"
#include "reference.h"
#include "util/log.h"
#include "core/run.h"

_Static_assert(MB_LOOP_COUNTERS <= MB_MAX_COUNTERS, "the loop's counters are a bench's");
_Static_assert(sizeof(struct mb_loop_ctx) <= 48, "the loop's state stays at 48 bytes");

#define KLOOP_MAX_ITERS		(1u << 23)	/* bpf_loop's limit */
#define KLOOP_FIRST_ITERS	1024

uint64_t mb_kloop_next_iters(uint64_t iters, uint64_t call_ns, uint64_t target_ns, uint64_t max)
{
	uint64_t n;

	if (!call_ns)
		return iters * 2 > max ? max : iters * 2;
	n = (uint64_t)((double)iters * (double)target_ns / (double)call_ns);
	/* Move at most 2x per call: one disturbed call must not swing the size. */
	if (n > iters * 2)
		n = iters * 2;
	if (n < iters / 2)
		n = iters / 2;
	if (n < 1)
		n = 1;
	return n > max ? max : n;
}

uint64_t mb_kloop_latency_iters(uint64_t iters, uint64_t call, uint64_t max)
{
	uint64_t extra = call & 3;

	if (iters + extra <= max)
		return iters + extra;
	return iters > extra ? iters - extra : iters;
}

int mb_kloop_reference(struct mb_run *run, struct mb_producer *p, struct mb_counters *c,
		       uint64_t *next_ref)
{
	return mb_reference_call(run, p, c, next_ref);
}

int mb_kloop_produce(struct mb_run *run, struct mb_producer *p, const struct mb_kloop_cfg *cfg)
{
	struct mb_slot *slot = &cfg->slots[p->idx];
	uint32_t per_iter = cfg->ops_per_iter ? cfg->ops_per_iter : 1;
	uint64_t max = cfg->max_iters ? cfg->max_iters : KLOOP_MAX_ITERS;
	uint64_t target = (uint64_t)run->env->call_us * 1000;
	uint64_t iters = KLOOP_FIRST_ITERS > max ? max : KLOOP_FIRST_ITERS;
	uint64_t next_ref = 0, calls = 0;
	struct mb_counters c = {};
	int ret;

	if (cfg->fixed_iters)
		iters = cfg->fixed_iters > max ? max : cfg->fixed_iters;
	if (!slot->rng)
		slot->rng = 0x9e3779b97f4a7c15ULL * (uint64_t)(p->idx + 1) | 1;
	/* The bench's own program is the best evidence; the sampler reads it only at the end. */
	if (p->idx == 0) {
		mb_loop_inspect(cfg->prog_fd, &run->loop);
		run->ops_per_iter = per_iter;
		mb_kloop_latency_attach(run, cfg->prog_fd, per_iter);
	}
	mb_producer_publish_stamped(p, &c);
	while (!mb_run_should_stop(run)) {
		uint64_t ns0 = slot->kernel_ns;

		ret = mb_kloop_step(run, p, cfg, run->loop.lat_every ?
				    mb_kloop_latency_iters(iters, calls++, max) : iters, &c);
		if (ret < 0)
			return ret;
		if (!cfg->fixed_iters)
			iters = mb_kloop_next_iters(iters, slot->kernel_ns - ns0, target, max);
		ret = mb_kloop_reference(run, p, &c, &next_ref);
		if (ret < 0)
			return ret;
		/* A call can be long (--call_us, fixed_iters): rates divide by the calls' time. */
		mb_producer_publish_stamped(p, &c);
	}
	/* After the last sample: none of its ops is counted. */
	mb_kloop_linearity(run, p, cfg, max);
	return 0;
}
