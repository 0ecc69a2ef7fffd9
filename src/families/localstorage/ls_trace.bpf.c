// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * local-storage-tasks-trace's programs. On getpgid's entry (the trigger runner, for the
 * producer and the sleepers alike) a task storage is created on the calling task, written and
 * deleted: each delete hands the storage to RCU Tasks Trace to free. Two fentry programs time
 * the grace periods that follow: rcu_tasks_trace_pregp_step stamps a start, and
 * rcu_tasks_trace_postgp adds the time since to the total and counts one grace period. The
 * grace-period bodies are inline functions, so that twin programs of a type this machine loads
 * (syscall, run by the unit test) put them through the verifier where fentry is refused.
 */
#include "drivers/trigger.bpf.h"
#include "ls_trace_shared.h"

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, int);
} mb_ls_trace_storage SEC(".maps");

__u64 ls_trace_sleeper_gets;	/* runs the sleepers fired that made storage */
__u64 ls_trace_get_fails;	/* runs whose get(F_CREATE) gave no storage */
__u64 ls_trace_gp_hits;		/* grace periods timed */
__u64 ls_trace_gp_ns;		/* their total time */
__u64 ls_trace_gp_start;	/* the one under way's start, 0: none */
__u64 ls_trace_unexpected;	/* a grace period's end without its start, after the first */
__u64 ls_trace_gp_untimed;	/* the first end, of a grace period begun before the attach */
bool ls_trace_postgp_seen;

__u64 ls_trace_one = 1, ls_trace_zero;

/* Create, write and delete the calling task's storage; count it in slot @idx. */
static __always_inline int ls_trace_get(int idx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u64 t0 = bpf_ktime_get_ns();
	int *v;

	v = bpf_task_storage_get(&mb_ls_trace_storage, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!v) {
		__sync_fetch_and_add(&ls_trace_get_fails, 1);
		return 0;
	}
	*v = 3;
	bpf_task_storage_delete(&mb_ls_trace_storage, task);
	if (idx == LS_TRACE_SLEEPER_SLOT) {
		__sync_fetch_and_add(&ls_trace_sleeper_gets, 1);
		return 0;
	}
	mb_trigger_account(idx, t0, 1, &ls_trace_one, &ls_trace_zero);
	return 0;
}

MB_TRIGGER_PROGS(ls_trace_get, LS_TRACE_OP_GET, ls_trace_get(idx))

/* A grace period starts (one kthread runs them: no two overlap). */
static __always_inline void ls_trace_gp_begin(void)
{
	ls_trace_gp_start = bpf_ktime_get_ns();
}

/*
 * A grace period ends. Without a start: the first end may close one begun before the attach
 * (not timed; the kernel's bench adds its time since boot), any later one is out of order.
 */
static __always_inline void ls_trace_gp_end(void)
{
	__u64 start = ls_trace_gp_start;

	if (!start) {
		if (ls_trace_postgp_seen)
			__sync_fetch_and_add(&ls_trace_unexpected, 1);
		else
			__sync_fetch_and_add(&ls_trace_gp_untimed, 1);
		ls_trace_postgp_seen = true;
		return;
	}
	__sync_fetch_and_add(&ls_trace_gp_ns, bpf_ktime_get_ns() - start);
	__sync_fetch_and_add(&ls_trace_gp_hits, 1);
	ls_trace_gp_start = 0;
	ls_trace_postgp_seen = true;
}

SEC("?fentry/rcu_tasks_trace_pregp_step")
int BPF_PROG(ls_trace_pregp_step)
{
	ls_trace_gp_begin();
	return 0;
}

SEC("?fentry/rcu_tasks_trace_postgp")
int BPF_PROG(ls_trace_postgp)
{
	ls_trace_gp_end();
	return 0;
}

/* The twins: the same bodies, run by test_run in the unit test (tests/unit/test_ls_trace.c). */
SEC("?syscall")
int ls_trace_pregp_twin(void *ctx)
{
	ls_trace_gp_begin();
	return 0;
}

SEC("?syscall")
int ls_trace_postgp_twin(void *ctx)
{
	ls_trace_gp_end();
	return 0;
}
