// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-in-map-replace: counting the grace-period waits of the updating thread (mim_gp.bpf.c).
 * Where fentry cannot attach, the bench runs without them and says why.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "mim.h"
#include "mim_gp.skel.h"
#include "sys/probe.h"

void mim_gp_open(struct mim_state *st)
{
	struct mim_gp_bpf *skel;
	int err;

	err = mb_probe_fentry("synchronize_rcu", st->gp_why, sizeof(st->gp_why));
	if (err)
		return;
	skel = mim_gp_bpf__open_and_load();
	if (!skel) {
		snprintf(st->gp_why, sizeof(st->gp_why), "loading the fentry programs fails: %s",
			 strerror(errno));
		return;
	}
	err = mim_gp_bpf__attach(skel);
	if (err) {
		snprintf(st->gp_why, sizeof(st->gp_why), "attaching the fentry programs fails: %s",
			 strerror(-err));
		mim_gp_bpf__destroy(skel);
		return;
	}
	st->gp = skel;
}

void mim_gp_close(struct mim_state *st)
{
	mim_gp_bpf__destroy(st->gp);
	st->gp = NULL;
}

void mim_gp_target_self(struct mim_state *st)
{
	if (st->gp)
		st->gp->bss->mb_mim_tid = ((uint64_t)getpid() << 32) | (uint32_t)gettid();
}

void mim_gp_read(const struct mim_state *st, struct mim_gp *g)
{
	const struct mim_gp_bpf__bss *b;

	*g = (struct mim_gp){ 0 };
	if (!st->gp)
		return;
	b = st->gp->bss;
	g->sync_calls = __atomic_load_n(&b->mb_mim_sync_calls, __ATOMIC_ACQUIRE);
	g->sync_ns = __atomic_load_n(&b->mb_mim_sync_ns, __ATOMIC_RELAXED);
	g->exp_calls = __atomic_load_n(&b->mb_mim_exp_calls, __ATOMIC_ACQUIRE);
	g->exp_ns = __atomic_load_n(&b->mb_mim_exp_ns, __ATOMIC_RELAXED);
}
