// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* One BPF_PROG_TEST_RUN call of an op loop: the bottom of the in-kernel loop and its reference. */
#include <errno.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kloop_call.h"
#include "kloop_shared.h"

int mb_kloop_call(int prog_fd, int slot, uint64_t iters, int cpu)
{
	__u64 args[MB_ARG_NR] = { [MB_ARG_SLOT] = (__u64)slot, [MB_ARG_ITERS] = iters };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));

	if (cpu >= 0) {
		/* The thread is pinned there already; the flag only guards against migration. */
		opts.flags = BPF_F_TEST_RUN_ON_CPU;
		opts.cpu = (__u32)cpu;
	}
	if (bpf_prog_test_run_opts(prog_fd, &opts))
		return -errno;
	return (int)opts.retval;
}
