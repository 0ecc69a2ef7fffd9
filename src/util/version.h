/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* mapbench's version and git revision: --version prints them, every document's context too. */
#ifndef MB_VERSION_H
#define MB_VERSION_H

extern const char mb_version[];
extern const char mb_git_revision[];

#endif
