// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The tailcall family: a tail call through a prog_array against a direct BPF-to-BPF call. */
#include "families/family.h"

extern const struct mb_bench mb_bench_prog_array_tail_call;
extern const struct mb_bench mb_bench_prog_array_tail_call_var;
extern const struct mb_bench mb_bench_prog_array_tail_miss;
extern const struct mb_bench mb_bench_bpf_direct_call;
extern const struct mb_bench mb_bench_bpf_call_empty;

const struct mb_family mb_family_tailcall = {
	.name = "tailcall",
	.desc = "prog_array tail calls: a hit (constant or variable key), a miss, a direct call, the empty op",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_prog_array_tail_call, &mb_bench_prog_array_tail_call_var,
		&mb_bench_prog_array_tail_miss,
		&mb_bench_bpf_direct_call, &mb_bench_bpf_call_empty, NULL,
	},
};
