// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The ringbuf family: streaming maps (ring buffer, perf buffer, user ring buffer), consumers. */
#include "families/family.h"

extern const struct mb_bench mb_bench_rb_libbpf;
extern const struct mb_bench mb_bench_rb_custom;
extern const struct mb_bench mb_bench_pb_libbpf;
extern const struct mb_bench mb_bench_pb_custom;
extern const struct mb_bench mb_bench_user_ringbuf;

const struct mb_family mb_family_ringbuf = {
	.name = "ringbuf",
	.desc = "streaming maps: BPF ring buffer and perf buffer (BPF producers, a user consumer), user ring buffer (the reverse)",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_rb_libbpf, &mb_bench_rb_custom, &mb_bench_pb_libbpf, &mb_bench_pb_custom,
		&mb_bench_user_ringbuf, NULL,
	},
	.suite = (const struct mb_suite_entry[]){ { .bench = "rb-libbpf" }, { .bench = NULL } },
};
