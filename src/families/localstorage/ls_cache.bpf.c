// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The kernel's local storage cache benches: a trigger run (a producer's getpgid(), through the
 * trigger runner: src/drivers/trigger.bpf.h) runs LS_GETS_PER_RUN iterations of bpf_loop, as
 * the kernel's fentry program does. Iteration i gets the current task's storage in inner map
 * i % ls_nr_maps of ls_maps (created on first use: F_CREATE), or, for the hashmap control,
 * looks a random key up in a full hash map. An owner caches its 16 most used storage maps:
 * past 16 maps per task, a get searches the task's list.
 *
 * ls_maps' inner maps are task storage or hash maps, whatever user space made its template:
 * each program is loaded only with the inner map type it uses.
 */
#include "drivers/trigger.bpf.h"
#include "ls_shared.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, LS_MAX_MAPS);	/* --nr_maps, set before load */
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} ls_maps SEC(".maps");

const volatile __u32 ls_nr_maps = 1;
const volatile __u32 ls_nr_keys = 1;		/* the control's keys used */

struct ls_loop {
	struct task_struct *task;
	__u64 hits;		/* gets that returned a value */
	__u64 important;	/* those on map 0 */
	__u64 errors;		/* gets that returned NULL (none expected) */
};

static __always_inline void ls_count(struct ls_loop *l, __u32 idx, bool found)
{
	if (!found) {
		l->errors++;
		return;
	}
	l->hits++;
	if (!idx)
		l->important++;
}

static __always_inline void ls_task_get(struct ls_loop *l, __u32 idx)
{
	void *inner = bpf_map_lookup_elem(&ls_maps, &idx);

	ls_count(l, idx, inner && bpf_task_storage_get(inner, l->task, 0,
						      BPF_LOCAL_STORAGE_GET_F_CREATE));
}

static int ls_seq_cb(__u32 i, void *ctx)
{
	ls_task_get(ctx, i % ls_nr_maps);
	return 0;
}

/* The kernel's interleaved get: map 0, the important one, once more after every third map. */
static int ls_int_cb(__u32 i, void *ctx)
{
	__u32 idx = i % ls_nr_maps;

	ls_task_get(ctx, idx);
	if (idx % 3 == 0)
		ls_task_get(ctx, 0);
	return 0;
}

static int ls_hash_cb(__u32 i, void *ctx)
{
	__u32 idx = i % ls_nr_maps, key;
	void *inner = bpf_map_lookup_elem(&ls_maps, &idx);

	if (!inner) {
		ls_count(ctx, idx, false);
		return 0;
	}
	key = bpf_get_prandom_u32() % ls_nr_keys;
	ls_count(ctx, idx, bpf_map_lookup_elem(inner, &key));
	return 0;
}

/* One trigger run for producer @idx: the loop of gets, timed and counted in its slot. */
static __always_inline int ls_run(int idx, int (*cb)(__u32, void *))
{
	struct ls_loop l = { .task = bpf_get_current_task_btf() };
	__u64 t0 = bpf_ktime_get_ns();

	bpf_loop(LS_GETS_PER_RUN, cb, &l, 0);
	mb_trigger_account(idx, t0, l.hits + l.errors, &l.hits, &l.errors);
	mb_trigger_add_counter(idx, LS_COUNTER_IMPORTANT, l.important);
	return 0;
}

MB_TRIGGER_PROGS(ls_seq, LS_OP_SEQ, ls_run(idx, ls_seq_cb))
MB_TRIGGER_PROGS(ls_int, LS_OP_INT, ls_run(idx, ls_int_cb))
MB_TRIGGER_PROGS(ls_hash, LS_OP_HASH, ls_run(idx, ls_hash_cb))
