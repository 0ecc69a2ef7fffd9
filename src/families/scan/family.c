// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The scan family: walking, dumping and draining whole maps, by every method. */
#include "families/family.h"

extern const struct mb_bench mb_bench_map_scan;

const struct mb_family mb_family_scan = {
	.name = "scan",
	.desc = "whole-map walks: get_next_key, batches, drains, iterator and bpf_for_each_map_elem, per walk, entry and slot",
	.benches = (const struct mb_bench *const[]){ &mb_bench_map_scan, NULL },
};
