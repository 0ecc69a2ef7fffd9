/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Which benches measure each map type (mapbench --map-types): every type the running kernel
 * has, and the recipes' types it lacks, probed by drivers/map_probe; the benches from their
 * descriptors' .map_types, the footprint benches (map-mem) apart; for a type not created here
 * or not covered, why. Text and a JSON document (docs/map-types.schema.json).
 */
#ifndef MB_FAMILIES_COVERAGE_H
#define MB_FAMILIES_COVERAGE_H

#include <stdbool.h>
#include <stdio.h>

#include "core/bench.h"
#include "drivers/map_probe.h"

struct mb_json;

struct mb_coverage_row {
	const struct mb_map_probe *probe;
	const struct mb_bench **benches;	/* that measure its ops, NULL-terminated */
	int nr_benches;
	const struct mb_bench **memory;		/* footprint benches with a row for it */
	int nr_memory;
	/* Not covered: why (the recipe's sentence); NULL when covered, or none given (a bug). */
	const char *why_not_covered;
};

/*
 * The rows of @n probed types against @benches (NULL-terminated). A footprint bench counts as
 * a memory row only where the type is created here. 0 or -ENOMEM; mb_coverage_free() after.
 */
int mb_coverage_rows(const struct mb_map_probe *p, int n, const struct mb_bench *const *benches,
		     struct mb_coverage_row **out);
void mb_coverage_free(struct mb_coverage_row *rows, int n);

/* The table, one row per type, and the count lines. */
void mb_coverage_print(FILE *f, const struct mb_coverage_row *rows, int n);
/* The document: schema_version, context (@ctx, taken), map_types[], counts. */
struct mb_json *mb_coverage_json(const struct mb_coverage_row *rows, int n, struct mb_json *ctx);

#endif
