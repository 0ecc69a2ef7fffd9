// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The queue family: queue and stack maps, and a hash map used as a queue beside them. */
#include "families/family.h"

extern const struct mb_bench mb_bench_queue_push;
extern const struct mb_bench mb_bench_queue_pop;
extern const struct mb_bench mb_bench_queue_peek;
extern const struct mb_bench mb_bench_queue_push_pop;
extern const struct mb_bench mb_bench_queue_push_full;
extern const struct mb_bench mb_bench_queue_push_overwrite;
extern const struct mb_bench mb_bench_queue_pop_empty;
extern const struct mb_bench mb_bench_queue_peek_empty;

const struct mb_family mb_family_queue = {
	.name = "queue",
	.desc = "queue and stack maps: push, pop, peek, full and empty, against a hash map used as a queue",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_queue_push, &mb_bench_queue_pop, &mb_bench_queue_peek,
		&mb_bench_queue_push_pop, &mb_bench_queue_push_full,
		&mb_bench_queue_push_overwrite, &mb_bench_queue_pop_empty,
		&mb_bench_queue_peek_empty, NULL,
	},
};
