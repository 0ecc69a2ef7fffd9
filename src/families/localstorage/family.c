// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The localstorage family: task, socket, cgroup and inode local storage. */
#include "families/family.h"
#include "ls_cache.h"

extern const struct mb_bench mb_bench_ls_create;
extern const struct mb_bench mb_bench_ls_get;
extern const struct mb_bench mb_bench_ls_create_delete;
extern const struct mb_bench mb_bench_ls_syscall;
extern const struct mb_bench mb_bench_ls_owners;
extern const struct mb_bench mb_bench_ls_sk_get;
extern const struct mb_bench mb_bench_ls_sk_create_delete;
extern const struct mb_bench mb_bench_ls_tasks_trace;

const struct mb_family mb_family_localstorage = {
	.name = "localstorage",
	.desc = "local storage (task, sk, cgrp, inode): the kernel's cache, create and Tasks Trace benches; get, create, syscall access and owners per storage type",
	.benches = (const struct mb_bench *const[]){
		&mb_bench_ls_cache_seq_get, &mb_bench_ls_cache_int_get,
		&mb_bench_ls_cache_hashmap_control, &mb_bench_ls_create, &mb_bench_ls_get,
		&mb_bench_ls_create_delete, &mb_bench_ls_sk_get, &mb_bench_ls_sk_create_delete,
		&mb_bench_ls_syscall, &mb_bench_ls_owners, &mb_bench_ls_tasks_trace, NULL,
	},
	/* A task's storage, one map: the cost of a get that hits the owner's cache. */
	.suite = (const struct mb_suite_entry[]){ { .bench = "local-storage-get" }, { .bench = NULL } },
};
