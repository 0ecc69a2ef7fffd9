// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The mapinmap family: what replacing an inner map of a map-in-map costs user space. */
#include "families/family.h"

extern const struct mb_bench mb_bench_map_in_map_replace;

const struct mb_family mb_family_mapinmap = {
	.name = "mapinmap",
	.desc = "map-in-maps: the time of each update that replaces an inner map, and its grace-period wait",
	.benches = (const struct mb_bench *const[]){ &mb_bench_map_in_map_replace, NULL },
};
