// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The sockmap family: sockmap and sockhash maps of real loopback TCP sockets. */
#include "families/family.h"

extern const struct mb_bench mb_bench_sockmap_update;
extern const struct mb_bench mb_bench_sockmap_lookup;
extern const struct mb_bench mb_bench_sockmap_delete;
extern const struct mb_bench mb_bench_sockmap;

const struct mb_family mb_family_sockmap = {
	.name = "sockmap",
	.desc = "sockmap and sockhash of loopback TCP sockets: update, lookup and delete from user space; the kernel bench's sockmap (sk_skb, sk_msg forwarding)",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_sockmap_update, &mb_bench_sockmap_lookup, &mb_bench_sockmap_delete,
		&mb_bench_sockmap, NULL,
	},
};
