// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * local-storage-tasks-trace's programs: the storage program at the first attach point of the
 * trigger runner this kernel accepts, fired by our getpgid() and our sleepers', and the two
 * fentry programs on the grace-period functions. This file is the whole of the bench that
 * needs BPF trampolines; a test without them leaves the fentry programs out
 * (LS_TRACE_NO_GP_ENV) and runs the rest.
 */
#include <errno.h>
#include <stdbool.h>
#include <bpf/libbpf.h>

#include "drivers/trigger.h"
#include "ls_trace.h"
#include "ls_trace.skel.h"

struct ls_trace_loader {
	struct ls_trace_state *st;
	bool no_gp;
};

static int ls_trace_open_load(struct mb_run *run, struct mb_trigger *t, void *ctx)
{
	static const char *const ops[] = { "ls_trace_get", NULL };
	struct ls_trace_loader *l = ctx;
	struct ls_trace_bpf *skel;
	int err;

	(void)run;
	skel = ls_trace_bpf__open();
	if (!skel)
		return -errno;
	err = mb_trigger_prepare(skel->obj, t->attach, ops);
	if (!err)
		err = mb_trigger_allow_children(skel->obj);
	if (!err && !l->no_gp) {
		bpf_program__set_autoload(skel->progs.ls_trace_pregp_step, true);
		bpf_program__set_autoload(skel->progs.ls_trace_postgp, true);
	}
	if (!err)
		err = ls_trace_bpf__load(skel);
	if (!err)
		err = ls_trace_bpf__attach(skel);
	if (err) {
		ls_trace_bpf__destroy(skel);
		return err;
	}
	t->slots = skel->bss->mb_slots;
	l->st->skel = skel;
	return 0;
}

int ls_trace_load(struct mb_run *run, struct ls_trace_state *st, bool no_gp)
{
	struct ls_trace_loader l = { .st = st, .no_gp = no_gp };
	int err = mb_trigger_load(run, &st->trig, ls_trace_open_load, &l);

	st->gp_loaded = !err && !no_gp;
	return err;
}

void ls_trace_read(const struct ls_trace_state *st, struct ls_trace_counts *c)
{
	const struct ls_trace_bpf__bss *b = st->skel->bss;

	c->gp_hits = __atomic_load_n(&b->ls_trace_gp_hits, __ATOMIC_RELAXED);
	c->gp_ns = __atomic_load_n(&b->ls_trace_gp_ns, __ATOMIC_RELAXED);
	c->unexpected = __atomic_load_n(&b->ls_trace_unexpected, __ATOMIC_RELAXED);
	c->untimed = __atomic_load_n(&b->ls_trace_gp_untimed, __ATOMIC_RELAXED);
	c->sleeper_gets = __atomic_load_n(&b->ls_trace_sleeper_gets, __ATOMIC_RELAXED);
	c->get_fails = __atomic_load_n(&b->ls_trace_get_fails, __ATOMIC_RELAXED);
}

void ls_trace_unload(struct ls_trace_state *st)
{
	ls_trace_bpf__destroy(st->skel);
	st->skel = NULL;
}
