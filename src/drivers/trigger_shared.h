/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the trigger runner's programs (trigger.bpf.h) and user space (trigger.h) agree on. The
 * includer provides __u32 and __u64 (vmlinux.h on the BPF side, <linux/types.h> in user space).
 *
 * A producer fires one run of a program with getpgid(MB_TRIGGER_MAGIC | op << 16 | slot): no
 * process has that pid, so the syscall does nothing, and the argument tells the program which
 * producer (slot) asks for which of the family's ops (1..255, the family's numbers).
 */
#ifndef MB_TRIGGER_SHARED_H
#define MB_TRIGGER_SHARED_H

#include "kloop_shared.h"	/* MB_MAX_SLOTS */

#define MB_TRIGGER_MAGIC	0x3b000000u
#define MB_TRIGGER_MAGIC_MASK	0xff000000u
#define MB_TRIGGER_OP_SHIFT	16
#define MB_TRIGGER_OP_MASK	0xffu
#define MB_TRIGGER_SLOT_MASK	0xffffu

/*
 * The socket kind's ops (its programs' .bss): the op each producer's reads stand for, at its
 * slot (0: none). Which producer a reading thread is, the thread -> slot map of
 * drivers/thread_slots says (trigger_sock.bpf.h).
 */
struct mb_trigger_socks {
	__u32 op[MB_MAX_SLOTS];
};

/* The syscall argument that asks for @op on behalf of producer @slot. */
static inline __attribute__((always_inline)) __u64 mb_trigger_arg(__u32 op, __u32 slot)
{
	return MB_TRIGGER_MAGIC | (op & MB_TRIGGER_OP_MASK) << MB_TRIGGER_OP_SHIFT |
	       (slot & MB_TRIGGER_SLOT_MASK);
}

/* The producer slot @arg asks for @op for, or -1: not a trigger, another op, no such slot. */
static inline __attribute__((always_inline)) int mb_trigger_arg_slot(__u64 arg, __u32 op)
{
	if ((arg & MB_TRIGGER_MAGIC_MASK) != MB_TRIGGER_MAGIC ||
	    ((arg >> MB_TRIGGER_OP_SHIFT) & MB_TRIGGER_OP_MASK) != op)
		return -1;
	arg &= MB_TRIGGER_SLOT_MASK;
	return arg < MB_MAX_SLOTS ? (int)arg : -1;
}

#endif
