/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The trigger runner's socket kind, BPF side (user side: trigger.h, MB_TRIGGER_KIND_SOCKET):
 * MB_TRIGGER_SOCK_PROGS makes an op's program on tp_btf/sock_recv_length, run by a producer's
 * read of its own socket, which the program gets as a typed pointer. Which producer reads is
 * its thread's slot (thread_slots.bpf.h: mb_trigger_sock_register() puts the thread there);
 * which op its reads stand for, mb_trigger_socks.op at that slot.
 */
#ifndef MB_TRIGGER_SOCK_BPF_H
#define MB_TRIGGER_SOCK_BPF_H

#include "thread_slots.bpf.h"
#include "trigger.bpf.h"

/* The slot of the reading thread if it is a producer of ours asking for @op, else -1. */
static __always_inline int mb_trigger_sock_slot(__u32 op)
{
	int idx;

	if ((__u32)(bpf_get_current_pid_tgid() >> 32) != mb_trigger_tgid)
		return -1;
	idx = mb_thread_slot();
	if (idx < 0 || idx >= MB_MAX_SLOTS || mb_trigger_socks.op[idx] != op)
		return -1;
	return idx;
}

/*
 * The socket kind's program of op @_op, on the sock_recv_length tracepoint: @_call, an
 * expression of idx (the reading producer's slot) and sk (its socket, a trusted pointer), runs
 * it. Not loaded unless user space says so.
 */
#define MB_TRIGGER_SOCK_PROGS(_name, _op, _call)			\
SEC("?tp_btf/sock_recv_length")						\
int BPF_PROG(_name##_sk, struct sock *sk, int ret, int flags)		\
{									\
	int idx = mb_trigger_sock_slot(_op);				\
									\
	return idx < 0 ? 0 : (_call);					\
}

#endif
