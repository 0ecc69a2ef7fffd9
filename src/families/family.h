/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A family: the benches of one folder src/families/<name>/, which defines its descriptor,
 * struct mb_family mb_family_<name>, in family.c. families.def lists the families, one line
 * each; the registry, --list, --help and the docs table are made from these descriptors.
 */
#ifndef MB_FAMILY_H
#define MB_FAMILY_H

#include "core/bench.h"

/* An entry of the default suite: a bench name and the options it runs with. */
struct mb_suite_entry {
	const char *bench;
	const char *const *args;	/* extra command-line words, NULL-terminated, or NULL */
};

struct mb_family {
	const char *name;	/* every bench's .family */
	const char *desc;	/* one line: what the family measures */
	const struct mb_bench *const *benches;	/* in --list order, NULL-terminated */
	const struct mb_suite_entry *suite;	/* its part of the default suite, in order, ending
						 * with .bench = NULL; NULL: none */
};

#endif
