// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* One call of a bench's op loop and what follows it (kloop_step.h). */
#include <errno.h>
#include <string.h>

#include "core/run.h"
#include "kloop.h"
#include "kloop_step.h"
#include "util/log.h"

void mb_kloop_slot_counters(const struct mb_slot *s, uint32_t ops_per_iter, struct mb_counters *c)
{
	c->ops = s->ops * (ops_per_iter ? ops_per_iter : 1);
	c->hits = s->hits;
	c->misses = s->misses;
	c->errors = s->errors;
	for (int i = 0; i < MB_LOOP_COUNTERS; i++)
		c->counter[i] = s->counter[i];
	c->kernel_ns = s->kernel_ns;
	c->calls = s->calls;
}

int mb_kloop_step(struct mb_run *run, struct mb_producer *p, const struct mb_kloop_cfg *cfg,
		  uint64_t iters, struct mb_counters *c)
{
	int ret = cfg->call ? cfg->call(cfg, p->idx, iters, p->cpu) :
			      mb_kloop_call(cfg->prog_fd, p->idx, iters, p->cpu);

	if (ret < 0) {
		mb_err("%s: producer %d: BPF_PROG_TEST_RUN failed: %s", run->bench->name, p->idx,
		       strerror(-ret));
		return ret;
	}
	if (ret == MB_RET_BAD_ARGS)
		return -EINVAL;
	mb_kloop_slot_counters(&cfg->slots[p->idx], cfg->ops_per_iter, c);
	if (cfg->every_op_hits)
		c->hits = c->ops;
	if (ret >= MB_RET_BENCH && cfg->on_ret) {
		uint64_t t = mb_now_ns();
		int err = cfg->on_ret(run, p, (uint32_t)ret, cfg->ctx);

		c->excluded_ns += mb_now_ns() - t;
		if (err)
			return err < 0 ? err : -EPROTO;
	}
	return ret;
}
