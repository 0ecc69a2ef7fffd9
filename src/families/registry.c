// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

#define MB_FAMILY(name) extern const struct mb_family mb_family_##name;
#include "families.def"
#undef MB_FAMILY

const struct mb_family *const mb_families[] = {
#define MB_FAMILY(name) &mb_family_##name,
#include "families.def"
#undef MB_FAMILY
	NULL,
};

/* Room for many times today's benches; registry_init() stops the program when it is short. */
#define MAX_BENCHES	256
#define MAX_SUITE	64

static const struct mb_bench *bench_list[MAX_BENCHES + 1];
static struct mb_suite_entry suite_list[MAX_SUITE + 1];

const struct mb_bench *const *const mb_benches = bench_list;
const struct mb_suite_entry *const mb_default_suite = suite_list;

static void __attribute__((noreturn)) registry_full(const char *what, const char *max)
{
	fprintf(stderr, "mapbench: more %s than %s in src/families/registry.c\n", what, max);
	abort();
}

/*
 * The families' benches and suite entries, one family after another: a C initializer cannot
 * read another file's table, so the lists are made once, before main() and before any test.
 */
static void __attribute__((constructor)) registry_init(void)
{
	int nb = 0, ns = 0;

	for (int f = 0; mb_families[f]; f++) {
		const struct mb_family *fam = mb_families[f];

		for (int i = 0; fam->benches[i]; i++) {
			if (nb == MAX_BENCHES)
				registry_full("benches", "MAX_BENCHES");
			bench_list[nb++] = fam->benches[i];
		}
		for (int i = 0; fam->suite && fam->suite[i].bench; i++) {
			if (ns == MAX_SUITE)
				registry_full("default suite entries", "MAX_SUITE");
			suite_list[ns++] = fam->suite[i];
		}
	}
}

const struct mb_bench *mb_bench_find(const char *name)
{
	for (int i = 0; mb_benches[i]; i++)
		if (!strcmp(mb_benches[i]->name, name))
			return mb_benches[i];
	return NULL;
}

static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int *prev, *cur, d;

	if (la > 64 || lb > 64)
		return 1000;
	prev = calloc(lb + 1, sizeof(int));
	cur = calloc(lb + 1, sizeof(int));
	if (!prev || !cur) {
		free(prev);
		free(cur);
		return 1000;
	}
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			int del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, (lb + 1) * sizeof(int));
	}
	d = prev[lb];
	free(prev);
	free(cur);
	return d;
}

int mb_bench_suggest(const char *name, const char **out, int max)
{
	int n = 0;

	/* Names within a third of their length in edits, or containing the input. */
	for (int limit = 1; limit <= 6 && n < max; limit++) {
		for (int i = 0; mb_benches[i] && n < max; i++) {
			const char *cand = mb_benches[i]->name;
			int d = edit_distance(name, cand);
			bool dup = false;

			for (int k = 0; k < n; k++)
				dup |= out[k] == cand;
			if (dup)
				continue;
			if (d == limit || (limit == 1 && strlen(name) >= 3 && strstr(cand, name)))
				if (d <= (int)strlen(cand) / 3 + 1 || strstr(cand, name))
					out[n++] = cand;
		}
	}
	return n;
}
