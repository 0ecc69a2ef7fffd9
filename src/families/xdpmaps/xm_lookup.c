// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * xdp-map-lookup: bpf_map_lookup_elem on a devmap, devmap_hash or xskmap in the drivers'
 * in-kernel op loop, each op the next entry; a devmap's value compared with the ifindex user
 * space put there. Every op must find its entry (hits), none miss or name another device.
 * cpumap is not here: the verifier lets programs only redirect through it.
 */
#include <errno.h>

#include "xm.h"
#include "xm_opts.h"
#include "drivers/kloop.h"
#include "util/json.h"
#include "xm.skel.h"
#include "drivers/slots.h"

static const struct mb_opt xm_lookup_opts[] = {
	XM_OPT_MAP_TYPE(xm_lookup_types, "The map: devmap, devmap_hash (devices), xskmap (AF_XDP sockets)"),
	XM_OPT_NR_ENTRIES,
	XM_OPT_DEV,
	MB_OPT_END,
};

static const struct mb_metric_desc xm_lookup_metrics[] = {
	{ "op_ns", "ns/op" },
	{ NULL },
};

static enum xm_type xm_lookup_type(const struct mb_run *run)
{
	const struct xm_args *a = run->args;

	return xm_bench_type(xm_lookup_types, a->map_type);
}

static int xm_lookup_validate(struct mb_run *run)
{
	return xm_validate_common(run, xm_lookup_type(run));
}

static int xm_lookup_setup(struct mb_run *run)
{
	enum xm_type t = xm_lookup_type(run);
	int err;

	run->runner = "kernel-loop";
	err = xm_setup(run, t, t == XM_XSKMAP);
	return err ? err : xm_prog_load(run, run->priv, XM_PROG_LOOKUP);
}

static int xm_lookup_producer(struct mb_run *run, struct mb_producer *p)
{
	struct xm_state *st = run->priv;
	struct mb_kloop_cfg cfg = { .prog_fd = st->prog_fd, .slots = st->skel->bss->mb_slots };

	return mb_kloop_produce(run, p, &cfg);
}

static void xm_lookup_measure(struct mb_run *run, struct mb_sample *s)
{
	(void)run;
	if (s->total.ops)
		s->metric[0] = (double)s->total.kernel_ns / (double)s->total.ops;
}

/* Every op of every producer, read back from the program's slots. */
static void xm_lookup_finish(struct mb_run *run)
{
	struct xm_state *st = run->priv;
	struct mb_json *x = mb_run_extra(run), *chk = mb_json_child(x, "ops_checked");
	struct mb_slot sum;
	uint64_t ops, hits, misses, errors;

	mb_slots_sum(st->skel->bss->mb_slots, run->nr_producers, &sum);
	ops = sum.ops;
	hits = sum.hits;
	misses = sum.misses;
	errors = sum.errors;
	xm_describe(run, st);
	mb_json_set_str(x, "helper", "bpf_map_lookup_elem");
	mb_json_set_num(chk, "ops", (double)ops);
	mb_json_set_num(chk, "found", (double)hits);
	mb_json_set_num(chk, "missing", (double)misses);
	mb_json_set_num(chk, "wrong_device", (double)errors);
	if (ops && hits == ops)
		return;
	mb_run_fail(run, -EIO, "%llu lookups read back from the program: %llu found, %llu missing, %llu naming another device: every entry must be found as written",
		    (unsigned long long)ops, (unsigned long long)hits, (unsigned long long)misses,
		    (unsigned long long)errors);
}

const struct mb_bench mb_bench_xdp_map_lookup = {
	.name = "xdp-map-lookup",
	.family = "xdpmaps",
	.desc = "bpf_map_lookup_elem on a devmap, devmap_hash or xskmap holding real devices or AF_XDP sockets, in the in-kernel loop",
	.opts = xm_lookup_opts,
	.args_size = sizeof(struct xm_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = xm_lookup_types,
	.instrument = &mb_kloop_instrument,
	.text = &xm_text,
	.metrics = xm_lookup_metrics,
	.validate = xm_lookup_validate,
	.setup = xm_lookup_setup,
	.producer = xm_lookup_producer,
	.measure = xm_lookup_measure,
	.finish = xm_lookup_finish,
	.teardown = xm_teardown,
};
