// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The ringbuf family: streaming maps (BPF ring buffer, perf buffer) with their consumers. */
#include "families/family.h"

extern const struct mb_bench mb_bench_rb_libbpf;
extern const struct mb_bench mb_bench_rb_custom;
extern const struct mb_bench mb_bench_pb_libbpf;
extern const struct mb_bench mb_bench_pb_custom;

const struct mb_family mb_family_ringbuf = {
	.name = "ringbuf",
	.desc = "streaming maps: BPF ring buffer and perf buffer, BPF producers and a user-space consumer",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_rb_libbpf, &mb_bench_rb_custom, &mb_bench_pb_libbpf, &mb_bench_pb_custom,
		NULL,
	},
	.suite = (const struct mb_suite_entry[]){ { .bench = "rb-libbpf" }, { .bench = NULL } },
};
