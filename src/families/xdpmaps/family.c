// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The xdpmaps family: the maps XDP programs redirect through. */
#include "families/family.h"

extern const struct mb_bench mb_bench_xdp_map_update;
extern const struct mb_bench mb_bench_xdp_map_lookup;
extern const struct mb_bench mb_bench_xdp_redirect_map;

const struct mb_family mb_family_xdpmaps = {
	.name = "xdpmaps",
	.desc = "XDP redirect maps (devmap, devmap_hash, cpumap, xskmap) with real devices, CPUs and AF_XDP sockets: updates from user space, lookups and bpf_redirect_map in the kernel",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_xdp_map_update, &mb_bench_xdp_map_lookup, &mb_bench_xdp_redirect_map,
		NULL,
	},
};
