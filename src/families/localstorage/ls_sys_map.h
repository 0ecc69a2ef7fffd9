/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Local storage maps made from user space, for the family's syscall and owner benches. */
#ifndef MB_LS_SYS_MAP_H
#define MB_LS_SYS_MAP_H

#include <stdint.h>

#include "drivers/owners.h"

struct mb_run;

/*
 * @n maps of the storage type of @kind's owners (@fd[i], -1 before), values of @value_size
 * bytes, with one minimal BTF. 0; a skip (mb_run_skip) where the kernel has no such map type;
 * a failure explained on @run otherwise. The caller closes what was made.
 */
int ls_sys_maps_create(struct mb_run *run, enum mb_owner_kind kind, uint32_t value_size,
		       int *fd, uint32_t n);

#endif
