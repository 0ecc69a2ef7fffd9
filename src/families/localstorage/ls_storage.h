/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The family's storage types, one table keyed by their owners' kind (drivers/owners.h): a
 * storage type and its owner kind are one choice, so every bench's --storage takes its index
 * as an enum mb_owner_kind.
 */
#ifndef MB_LS_STORAGE_H
#define MB_LS_STORAGE_H

#include "drivers/owners.h"

/* --storage's choices, by owner kind: "task", "sk", "cgrp", "inode", NULL. */
extern const char *const ls_storage_names[];

/*
 * The storage map types, by owner kind: "task_storage", "sk_storage", "cgrp_storage",
 * "inode_storage", NULL (a bench's .map_types where it takes any of them).
 */
extern const char *const ls_storage_types[];

/* The storage map type whose owners are @kind: ls_storage_types[kind]; "?": none. */
const char *ls_storage_type(enum mb_owner_kind kind);

#endif
