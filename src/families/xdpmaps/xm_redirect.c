// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * xdp-redirect-map: bpf_redirect_map through a devmap, devmap_hash, cpumap or xskmap in an
 * XDP program run by BPF_PROG_TEST_RUN, a may_goto loop inside the program (xm.bpf.c), each
 * op the next entry: what the helper costs, the entry's lookup and the redirect's record. The
 * program returns XDP_PASS, so no frame goes anywhere. Each call is sized to --call_us of
 * in-kernel time as the drivers' loop sizes its calls, with the drivers' empty-loop
 * reference between them. One producer: the count of ops comes in the program's .bss.
 */
#include <errno.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "xm.h"
#include "xm_opts.h"
#include "core/env.h"
#include "drivers/kloop.h"
#include "drivers/loop_evidence.h"
#include "util/json.h"
#include "util/log.h"
#include "xm.skel.h"

#define XM_FIRST_ITERS	1024
#define XM_MAX_ITERS	(1u << 23)
#define XM_PKT_BYTES	64	/* a frame of zeros: XDP's test_run wants an Ethernet header */
#define XM_PROG_PASS_TEXT	"xdp, by BPF_PROG_TEST_RUN; returns XDP_PASS: no frame is sent"
#define XM_PROG_LIVE_TEXT	"xdp, by BPF_PROG_TEST_RUN with BPF_F_TEST_XDP_LIVE_FRAMES: each frame redirected and sent to the veth peer"

static const struct mb_opt xm_redirect_opts[] = {
	XM_OPT_MAP_TYPE(xm_type_names, "The map: devmap, devmap_hash (devices), cpumap (CPUs), xskmap (AF_XDP sockets)"),
	XM_OPT_NR_ENTRIES,
	XM_OPT_QSIZE,
	XM_OPT_DEV,
	MB_OPT_FLAG_DEF("live", struct xm_args, live,
			"devmap, devmap_hash: send the frames (BPF_F_TEST_XDP_LIVE_FRAMES), one redirect a frame, to the veth pair's ends, whose XDP programs count them"),
	MB_OPT_END,
};

static const struct mb_metric_desc xm_redirect_metrics[] = {
	{ "op_ns", "ns/op" },
	{ NULL },
};

static enum xm_type xm_redirect_type(const struct mb_run *run)
{
	const struct xm_args *a = run->args;

	return xm_bench_type(xm_type_names, a->map_type);
}

static int xm_redirect_validate(struct mb_run *run)
{
	const struct xm_args *a = run->args;
	enum xm_type t = xm_redirect_type(run);

	if (a->live && t != XM_DEVMAP && t != XM_DEVMAP_HASH)
		return mb_run_usage(run, "--live: frames are sent to devices: devmap or devmap_hash, not --map_type %s",
				    xm_type_names[t]);
	if (a->live && a->dev)
		return mb_run_usage(run, "--live: sends frames, so only to the run's own veth pair, not with --dev %s",
				    a->dev);
	return xm_validate_common(run, t);
}

static int xm_redirect_setup(struct mb_run *run)
{
	enum xm_type t = xm_redirect_type(run);
	int err;

	run->runner = "kernel-loop";
	const struct xm_args *a = run->args;

	err = xm_setup(run, t, t == XM_XSKMAP);
	return err ? err : xm_prog_load(run, run->priv, a->live ? XM_PROG_LIVE : XM_PROG_REDIRECT);
}

/* One call of @iters ops; 0, or a negative errno (-EPROTO: not XDP_PASS). */
static int xm_redirect_call(struct xm_state *st, uint64_t iters)
{
	char pkt[XM_PKT_BYTES] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = sizeof(pkt));

	st->skel->bss->mb_xm_iters = iters;
	if (bpf_prog_test_run_opts(st->prog_fd, &o))
		return -errno;
	return o.retval == XDP_PASS ? 0 : -EPROTO;
}

