/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* htab-mem: what its BPF programs and user space agree on. */
#ifndef MB_HTAB_MEM_H
#define MB_HTAB_MEM_H

#define MB_HTAB_BATCH		64	/* map operations per op, as the kernel's bench */
#define MB_HTAB_MAX_VALUE	4096	/* largest --value-size */

/* The ops a producer asks the programs for (the trigger runner's op numbers, trigger_shared.h). */
enum mb_htab_op {
	MB_HTAB_OVERWRITE = 1,	/* 64 updates of existing keys */
	MB_HTAB_BATCH_ADD_DEL,	/* 64 updates, then 64 deletes of the same keys: 2 ops */
	MB_HTAB_ADD,		/* 64 inserts (BPF_NOEXIST) */
	MB_HTAB_DEL,		/* 64 deletes */
};

#endif
