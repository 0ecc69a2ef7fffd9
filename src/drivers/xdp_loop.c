// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* One test_run call of an XDP op loop (xdp_loop.h). */
#include <errno.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kloop.h"
#include "xdp_loop.h"

int mb_xdp_loop_run(int prog_fd, struct mb_slot *slots, int slot, uint64_t iters,
		    struct mb_xdp_call *call)
{
	struct mb_slot *s = &slots[slot];
	uint64_t calls = __atomic_load_n(&s->calls, __ATOMIC_RELAXED);
	uint64_t ops = __atomic_load_n(&s->ops, __ATOMIC_RELAXED);
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = call->in->data,
		    .data_size_in = call->in->len, .data_out = call->out,
		    .data_size_out = call->out ? call->out_cap : 0, .repeat = 1);

	/* XDP's test_run takes no flags here: the producer's own pinning keeps it on a CPU. */
	__atomic_store_n(&s->call_iters, iters, __ATOMIC_RELAXED);
	if (bpf_prog_test_run_opts(prog_fd, &o))
		return -errno;
	call->retval = o.retval;
	call->out_len = call->out ? o.data_size_out : 0;
	call->ops = __atomic_load_n(&s->ops, __ATOMIC_RELAXED) - ops;
	if (__atomic_load_n(&s->calls, __ATOMIC_RELAXED) == calls)
		return -ENOENT;
	return 0;
}

int mb_xdp_loop_call(const struct mb_kloop_cfg *cfg, int slot, uint64_t iters, int cpu)
{
	struct mb_xdp_call call = { .in = cfg->call_ctx };
	int err;

	(void)cpu;
	err = mb_xdp_loop_run(cfg->prog_fd, cfg->slots, slot, iters, &call);
	if (err == -ENOENT)
		return MB_RET_BAD_ARGS;
	return err < 0 ? err : MB_RET_OK;
}
