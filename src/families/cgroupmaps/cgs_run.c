// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * cgroupmaps family, cgroup storage: set-up (the map of --map_type and its program), the
 * producer (cg_pkt.h), each call's storage value compared with its ops, and at
 * the end the check of the ops and of the map (empty: test_run's storage is not in it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cgs.h"
#include "drivers/kloop.h"	/* struct mb_slot, before the skeleton */
#include "cgs.skel.h"
#include "cg_pkt.h"
#include "sys/probe.h"
#include "util/json.h"

const char *const cgs_type_names[] = { "cgroup_storage", "percpu_cgroup_storage", NULL };

static const int cgs_map_types[CGS_TYPE_NR] = {
	[CGS_SHARED] = BPF_MAP_TYPE_CGROUP_STORAGE,
	[CGS_PERCPU] = BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE,
};

static struct bpf_map *cgs_map(const struct cgs_state *st)
{
	return st->args->map_type == CGS_SHARED ? st->skel->maps.mb_cgs_shared :
						  st->skel->maps.mb_cgs_percpu;
}

static int cgs_load(struct mb_run *run, struct cgs_state *st)
{
	bool shared = st->args->map_type == CGS_SHARED;
	struct cgs_bpf *skel = cgs_bpf__open();
	char why[1024];
	int err;

	if (!skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	st->skel = skel;
	bpf_program__set_autoload(skel->progs.mb_cgs_shared_get, shared);
	bpf_program__set_autoload(skel->progs.mb_cgs_percpu_get, !shared);
	bpf_map__set_autocreate(skel->maps.mb_cgs_shared, shared);
	bpf_map__set_autocreate(skel->maps.mb_cgs_percpu, !shared);
	err = cgs_bpf__load(skel);
	if (err) {
		mb_explain_load_error(err, "cannot load the cgroup storage and its cgroup_skb program (a may_goto loop)",
				      why, sizeof(why));
		return mb_run_fail(run, err, "%s (--map_type %s)", why,
				   cgs_type_names[st->args->map_type]);
	}
	st->prog_fd = bpf_program__fd(shared ? skel->progs.mb_cgs_shared_get :
					       skel->progs.mb_cgs_percpu_get);
	return 0;
}

int cgs_setup(struct mb_run *run)
{
	const struct cgs_args *a = run->args;
	struct cgs_state *st;
	char why[256];

	if (mb_probe_map_type(cgs_map_types[a->map_type], cgs_type_names[a->map_type], why,
			      sizeof(why)))
		return mb_run_skip(run, "%s", why);
	st = calloc(1, sizeof(*st));
	if (!st)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	run->priv = st;
	st->args = a;
	run->runner = "kernel-loop";
	return cgs_load(run, st);
}

/* Each call's storage started at zero: its value after the call is the call's ops. */
static void cgs_after(void *ctx, uint64_t done, struct mb_counters *c)
{
	struct cgs_state *st = ctx;

	if (st->skel->bss->mb_cgs_value == done) {
		st->checked++;
		st->hits += done;
	} else {
		st->wrong++;
		st->errors += done;
	}
	c->hits = st->hits;
	c->errors = st->errors;
}

int cgs_producer(struct mb_run *run, struct mb_producer *p)
{
	struct cgs_state *st = run->priv;
	struct cg_pkt_cfg cfg = {
		.prog_fd = st->prog_fd,
		.slot = &st->skel->bss->mb_slots[0],
		.iters = &st->skel->bss->mb_cgs_iters,
		.retval = MB_CGS_RET,
		.after = cgs_after,
		.ctx = st,
	};

	return cg_pkt_produce(run, p, &cfg);
}

void cgs_measure(struct mb_run *run, struct mb_sample *s)
{
	(void)run;
	if (s->total.ops)
		s->metric[0] = (double)s->total.kernel_ns / (double)s->total.ops;
}

/* Keys the map holds: test_run's storage is the call's own, so none. */
static uint64_t cgs_map_keys(const struct cgs_state *st)
{
	struct bpf_cgroup_storage_key k, next;
	int fd = bpf_map__fd(cgs_map(st));
	uint64_t n = 0;

	for (void *prev = NULL; !bpf_map_get_next_key(fd, prev, &next); prev = &k) {
		k = next;
		n++;
	}
	return n;
}

void cgs_finish(struct mb_run *run)
{
	struct cgs_state *st = run->priv;
	const struct mb_slot *s = &st->skel->bss->mb_slots[0];
	struct mb_json *x = mb_run_extra(run), *chk = mb_json_child(x, "ops_checked");

	st->map_entries = cgs_map_keys(st);
	mb_json_set_str(x, "map_type", cgs_type_names[st->args->map_type]);
	mb_json_set_str(x, "program", "cgroup_skb, by BPF_PROG_TEST_RUN");
	mb_json_set_num(x, "map_entries", (double)st->map_entries);
	mb_json_set_num(chk, "ops", (double)s->ops);
	mb_json_set_num(chk, "calls", (double)s->calls);
	mb_json_set_num(chk, "calls_value_equal", (double)st->checked);
	mb_json_set_num(chk, "calls_value_wrong", (double)st->wrong);
	if (s->ops && st->checked && !st->wrong && st->checked == s->calls)
		return;
	mb_run_fail(run, -EIO, "%llu ops in %llu calls read back from the program: the storage's value after %llu calls was not the call's ops (%llu were): every op must add one to a storage that starts at zero",
		    (unsigned long long)s->ops, (unsigned long long)s->calls,
		    (unsigned long long)st->wrong, (unsigned long long)st->checked);
}

void cgs_teardown(struct mb_run *run)
{
	struct cgs_state *st = run->priv;

	if (!st)
		return;
	cgs_bpf__destroy(st->skel);
	free(st);
	run->priv = NULL;
}
