// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * cgroupmaps family, cgroup array: set-up (the cgroup, the program, the map's slot), the
 * producer (the drivers' in-kernel loop, or cg_pkt.h's for the tc program), the sample's
 * ns/op, the check of every op's answer read back from the program's counters, and teardown
 * (the program and map, then the cgroup: the process moves back home first where it joined).
 * A killed run's cgroup is reaped by the next run (sys/cgroup2.h); SIGINT ends the run
 * through teardown like any other.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cga.h"
#include "drivers/kloop.h"	/* struct mb_slot, before the skeleton */
#include "cga.skel.h"
#include "cg_pkt.h"
#include "sys/probe.h"
#include "util/json.h"
#include "drivers/slots.h"

static int cga_load(struct mb_run *run, struct cga_state *st)
{
	struct cga_bpf *skel = cga_bpf__open();
	__u32 key = 0, fd = (__u32)st->cg.fd;
	char why[1024];
	int err;

	if (!skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	st->skel = skel;
	mb_loop_prepare(skel->skeleton, &run->loop);
	bpf_program__set_autoload(skel->progs.mb_cga_under, !st->skb);
	bpf_program__set_autoload(skel->progs.mb_cga_skb_under, st->skb);
	skel->rodata->mb_cga_want = st->in;
	err = cga_bpf__load(skel);
	if (err) {
		mb_explain_load_error(err, "cannot load the cgroup array and its program", why,
				      sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.mb_cga_map), &key, &fd, BPF_ANY))
		return mb_run_fail(run, -errno, "cannot put the cgroup %s in the cgroup array: %s",
				   st->cg.path, strerror(errno));
	return 0;
}

int cga_setup(struct mb_run *run, bool in, bool skb)
{
	struct cga_state *st;
	char why[PATH_MAX + 256];
	int err;

	if (mb_probe_map_type(BPF_MAP_TYPE_CGROUP_ARRAY, "cgroup_array", why, sizeof(why)))
		return mb_run_skip(run, "%s", why);
	st = calloc(1, sizeof(*st));
	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	st->in = in;
	st->skb = skb;
	run->runner = "kernel-loop";
	err = in ? mb_cgroup2_enter(&st->cg, why, sizeof(why)) :
		   mb_cgroup2_make(&st->cg, why, sizeof(why));
	if (err)
		return mb_run_skip(run, "%s", why);
	return cga_load(run, st);
}

int cga_producer(struct mb_run *run, struct mb_producer *p)
{
	struct cga_state *st = run->priv;
	struct mb_kloop_cfg cfg = {
		.prog_fd = bpf_program__fd(st->skel->progs.mb_cga_under),
		.slots = st->skel->bss->mb_slots,
	};
	struct cg_pkt_cfg pkt = {
		.prog_fd = bpf_program__fd(st->skel->progs.mb_cga_skb_under),
		.slot = &st->skel->bss->mb_slots[0],
		.iters = &st->skel->bss->mb_cga_iters,
		.retval = 0,
	};

	return st->skb ? cg_pkt_produce(run, p, &pkt) : mb_kloop_produce(run, p, &cfg);
}

void cga_measure(struct mb_run *run, struct mb_sample *s)
{
	(void)run;
	if (s->total.ops)
		s->metric[0] = (double)s->total.kernel_ns / (double)s->total.ops;
}

/* Every op of every producer, read back: each gave the answer due, none failed. */
void cga_finish(struct mb_run *run)
{
	struct cga_state *st = run->priv;
	struct mb_json *x = mb_run_extra(run), *chk = mb_json_child(x, "ops_checked");
	struct mb_slot sum;
	uint64_t ops, hits, misses, errors, under;

	mb_slots_sum(st->skel->bss->mb_slots, run->nr_producers, &sum);
	ops = sum.ops;
	hits = sum.hits;
	misses = sum.misses;
	errors = sum.errors;
	under = sum.counter[MB_CGA_UNDER];
	mb_json_set_str(x, "cgroup", st->cg.path);
	mb_json_set_bool(x, "producers_in_cgroup", st->in);
	mb_json_set_str(x, "helper",
			st->skb ? "bpf_skb_under_cgroup" : "bpf_current_task_under_cgroup");
	mb_json_set_num(chk, "ops", (double)ops);
	mb_json_set_num(chk, "under", (double)under);
	mb_json_set_num(chk, "not_under", (double)(hits + misses - under));
	mb_json_set_num(chk, "errors", (double)errors);
	if (ops && !errors && hits == ops && under == (st->in ? ops : 0))
		return;
	mb_run_fail(run, -EIO, "%llu ops read back from the program: %llu answered 1 (under the cgroup), %llu answered 0, %llu errors: every op must answer %d",
		    (unsigned long long)ops, (unsigned long long)under,
		    (unsigned long long)(hits + misses - under), (unsigned long long)errors,
		    st->in);
}

void cga_teardown(struct mb_run *run)
{
	struct cga_state *st = run->priv;
	int err;

	if (!st)
		return;
	cga_bpf__destroy(st->skel);
	err = mb_cgroup2_leave(&st->cg);
	if (err)
		mb_run_warn(run, "cannot remove the cgroup %s: %s", st->cg.path, strerror(-err));
	free(st);
	run->priv = NULL;
}
