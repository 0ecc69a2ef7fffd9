// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The reuseport family: reuseport_sockarray with real SO_REUSEPORT sockets. */
#include "families/family.h"

extern const struct mb_bench mb_bench_reuseport_update;
extern const struct mb_bench mb_bench_reuseport_lookup;
extern const struct mb_bench mb_bench_reuseport_select;

const struct mb_family mb_family_reuseport = {
	.name = "reuseport",
	.desc = "reuseport_sockarray: update and lookup of real SO_REUSEPORT sockets, and bpf_sk_select_reuseport driven by loopback packets",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_reuseport_update, &mb_bench_reuseport_lookup,
		&mb_bench_reuseport_select, NULL,
	},
};
