// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * cgroupmaps family: bpf_get_local_storage() on BPF_MAP_TYPE_CGROUP_STORAGE or
 * BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE and one more in the value, an op, in a may_goto loop
 * inside a cgroup_skb program run by BPF_PROG_TEST_RUN (cgs.bpf.c says why not the drivers'
 * loop). This file: the options and the descriptor.
 */
#include "cgs.h"
#include "drivers/kloop.h"
#include "maps/map_opts.h"

static const struct mb_opt cgs_opts[] = {
	MB_OPT_ENUM_DEF("map_type", struct cgs_args, map_type, "cgroup_storage", cgs_type_names,
			"Storage: cgroup_storage (one value for every CPU, an atomic add) or percpu_cgroup_storage (this CPU's copy, a plain add)"),
	MB_OPT_END,
};

static const struct mb_metric_desc cgs_metrics[] = {
	{ "op_ns", "ns/op" },
	{ NULL },
};

const struct mb_bench mb_bench_cgroup_storage_get = {
	.name = "cgroup-storage-get",
	.family = "cgroupmaps",
	.desc = "bpf_get_local_storage and an add to the value, in a cgroup_skb program run by test_run",
	.opts = cgs_opts,
	.args_size = sizeof(struct cgs_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,
	.map_types = cgs_type_names,
	.instrument = &mb_kloop_instrument,
	.text = &cgs_text,
	.metrics = cgs_metrics,
	.setup = cgs_setup,
	.producer = cgs_producer,
	.measure = cgs_measure,
	.finish = cgs_finish,
	.teardown = cgs_teardown,
};
