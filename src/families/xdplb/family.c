// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The xdplb family: a whole XDP program over several maps, the kernel's xdp-lb. */
#include "families/family.h"

extern const struct mb_bench mb_bench_xdp_lb;

const struct mb_family mb_family_xdplb = {
	.name = "xdplb",
	.desc = "an XDP load balancer over a VIP hash, per-CPU LRU hashes in an array of maps and per-CPU stats: ns per packet by the kernel's xdp-lb scenarios",
	.benches = (const struct mb_bench *const[]){ &mb_bench_xdp_lb, NULL },
};
