/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The families of families.def, and every bench and the default suite made from them: in
 * --list order (grouped by family, each family's benches in its own order).
 */
#ifndef MB_REGISTRY_H
#define MB_REGISTRY_H

#include "families/family.h"

extern const struct mb_family *const mb_families[];	/* NULL-terminated */

extern const struct mb_bench *const *const mb_benches;	/* NULL-terminated */

/* The default suite: each family's entries, in family order. Ends with .bench = NULL. */
extern const struct mb_suite_entry *const mb_default_suite;

const struct mb_bench *mb_bench_find(const char *name);

/* Up to @max bench names closest to @name (edit distance), for "did you mean". */
int mb_bench_suggest(const char *name, const char **out, int max);

#endif
