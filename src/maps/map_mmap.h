/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Mapping an mmapable BPF array (BPF_F_MMAPABLE) into user space. */
#ifndef MB_MAP_MMAP_H
#define MB_MAP_MMAP_H

#include <stddef.h>

/*
 * The first @bytes of the mmapable array map @fd, rounded up to whole pages as the kernel
 * lays it out, mapped shared with @prot; *@len gets the mapped length, for munmap. NULL (errno
 * set) when it cannot be mapped.
 */
void *mb_map_mmap(int fd, size_t bytes, int prot, size_t *len);

#endif
