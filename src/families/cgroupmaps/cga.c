// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * cgroupmaps family: bpf_current_task_under_cgroup() on BPF_MAP_TYPE_CGROUP_ARRAY, timed in
 * the in-kernel op loop, with the map's slot holding a cgroup v2 directory the run makes:
 * cgroup-array-in moves the process into it (every op answers 1), cgroup-array-out makes it
 * beside the process's own cgroup, below it, without joining (every op answers 0: the
 * producers' cgroup is its parent, not under it). cgroup-array-skb-in and -out ask
 * bpf_skb_under_cgroup() the same of test_run's packet, in a tc program (cga.bpf.c says why
 * its socket's cgroup is the producer's). This file: the descriptors.
 */
#include "cga.h"
#include "drivers/kloop.h"

static const struct mb_counter_desc cga_counters[] = {
	[MB_CGA_UNDER] = { "under", "ops",
			   "ops whose answer was 1: the producer is under the map's cgroup" },
	{ NULL, NULL, NULL },
};

static const struct mb_metric_desc cga_metrics[] = {
	{ "op_ns", "ns/op" },
	{ NULL },
};

#define CGA_BENCH(_var, _name, _in, _skb, _flags, _desc)			\
static int _var##_setup(struct mb_run *run) { return cga_setup(run, _in, _skb); } \
const struct mb_bench _var = {							\
	.name = _name,								\
	.family = "cgroupmaps",							\
	.desc = _desc,								\
	.flags = MB_BENCH_NEEDS_BPF | (_flags),					\
	.map_types = MB_MAP_TYPES("cgroup_array"),				\
	.instrument = &mb_kloop_instrument,					\
	.text = &cga_text,							\
	.metrics = cga_metrics,							\
	.counters = cga_counters,						\
	.setup = _var##_setup,							\
	.producer = cga_producer,						\
	.measure = cga_measure,							\
	.finish = cga_finish,							\
	.teardown = cga_teardown,						\
}

CGA_BENCH(mb_bench_cgroup_array_in, "cgroup-array-in", true, false, 0,
	  "bpf_current_task_under_cgroup on a cgroup array whose cgroup holds the producers: true");
CGA_BENCH(mb_bench_cgroup_array_out, "cgroup-array-out", false, false, 0,
	  "bpf_current_task_under_cgroup on a cgroup array whose cgroup is below the producers': false");
/* One producer: the tc program's count of ops comes in its .bss (cg_pkt.h). */
CGA_BENCH(mb_bench_cgroup_array_skb_in, "cgroup-array-skb-in", true, true,
	  MB_BENCH_SINGLE_PRODUCER,
	  "bpf_skb_under_cgroup in a tc program run by test_run, the packet's socket in the map's cgroup: true");
CGA_BENCH(mb_bench_cgroup_array_skb_out, "cgroup-array-skb-out", false, true,
	  MB_BENCH_SINGLE_PRODUCER,
	  "bpf_skb_under_cgroup in a tc program run by test_run, the map's cgroup below the socket's: false");
