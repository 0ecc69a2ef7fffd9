/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * mapbench's version and git revision: the Makefile passes both (-DMB_VERSION, -DMB_GIT_REV);
 * --version prints them and every document's context carries them.
 */
#ifndef MB_VERSION_H
#define MB_VERSION_H

#ifndef MB_VERSION
#define MB_VERSION "0.0.0"
#endif
#ifndef MB_GIT_REV
#define MB_GIT_REV "unknown"
#endif

#endif
