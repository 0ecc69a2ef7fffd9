// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * lpm-trie-free: the in-kernel time of bpf_map_free_deferred() for one LPM trie. It is the work
 * item that frees a map once its last reference is gone, and where trie_free() runs. Two ways
 * to time it, chosen in user space (autoload):
 *  - fentry/fexit on bpf_map_free_deferred, as the kernel's bench does (needs BPF trampolines);
 *  - the workqueue_execute_start/end tracepoints around the same work item (raw_tp, no
 *    trampoline): the interval adds only the tracepoints' own cost.
 * The map's id is already released when the work runs, so the trie is recognised by its type
 * and its name, which is unique per run.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* The name of the tries to time, NUL-padded to BPF_OBJ_NAME_LEN (set before load). */
const volatile __u64 mb_free_name[2];

/* Written here, read by user space through the mmapped .bss. */
__u64 mb_free_count;	/* frees timed; incremented after mb_free_ns */
__u64 mb_free_ns;	/* their total in-kernel time */
__u64 mb_free_work;	/* the work item being timed, 0 when none */
__u64 mb_free_t0;

/* Whether @work is the free work item of one of the bench's tries. */
static __always_inline bool is_bench_trie(__u64 work)
{
	struct bpf_map *map = (void *)(work - bpf_core_field_offset(struct bpf_map, work));
	__u64 name[2] = {};
	__u32 type = 0;

	/* Other work items are not maps: the reads may fail, or find other bytes. */
	if (bpf_core_read(&type, sizeof(type), &map->map_type) ||
	    type != BPF_MAP_TYPE_LPM_TRIE)
		return false;
	if (bpf_core_read(name, sizeof(name), &map->name))
		return false;
	return name[0] == mb_free_name[0] && name[1] == mb_free_name[1];
}

static __always_inline void free_start(__u64 work)
{
	if (!is_bench_trie(work))
		return;
	mb_free_work = work;
	mb_free_t0 = bpf_ktime_get_ns();
}

static __always_inline void free_end(__u64 work)
{
	__u64 t1 = bpf_ktime_get_ns();

	if (!work || work != mb_free_work)
		return;
	mb_free_ns += t1 - mb_free_t0;
	mb_free_work = 0;
	/* A full barrier: user space sees mb_free_ns before the new count. */
	__sync_fetch_and_add(&mb_free_count, 1);
}

SEC("?fentry/bpf_map_free_deferred")
int BPF_PROG(mb_free_fentry, struct work_struct *work)
{
	free_start((__u64)work);
	return 0;
}

SEC("?fexit/bpf_map_free_deferred")
int BPF_PROG(mb_free_fexit, struct work_struct *work)
{
	free_end((__u64)work);
	return 0;
}

/* Arguments: (struct work_struct *work) and (struct work_struct *work, work_func_t function). */
SEC("?raw_tp/workqueue_execute_start")
int mb_free_wq_start(struct bpf_raw_tracepoint_args *ctx)
{
	free_start(ctx->args[0]);
	return 0;
}

SEC("?raw_tp/workqueue_execute_end")
int mb_free_wq_end(struct bpf_raw_tracepoint_args *ctx)
{
	free_end(ctx->args[0]);
	return 0;
}
