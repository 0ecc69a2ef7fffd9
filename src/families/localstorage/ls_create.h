/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * local-storage-create, shared by its files: the bench (ls_create.c), the choice and loading
 * of its programs (ls_create_load.c) and its text (ls_create_text.c).
 */
#ifndef MB_LS_CREATE_H
#define MB_LS_CREATE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bench.h"
#include "sys/cgroup2.h"
#include "sys/memcg.h"

/* A comma-separated list of kmalloc attach points (raw_tp,tp_btf,tp) to refuse: the tests'. */
#define LSC_REFUSE_KMALLOC_ENV	"MAPBENCH_REFUSE_KMALLOC"
#define LSC_MAX_BATCH		1024

enum lsc_storage { LSC_SOCKET, LSC_TASK };
enum lsc_scope { LSC_SCOPE_PID, LSC_SCOPE_ALL };

/* The kmalloc counters, in the order they are tried; LSC_KM_NONE: none loaded. */
enum lsc_kmalloc { LSC_KM_RAW_TP, LSC_KM_TP_BTF, LSC_KM_TP, LSC_KM_NONE };

/* The bench's own counters (.counters) and metrics (.metrics). */
enum { LSC_CREATE_ERRS, LSC_OWNER_ERRS };
enum { LSC_M_KMALLOCS, LSC_M_KMEM };

struct lsc_args {
	int storage;		/* enum lsc_storage */
	uint32_t batch_size;
	int kmalloc_scope;	/* enum lsc_scope */
};

enum lsc_hook { LSC_HOOK_FORK, LSC_HOOK_LSM, LSC_HOOK_CGROUP };

struct ls_create_bpf;

struct lsc_state {
	struct ls_create_bpf *skel;
	enum lsc_hook hook;
	char hook_note[512];		/* why not the kernel's hook, or "" */
	struct mb_cgroup2 cg;		/* cgroup/sock_create's: joined for the run */
	enum lsc_kmalloc km;
	char km_why[512];		/* LSC_KM_NONE: why */
	uint64_t km_last;		/* kmallocs counted at the last sample */
	struct mb_memcg memcg;		/* LSC_KM_NONE: the fallback's v1 memory cgroup */
	bool memcg_ok;
	char memcg_why[512];
	uint64_t kmem_last;		/* its kmem at the last sample */
};

/* ls_create_load.c: pick the create hook, load the programs, the fallback. 0 or -errno. */
int lsc_load(struct mb_run *run, struct lsc_state *st);
/* "tp_btf/sched_process_fork", "lsm.s/socket_post_create", "cgroup/sock_create". */
const char *lsc_hook_name(enum lsc_hook hook);
/* "raw_tp/kmalloc", "tp_btf/kmalloc", "tp/kmem/kmalloc"; NULL for LSC_KM_NONE. */
const char *lsc_kmalloc_name(enum lsc_kmalloc km);
/* Whether @list (LSC_REFUSE_KMALLOC_ENV's value, may be NULL) names @km's key. */
bool lsc_kmalloc_refused(const char *list, enum lsc_kmalloc km);
/* Undo lsc_load(): programs, cgroups. */
void lsc_unload(struct mb_run *run, struct lsc_state *st);

#endif
