// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The per-storage-type benches: one in-kernel op loop per op and owner type. The owner, the
 * trusted current task (or its cgroup v2), is taken once per call before the loop
 * (MB_LOOP_PROG_PRE), so no op pays bpf_get_current_task_btf(). Each op takes the next of
 * mb_ls_nr_maps storage maps from the outer array (a cursor that wraps without a divide), then
 * gets (or creates and deletes) the owner's storage in it. User space creates the inner maps,
 * sets the first as the outer map's template (no template map is made) and loads only the
 * programs of the run's type and op; the fill programs make the storages before timing and
 * write the values user space reads back.
 */
#include "drivers/kloop.bpf.h"
#include "ls_types_shared.h"

/* The inner map's declaration is a placeholder: user space gives the outer map its first map. */
struct ls_inner {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct ls_inner);
} mb_ls_outer SEC(".maps");

const volatile __u32 mb_ls_nr_maps = 1;

/* The next map of the owner's mb_ls_nr_maps. */
static __always_inline void *next_map(struct mb_loop_ctx *lc)
{
	__u32 cur = (__u32)lc->cursor;

	lc->cursor = cur + 1 >= mb_ls_nr_maps ? 0 : cur + 1;
	return bpf_map_lookup_elem(&mb_ls_outer, &cur);
}

/* A get (hit) on the next map: a NULL return is an error, the storage was made before. */
#define LS_GET_OP(_name, _owner_type, _get)					\
static __always_inline int _name(__u32 index, struct mb_loop_ctx *lc, _owner_type owner) \
{										\
	void *map = next_map(lc);						\
										\
	if (map && _get(map, owner, 0, 0))					\
		lc->hits++;							\
	else									\
		lc->errors++;							\
	return 0;								\
}

/* A get with F_CREATE and a delete on the same owner and map: one create+delete pair. */
#define LS_CD_OP(_name, _owner_type, _get, _delete)				\
static __always_inline int _name(__u32 index, struct mb_loop_ctx *lc, _owner_type owner) \
{										\
	void *map = next_map(lc);						\
										\
	if (!map || !_get(map, owner, 0, BPF_LOCAL_STORAGE_GET_F_CREATE))	\
		lc->errors++;							\
	else if (_delete(map, owner))						\
		lc->errors++;							\
	else									\
		lc->hits++;							\
	return 0;								\
}

/*
 * The first pass, on the calling thread's task or cgroup: a storage in each map, created and
 * written with LS_VALUE(i). Returns the number of maps done (mb_ls_nr_maps when all went well).
 * Once per producer, untimed: bpf_loop, whose callback the verifier checks once for any index.
 */
#define LS_FILL_PROG(_prog, _get, _owner)					\
static int _prog##_cb(__u32 i, void *data)					\
{										\
	__u32 *done = data, key = i;						\
	void *map = bpf_map_lookup_elem(&mb_ls_outer, &key);			\
	__u64 *v;								\
										\
	if (!map)								\
		return 1;							\
	v = _get(map, _owner(), 0, BPF_LOCAL_STORAGE_GET_F_CREATE);		\
	if (!v)									\
		return 1;							\
	*v = LS_VALUE(i);							\
	(*done)++;								\
	return 0;								\
}										\
										\
SEC("raw_tp")									\
int _prog(__u64 *ctx)								\
{										\
	__u32 done = 0;								\
										\
	bpf_loop(mb_ls_nr_maps, _prog##_cb, &done, 0);				\
	return done;								\
}

static __always_inline struct task_struct *ls_task_owner(void)
{
	return bpf_get_current_task_btf();
}

static __always_inline struct cgroup *ls_cgrp_owner(void)
{
	return bpf_get_current_task_btf()->cgroups->dfl_cgrp;
}

LS_GET_OP(task_get, struct task_struct *, bpf_task_storage_get)
LS_GET_OP(cgrp_get, struct cgroup *, bpf_cgrp_storage_get)
LS_CD_OP(task_cd, struct task_struct *, bpf_task_storage_get, bpf_task_storage_delete)
LS_CD_OP(cgrp_cd, struct cgroup *, bpf_cgrp_storage_get, bpf_cgrp_storage_delete)

MB_LOOP_PROG_PRE(mb_ls_task_get, struct task_struct *, ls_task_owner(), task_get)
MB_LOOP_PROG_PRE(mb_ls_cgrp_get, struct cgroup *, ls_cgrp_owner(), cgrp_get)
MB_LOOP_PROG_PRE(mb_ls_task_cd, struct task_struct *, ls_task_owner(), task_cd)
MB_LOOP_PROG_PRE(mb_ls_cgrp_cd, struct cgroup *, ls_cgrp_owner(), cgrp_cd)

LS_FILL_PROG(mb_ls_task_fill, bpf_task_storage_get, ls_task_owner)
LS_FILL_PROG(mb_ls_cgrp_fill, bpf_cgrp_storage_get, ls_cgrp_owner)
