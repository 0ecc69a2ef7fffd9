/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Layout shared by cgs.bpf.c and the cgroupmaps family's cgroup storage user space. */
#ifndef MB_CGS_SHARED_H
#define MB_CGS_SHARED_H

/* What the program returns: a cgroup_skb program's 1 lets the packet pass. */
#define MB_CGS_RET	1

#endif
