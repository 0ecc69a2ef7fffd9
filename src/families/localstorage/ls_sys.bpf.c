// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * local-storage-syscall's round trip for task storage: what user space wrote through a pidfd
 * of the calling thread, read by BPF from the current task. A syscall program runs in the
 * thread that calls its test_run, so the current task is that producer's own thread. User
 * space gives the map (bpf_map__reuse_fd: the value size is the run's).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u32);
} mb_ls_sys_task SEC(".maps");

/* The value's first four bytes, or 0 where the current task has none (a value never 0). */
SEC("syscall")
int mb_ls_sys_task_read(void *ctx)
{
	__u32 *v = bpf_task_storage_get(&mb_ls_sys_task, bpf_get_current_task_btf(), 0, 0);

	return v ? *v : 0;
}
