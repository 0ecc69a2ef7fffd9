/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Layout shared by cga.bpf.c and the cgroupmaps family's user space. */
#ifndef MB_CGA_SHARED_H
#define MB_CGA_SHARED_H

/* Where the program's own counter (lc->counter[0]) counts: answers of 1 (under the cgroup). */
#define MB_CGA_UNDER		0

#endif
