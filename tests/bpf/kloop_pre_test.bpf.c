// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * MB_LOOP_PROG_PRE's unit test: the current task, taken once before the loop, is the task
 * that made the test_run call (its pid in the slot's arg) at every op; the control takes it
 * with a helper call in every op.
 */
#include "drivers/kloop.bpf.h"

static __always_inline int count_task(struct mb_loop_ctx *lc, struct task_struct *t)
{
	if (t->pid == (int)lc->arg)
		lc->hits++;
	else
		lc->errors++;
	return 0;
}

static __always_inline int pre_cb(__u32 index, struct mb_loop_ctx *lc, struct task_struct *t)
{
	return count_task(lc, t);
}

MB_LOOP_PROG_PRE(mb_kpre_task, struct task_struct *, bpf_get_current_task_btf(), pre_cb)

static __always_inline int each_cb(__u32 index, struct mb_loop_ctx *lc)
{
	return count_task(lc, bpf_get_current_task_btf());
}

MB_LOOP_PROG(mb_kpre_each, each_cb)
