// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The only object that holds the Makefile's -DMB_VERSION and -DMB_GIT_REV: the Makefile
 * rebuilds it when either changes, so --version and the JSON context never disagree.
 */
#include "version.h"

#ifndef MB_VERSION
#define MB_VERSION "0.0.0"
#endif
#ifndef MB_GIT_REV
#define MB_GIT_REV "unknown"
#endif

const char mb_version[] = MB_VERSION;
const char mb_git_revision[] = MB_GIT_REV;
