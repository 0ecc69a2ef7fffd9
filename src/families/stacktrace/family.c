// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The stacktrace family: bpf_get_stackid() into a stack trace map. */
#include "families/family.h"

extern const struct mb_bench mb_bench_stack_trace_get_stackid;

const struct mb_family mb_family_stacktrace = {
	.name = "stacktrace",
	.desc = "stack trace maps: bpf_get_stackid() by frames kept, distinct traces and buckets",
	.benches = (const struct mb_bench *const[]){ &mb_bench_stack_trace_get_stackid, NULL },
};
