// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The cgroupmaps family's packet-context producer (cg_pkt.h). */
#include <errno.h>
#include <string.h>
#include <bpf/bpf.h>

#include "cg_pkt.h"
#include "drivers/kloop.h"
#include "drivers/loop_evidence.h"
#include "core/env.h"
#include "util/log.h"

#define CG_PKT_FIRST_ITERS	1024
#define CG_PKT_MAX_ITERS	(1u << 23)
/* A packet of zeros: test_run of an skb program wants at least an Ethernet header. */
#define CG_PKT_BYTES		64

/* One call of @iters ops; 0, or a negative errno (-EPROTO: not the program's value). */
static int cg_pkt_call(const struct cg_pkt_cfg *cfg, uint64_t iters)
{
	char pkt[CG_PKT_BYTES] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = sizeof(pkt));

	*cfg->iters = iters;
	if (bpf_prog_test_run_opts(cfg->prog_fd, &o))
		return -errno;
	return o.retval == cfg->retval ? 0 : -EPROTO;
}

int cg_pkt_produce(struct mb_run *run, struct mb_producer *p, const struct cg_pkt_cfg *cfg)
{
	struct mb_slot *slot = cfg->slot;
	uint64_t target = (uint64_t)run->env->call_us * 1000, iters = CG_PKT_FIRST_ITERS;
	uint64_t next_ref = 0;
	struct mb_counters c = {};
	int err;

	mb_loop_inspect(cfg->prog_fd, &run->loop);
	run->ops_per_iter = 1;
	mb_producer_publish_stamped(p, &c);
	while (!mb_run_should_stop(run)) {
		uint64_t ops0 = slot->ops, ns0 = slot->kernel_ns;

		err = cg_pkt_call(cfg, iters);
		if (err) {
			mb_err("%s: BPF_PROG_TEST_RUN failed: %s", run->bench->name,
			       strerror(-err));
			return err;
		}
		mb_kloop_slot_counters(slot, 1, &c);
		if (cfg->after)
			cfg->after(cfg->ctx, slot->ops - ops0, &c);
		iters = mb_kloop_next_iters(iters, slot->kernel_ns - ns0, target, CG_PKT_MAX_ITERS);
		err = mb_kloop_reference(run, p, &c, &next_ref);
		if (err < 0)
			return err;
		mb_producer_publish_stamped(p, &c);
	}
	return 0;
}
