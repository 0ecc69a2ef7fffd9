/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Every bench, in --list order (grouped by family), and the default suite. */
#ifndef MB_REGISTRY_H
#define MB_REGISTRY_H

#include "core/bench.h"

extern const struct mb_bench *const mb_benches[];	/* NULL-terminated */

/* The default suite: a bench name and the options it runs with. */
struct mb_suite_entry {
	const char *bench;
	const char *const *args;	/* extra command-line words, NULL-terminated (may be NULL) */
};

extern const struct mb_suite_entry mb_default_suite[];	/* ends with .bench = NULL */

const struct mb_bench *mb_bench_find(const char *name);

/* Up to @max bench names closest to @name (edit distance), for "did you mean". */
int mb_bench_suggest(const char *name, const char **out, int max);

#endif
