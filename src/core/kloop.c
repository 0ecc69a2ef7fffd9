// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "env.h"
#include "kloop.h"
#include "kref.h"
#include "harness.skel.h"
#include "util/log.h"
#include "run.h"

#define KLOOP_MAX_ITERS		(1u << 23)	/* bpf_loop's limit */
#define KLOOP_FIRST_ITERS	1024

struct kloop_state {
	struct harness_bpf *ref;
	struct mb_kref *kref;		/* the drift reference's calls (kref.c) */
};

void mb_kloop_slot_counters(const struct mb_slot *s, uint32_t ops_per_iter, struct mb_counters *c)
{
	c->ops = s->ops * (ops_per_iter ? ops_per_iter : 1);
	c->hits = s->hits;
	c->misses = s->misses;
	c->errors = s->errors;
	c->false_hits = s->false_hits;
	c->kernel_ns = s->kernel_ns;
	c->calls = s->calls;
}

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

int mb_kloop_reference(struct mb_run *run, struct mb_producer *p, struct mb_counters *c,
		       uint64_t *next_ref)
{
	struct kloop_state *ks = run->kloop;

	if (!ks || !ks->kref)
		return 0;
	return mb_kref_call(ks->kref, p, c, next_ref);
}

void mb_kloop_sample_reference(struct mb_run *run, struct mb_sample *s)
{
	struct kloop_state *ks = run->kloop;

	if (s) {
		s->ref_median = NAN;
		s->ref_calls = 0;
	}
	if (ks && ks->kref)
		mb_kref_sample(ks->kref, s);
}

int mb_kloop_produce(struct mb_run *run, struct mb_producer *p, const struct mb_kloop_cfg *cfg)
{
	struct mb_slot *slot = &cfg->slots[p->idx];
	uint32_t per_iter = cfg->ops_per_iter ? cfg->ops_per_iter : 1;
	uint64_t max = cfg->max_iters ? cfg->max_iters : KLOOP_MAX_ITERS;
	uint64_t target = (uint64_t)run->env->call_us * 1000;
	uint64_t iters = KLOOP_FIRST_ITERS > max ? max : KLOOP_FIRST_ITERS;
	uint64_t next_ref = 0;
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
	}
	mb_producer_publish_stamped(p, &c);
	while (!mb_run_should_stop(run)) {
		uint64_t ns0 = slot->kernel_ns;

		ret = mb_kloop_call(cfg->prog_fd, p->idx, iters, p->cpu);
		if (ret < 0) {
			mb_err("%s: producer %d: BPF_PROG_TEST_RUN failed: %s", run->bench->name,
			       p->idx, strerror(-ret));
			return ret;
		}
		if (ret == MB_RET_BAD_ARGS)
			return -EINVAL;
		mb_kloop_slot_counters(slot, per_iter, &c);
		if (cfg->every_op_hits)
			c.hits = c.ops;
		if (ret >= MB_RET_BENCH && cfg->on_ret) {
			uint64_t t = mb_now_ns();
			int err = cfg->on_ret(run, p, (uint32_t)ret, cfg->ctx);

			c.excluded_ns += mb_now_ns() - t;
			if (err)
				return err;
		}
		if (!cfg->fixed_iters)
			iters = mb_kloop_next_iters(iters, slot->kernel_ns - ns0, target, max);
		ret = mb_kloop_reference(run, p, &c, &next_ref);
		if (ret < 0)
			return ret;
		/* A call can be long (--call_us, fixed_iters): rates divide by the calls' time. */
		mb_producer_publish_stamped(p, &c);
	}
	return 0;
}

/* The reference program: the empty loop of the kind the bench runs. */
static struct harness_bpf *reference_load(const struct mb_run *run)
{
	struct harness_bpf *skel = harness_bpf__open();
	int err;

	if (!skel)
		return NULL;
	mb_loop_prepare(skel->skeleton, run->loop.kind);
	err = harness_bpf__load(skel);
	if (err) {
		harness_bpf__destroy(skel);
		errno = -err;
		return NULL;
	}
	return skel;
}

/* The minimum over a few calls is the loop's own cost; the first call warms caches. */
static int reference_cost(struct mb_run *run, int fd, double *best)
{
	const uint64_t iters = 100000;
	int cpu = run->nr_producers ? run->prod[0].cpu : -1;
	struct kloop_state *ks = run->kloop;

	*best = INFINITY;
	for (int i = 0; i < 6; i++) {
		struct mb_slot *s = &ks->ref->bss->mb_slots[0];
		uint64_t ns = s->kernel_ns;
		int err = mb_kloop_call(fd, 0, iters, cpu);

		if (err < 0)
			return err;
		if (i > 0 && (double)(s->kernel_ns - ns) / (double)iters < *best)
			*best = (double)(s->kernel_ns - ns) / (double)iters;
	}
	memset(ks->ref->bss->mb_slots, 0, sizeof(ks->ref->bss->mb_slots));
	return 0;
}

void mb_kloop_calibrate(struct mb_run *run)
{
	struct kloop_state *ks;
	double best;
	int fd, err;

	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return;
	run->kloop = ks;
	ks->ref = reference_load(run);
	if (!ks->ref) {
		mb_run_warn(run, "cannot load the reference loop (%s): no loop-overhead figure and no noise reference",
			    strerror(errno));
		return;
	}
	fd = bpf_program__fd(ks->ref->progs.mb_noop);
	if (run->loop.subprog_calls < 0)
		mb_loop_inspect(fd, &run->loop);
	err = reference_cost(run, fd, &best);
	if (err < 0) {
		mb_run_warn(run, "reference loop failed: %s", strerror(-err));
		return;
	}
	run->loop_overhead_ns = best;
	ks->kref = mb_kref_new(run, fd, ks->ref->bss->mb_slots, best);
	mb_debug("%s: empty in-kernel loop (%s): %.3f ns/op", run->bench->name,
		 mb_loop_kind_names[run->loop.kind], best);
}

void mb_kloop_release(struct mb_run *run)
{
	struct kloop_state *ks = run->kloop;

	if (!ks)
		return;
	mb_kref_free(ks->kref);
	harness_bpf__destroy(ks->ref);
	free(ks);
	run->kloop = NULL;
}
