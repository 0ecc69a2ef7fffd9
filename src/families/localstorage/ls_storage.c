// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The family's storage types by owner kind (ls_storage.h). */
#include "ls_storage.h"

const char *const ls_storage_names[MB_OWNER_NR + 1] = {
	[MB_OWNER_TASK] = "task", [MB_OWNER_SOCK] = "sk",
	[MB_OWNER_CGRP] = "cgrp", [MB_OWNER_INODE] = "inode",
	[MB_OWNER_NR] = NULL,
};

const char *const ls_storage_types[MB_OWNER_NR + 1] = {
	[MB_OWNER_TASK] = "task_storage", [MB_OWNER_SOCK] = "sk_storage",
	[MB_OWNER_CGRP] = "cgrp_storage", [MB_OWNER_INODE] = "inode_storage",
	[MB_OWNER_NR] = NULL,
};

const char *ls_storage_type(enum mb_owner_kind kind)
{
	return (unsigned int)kind < MB_OWNER_NR ? ls_storage_types[kind] : "?";
}
