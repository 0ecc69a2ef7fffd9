/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Layout shared by xm.bpf.c and the xdpmaps family's user space. */
#ifndef MB_XM_SHARED_H
#define MB_XM_SHARED_H

/* Entries of a map at most: the programs read their keys from an array of this many. */
#define XM_MAX_ENTRIES		4096

#endif
