/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * State shared by the bloom family's files, layered top down: bloom.c (options, set-up,
 * producers) calls bloom_result.c (checks, false-positive and speed-up figures into
 * run->extra) and names bloom_text.c's text lines, which read only run->extra.
 */
#ifndef MB_BENCHS_BLOOM_H
#define MB_BENCHS_BLOOM_H

#include <stdbool.h>
#include <stdint.h>

#include "bloom_counters.h"
#include "core/bench.h"

struct bloom_bpf;

struct bloom_args {
	uint32_t nr_entries;
	uint32_t nr_hash_funcs;
	uint32_t value_size;
	uint64_t seed;
	double hit_ratio;	/* hash map benches only */
};

enum bl_kind {
	BL_LOOKUP,		/* bloom-lookup */
	BL_UPDATE,		/* bloom-update */
	BL_FP,			/* bloom-false-positive */
	BL_HASH,		/* hashmap-without-bloom */
	BL_HASH_BLOOM,		/* hashmap-with-bloom */
};

/* One ABBA round of the with/without comparison: ns/op of each, same values. */
struct bl_round {
	double with_ns;
	double without_ns;
};

struct bl_prod {
	uint8_t *present;	/* bit j: query j of this producer's region was inserted */
	uint64_t nr_present;
	/* hashmap-with-bloom's comparison: what each program's slot must show after it */
	bool cmp_ran;
	bool cmp_start_ok;	/* the measured part left the cursor where it should */
	uint64_t cmp_ops_a, cmp_ops_b;
	uint64_t cmp_expected_a, cmp_expected_b;
	uint64_t cmp_cursor_a, cmp_cursor_b;
	struct bl_round *rounds;
	uint32_t nr_rounds;
};

struct bl_state {
	enum bl_kind kind;
	struct bloom_bpf *skel;
	uint32_t stride;	/* bytes per array element: value_size rounded up to 8 */
	uint64_t region_len;	/* values per producer region */
	uint64_t nr_bits;	/* of the filter, as the kernel sizes it */
	bool need_bloom, need_hash;
	int nr_prod;
	struct bl_prod prod[];
};

/* The comparison's program runs on slot producer + nr_producers. */
#define BL_MAX_PRODUCERS_CMP	(MB_MAX_PRODUCERS / 2)
#define BL_MAX_ROUNDS		8192

/* Queries in [start, start + count) of a cyclic region that are inserted values (result). */
uint64_t bl_present_in(const struct bl_state *st, const struct bl_prod *bp, uint64_t start,
		       uint64_t count);

void bl_finish(struct mb_run *run);
void bl_measure(struct mb_run *run, struct mb_sample *s);

/*
 * bloom_text.c: the kernel's hits/drops reporter, and its false hits percentage, with the bloom
 * lines before the Summary.
 */
extern const struct mb_text_style bl_text_hits_drops;
extern const struct mb_text_style bl_text_false_hits;
extern const struct mb_metric_desc bl_fp_metrics[];
/* bloom_result.c: false_hits, for the benches that ask absent values (BL_FALSE_HITS). */
extern const struct mb_counter_desc bl_counters[];

#endif
