// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kloop_call.h"
#include "kloop_shared.h"
#include "kref.h"
#include "loop_evidence.h"
#include "loop_kind.h"
#include "reference.h"
#include "reference.skel.h"
#include "util/log.h"

struct reference_state {
	struct reference_bpf *ref;
	struct mb_kref *kref;		/* the drift reference's calls (kref.c) */
};

int mb_reference_call(struct mb_run *run, struct mb_producer *p, struct mb_counters *c,
		      uint64_t *next_ref)
{
	struct reference_state *rs = run->instrument_state;

	if (!rs || !rs->kref)
		return 0;
	return mb_kref_call(rs->kref, p, c, next_ref);
}

void mb_reference_sample(struct mb_run *run, struct mb_sample *s)
{
	struct reference_state *rs = run->instrument_state;

	if (rs && rs->kref)
		mb_kref_sample(rs->kref, s);
}

/* The reference program: the empty loop of the kind the bench runs. */
static struct reference_bpf *reference_load(const struct mb_run *run)
{
	struct reference_bpf *skel = reference_bpf__open();
	struct mb_loop_info plain = run->loop;
	int err;

	if (!skel)
		return NULL;
	/* The empty loop as the bench's runs it, never timed op by op (--latency). */
	plain.lat_every = 0;
	mb_loop_prepare(skel->skeleton, &plain);
	err = reference_bpf__load(skel);
	if (err) {
		reference_bpf__destroy(skel);
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
	struct reference_state *rs = run->instrument_state;

	*best = INFINITY;
	for (int i = 0; i < 6; i++) {
		struct mb_slot *s = &rs->ref->bss->mb_slots[0];
		uint64_t ns = s->kernel_ns;
		int err = mb_kloop_call(fd, 0, iters, cpu);

		if (err < 0)
			return err;
		if (i > 0 && (double)(s->kernel_ns - ns) / (double)iters < *best)
			*best = (double)(s->kernel_ns - ns) / (double)iters;
	}
	memset(rs->ref->bss->mb_slots, 0, sizeof(rs->ref->bss->mb_slots));
	return 0;
}

void mb_reference_calibrate(struct mb_run *run)
{
	struct reference_state *rs;
	double best;
	int fd, err;

	rs = calloc(1, sizeof(*rs));
	if (!rs)
		return;
	run->instrument_state = rs;
	rs->ref = reference_load(run);
	if (!rs->ref) {
		mb_run_warn(run, "cannot load the reference loop (%s): no loop-overhead figure and no noise reference",
			    strerror(errno));
		return;
	}
	fd = bpf_program__fd(rs->ref->progs.mb_noop);
	if (run->loop.subprog_calls < 0)
		mb_loop_inspect(fd, &run->loop);
	err = reference_cost(run, fd, &best);
	if (err < 0) {
		mb_run_warn(run, "reference loop failed: %s", strerror(-err));
		return;
	}
	run->loop_overhead_ns = best;
	rs->kref = mb_kref_new(run, fd, rs->ref->bss->mb_slots, best);
	mb_debug("%s: empty in-kernel loop (%s): %.3f ns/op", run->bench->name,
		 mb_loop_kind_names[run->loop.kind], best);
}

void mb_reference_release(struct mb_run *run)
{
	struct reference_state *rs = run->instrument_state;

	if (!rs)
		return;
	mb_kref_free(rs->kref);
	reference_bpf__destroy(rs->ref);
	free(rs);
	run->instrument_state = NULL;
}
