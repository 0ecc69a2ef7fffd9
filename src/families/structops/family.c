// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The structops family: struct_ops maps, made and freed, registered and unregistered. */
#include "families/family.h"

extern const struct mb_bench mb_bench_struct_ops_create;
extern const struct mb_bench mb_bench_struct_ops_register;

const struct mb_family mb_family_structops = {
	.name = "structops",
	.desc = "struct_ops maps (tcp_congestion_ops): creation and freeing, registration and unregistration",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_struct_ops_create, &mb_bench_struct_ops_register, NULL,
	},
};