static int xm_redirect_producer(struct mb_run *run, struct mb_producer *p)
{
	struct xm_state *st = run->priv;
	struct mb_slot *slot = &st->skel->bss->mb_slots[0];
	uint64_t target = (uint64_t)run->env->call_us * 1000, iters = XM_FIRST_ITERS;
	uint64_t next_ref = 0;
	struct mb_counters c = { 0 };
	int err;

	if (st->args->live)
		return xm_live_producer(run, p);
	mb_loop_inspect(st->prog_fd, &run->loop);
	run->ops_per_iter = 1;
	mb_producer_publish_stamped(p, &c);
	while (!mb_run_should_stop(run)) {
		uint64_t ns0 = slot->kernel_ns;

		err = xm_redirect_call(st, iters);
		if (err) {
			mb_err("%s: BPF_PROG_TEST_RUN failed: %s", run->bench->name,
			       strerror(-err));
			return err;
		}
		mb_kloop_slot_counters(slot, 1, &c);
		iters = mb_kloop_next_iters(iters, slot->kernel_ns - ns0, target, XM_MAX_ITERS);
		err = mb_kloop_reference(run, p, &c, &next_ref);
		if (err < 0)
			return err;
		mb_producer_publish_stamped(p, &c);
	}
	return 0;
}

static void xm_redirect_measure(struct mb_run *run, struct mb_sample *s)
{
	(void)run;
	if (s->total.ops)
		s->metric[0] = (double)s->total.kernel_ns / (double)s->total.ops;
}

static void xm_redirect_finish(struct mb_run *run)
{
	struct xm_state *st = run->priv;
	const struct mb_slot *s = &st->skel->bss->mb_slots[0];
	struct mb_json *x = mb_run_extra(run), *chk = mb_json_child(x, "ops_checked");

	uint64_t arrived = st->args->live ? xm_live_arrived(st) : 0;

	xm_describe(run, st);
	mb_json_set_str(x, "helper", "bpf_redirect_map");
	mb_json_set_str(x, "program", st->args->live ? XM_PROG_LIVE_TEXT : XM_PROG_PASS_TEXT);
	mb_json_set_bool(x, "live", st->args->live);
	mb_json_set_num(chk, "ops", (double)s->ops);
	mb_json_set_num(chk, "calls", (double)s->calls);
	mb_json_set_num(chk, "redirected", (double)s->hits);
	mb_json_set_num(chk, "not_found", (double)s->misses);
	if (st->args->live) {
		/* A frame the veth could not queue (its ring full) is dropped on the way. */
		mb_json_set_num(chk, "frames_arrived", (double)arrived);
		if (s->ops && s->hits == s->ops && arrived && arrived <= s->hits)
			return;
		mb_run_fail(run, -EIO, "%llu frames: %llu redirected, %llu arrived at the peers: every frame must be redirected, and some arrive",
			    (unsigned long long)s->ops, (unsigned long long)s->hits,
			    (unsigned long long)arrived);
		return;
	}
	if (s->ops && s->hits == s->ops)
		return;
	mb_run_fail(run, -EIO, "%llu redirects read back from the program: %llu answered XDP_REDIRECT, %llu did not find their entry: every entry must be found",
		    (unsigned long long)s->ops, (unsigned long long)s->hits,
		    (unsigned long long)s->misses);
}

const struct mb_bench mb_bench_xdp_redirect_map = {
	.name = "xdp-redirect-map",
	.family = "xdpmaps",
	.desc = "bpf_redirect_map through a devmap, devmap_hash, cpumap or xskmap, in an XDP program run by test_run (the frame passed, or with --live sent)",
	.opts = xm_redirect_opts,
	.args_size = sizeof(struct xm_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,
	.map_types = xm_type_names,
	.instrument = &mb_kloop_instrument,
	.text = &xm_text,
	.metrics = xm_redirect_metrics,
	.validate = xm_redirect_validate,
	.setup = xm_redirect_setup,
	.producer = xm_redirect_producer,
	.measure = xm_redirect_measure,
	.finish = xm_redirect_finish,
	.teardown = xm_teardown,
};
