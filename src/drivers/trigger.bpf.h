/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The trigger runner's BPF side (user side: trigger.h). A family's op runs in a program on the
 * entry of getpgid(), which a producer calls with an argument that names its slot and the op
 * (trigger_shared.h). MB_TRIGGER_PROGS makes one program per attach point from one op; user
 * space loads the programs of one attach point (the first the kernel accepts):
 *
 *  - _name##_btf: tp_btf/sys_enter, the BTF-typed raw tracepoint on every syscall's entry,
 *    filtered by the syscall's number (the cheapest);
 *  - _name##_raw: raw_tp/sys_enter, the same tracepoint untyped;
 *  - _name##_tp: tp/syscalls/sys_enter_getpgid, the classic tracepoint of getpgid alone (it
 *    needs tracefs, where libbpf finds its id).
 *
 * Every program ignores other processes' syscalls (mb_trigger_tgid, set by user space), or with
 * mb_trigger_children set, those of processes that are not ours or our children (whose parent
 * is our process: the sleepers a family forks to fire its programs as the kernel's do).
 *
 * MB_TRIGGER_SOCK_PROGS makes the socket kind's program (_name##_sk, on tp_btf/sock_recv_length),
 * run by a producer's read of its own socket, which the program gets as a typed pointer.
 */
#ifndef MB_TRIGGER_BPF_H
#define MB_TRIGGER_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "kloop_shared.h"
#include "slots.bpf.h"
#include "trigger_shared.h"

const volatile __u32 mb_trigger_tgid;	/* our process: other processes' syscalls are ignored */
const volatile __u32 mb_trigger_sysnr;	/* __NR_getpgid, for the programs on sys_enter */
const volatile __u32 mb_trigger_children;	/* 1: our children's syscalls count too */

struct mb_trigger_socks mb_trigger_socks;	/* the socket kind's producers, by user space */

/* Whether the current task is of our process, or of a child of it where children count. */
static __always_inline bool mb_trigger_ours(void)
{
	struct task_struct *task;

	if ((__u32)(bpf_get_current_pid_tgid() >> 32) == mb_trigger_tgid)
		return true;
	if (!mb_trigger_children)
		return false;
	task = (struct task_struct *)bpf_get_current_task();
	return (__u32)BPF_CORE_READ(task, real_parent, tgid) == mb_trigger_tgid;
}

/* The slot of this sys_enter if it is one of ours asking for @op, else -1. */
static __always_inline int mb_trigger_sys_enter(struct pt_regs *regs, long id, __u32 op)
{
	if (id != mb_trigger_sysnr)
		return -1;
	if (!mb_trigger_ours())
		return -1;
	return mb_trigger_arg_slot(PT_REGS_PARM1_CORE_SYSCALL(regs), op);
}

/* The same for the getpgid tracepoint, whose context holds the syscall's arguments. */
static __always_inline int mb_trigger_tp(struct trace_event_raw_sys_enter *ctx, __u32 op)
{
	if (!mb_trigger_ours())
		return -1;
	return mb_trigger_arg_slot(ctx->args[0], op);
}

/*
 * Accounts one run of an op in slot @idx: its in-kernel time since @t0, the @ops it counts
 * (the figure's unit), and the map operations in it that did (*@hits) or failed (*@errors),
 * read once the clock has stopped.
 */
static __always_inline void mb_trigger_account(int idx, __u64 t0, __u64 ops, const __u64 *hits,
					       const __u64 *errors)
{
	struct mb_slot *s;
	__u64 t1 = bpf_ktime_get_ns();

	if (idx < 0 || idx >= MB_MAX_SLOTS)
		return;
	s = &mb_slots[idx];
	s->kernel_ns += t1 - t0;
	s->ops += ops;
	s->hits += *hits;
	s->errors += *errors;
	s->calls++;
}

/* Adds @n to slot @idx's own counter @i (the bench's .counters[i]; MB_LOOP_COUNTERS of them). */
static __always_inline void mb_trigger_add_counter(int idx, int i, __u64 n)
{
	if (idx < 0 || idx >= MB_MAX_SLOTS || i < 0 || i >= MB_LOOP_COUNTERS)
		return;
	mb_slots[idx].counter[i] += n;
}

/*
 * The three programs of op @_op: @_call, an expression of idx (the asking producer's slot),
 * runs it and gives the program's return value. They are not loaded unless user space says
 * so (the "?" of their sections: mb_trigger_prepare() picks one attach point's).
 */
#define MB_TRIGGER_PROGS(_name, _op, _call)				\
SEC("?tp_btf/sys_enter")						\
int BPF_PROG(_name##_btf, struct pt_regs *regs, long id)		\
{									\
	int idx = mb_trigger_sys_enter(regs, id, _op);			\
									\
	return idx < 0 ? 0 : (_call);					\
}									\
SEC("?raw_tp/sys_enter")						\
int BPF_PROG(_name##_raw, struct pt_regs *regs, long id)		\
{									\
	int idx = mb_trigger_sys_enter(regs, id, _op);			\
									\
	return idx < 0 ? 0 : (_call);					\
}									\
SEC("?tp/syscalls/sys_enter_getpgid")					\
int _name##_tp(struct trace_event_raw_sys_enter *ctx)			\
{									\
	int idx = mb_trigger_tp(ctx, _op);				\
									\
	return idx < 0 ? 0 : (_call);					\
}

/* The socket kind's programs (MB_TRIGGER_SOCK_PROGS) are in trigger_sock.bpf.h. */

#endif
