// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The cgroupmaps family: the maps that hold or belong to cgroups. */
#include "families/family.h"

extern const struct mb_bench mb_bench_cgroup_array_in;
extern const struct mb_bench mb_bench_cgroup_array_out;
extern const struct mb_bench mb_bench_cgroup_array_skb_in;
extern const struct mb_bench mb_bench_cgroup_array_skb_out;
extern const struct mb_bench mb_bench_cgroup_storage_get;

const struct mb_family mb_family_cgroupmaps = {
	.name = "cgroupmaps",
	.desc = "cgroup maps: bpf_current_task_under_cgroup and bpf_skb_under_cgroup on a cgroup array, bpf_get_local_storage on cgroup storage",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_cgroup_array_in, &mb_bench_cgroup_array_out,
		&mb_bench_cgroup_array_skb_in, &mb_bench_cgroup_array_skb_out,
		&mb_bench_cgroup_storage_get, NULL,
	},
};
