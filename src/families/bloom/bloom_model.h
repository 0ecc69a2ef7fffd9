/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The bloom filter benches' arithmetic, kept apart from BPF so it can be unit-tested: the bit
 * count the kernel gives a filter, its expected false-positive rate, and the values inserted
 * and looked up (unique by construction, so no set is needed to tell present from absent).
 */
#ifndef MB_BLOOM_MODEL_H
#define MB_BLOOM_MODEL_H

#include <stdint.h>

/* Bits of the filter the kernel allocates for @nr_entries and @nr_hash_funcs (1..15). */
uint64_t mb_bloom_nr_bits(uint32_t nr_entries, uint32_t nr_hash_funcs);

/*
 * Expected false-positive rate of a filter of @nr_bits bits with @nr_hash_funcs hash functions
 * after @nr_values distinct values were inserted: (1 - (1 - 1/m)^(k n))^k.
 */
double mb_bloom_fp_rate(uint64_t nr_bits, uint32_t nr_hash_funcs, uint64_t nr_values);

/* The k that minimises the false-positive rate for m bits and n values: m / n * ln 2. */
double mb_bloom_optimal_hash_funcs(uint64_t nr_bits, uint64_t nr_values);

/*
 * Distinct values of @value_size bytes the generator can make: 2^(8 * value_size) below 8
 * bytes; from 8 bytes on the generator draws from 2^64 and returns 0 to say "2^64".
 */
uint64_t mb_bloom_value_space(uint32_t value_size);

/*
 * Value i (0 <= i < value space) is the first bytes of a bijection of i onto the value space,
 * plus seeded filler bytes beyond 8: distinct i give distinct values. The benches insert the
 * values 0..nr_entries-1 and look up values >= nr_entries as absent ones.
 */
struct mb_bloom_valgen {
	uint32_t value_size;
	unsigned int bits;	/* of the permuted part: min(64, 8 * value_size) */
	unsigned int shift;
	uint64_t mask;
	uint64_t add, mul1, mul2;
	uint64_t seed;
};

void mb_bloom_valgen_init(struct mb_bloom_valgen *g, uint32_t value_size, uint64_t seed);
/* The bijection on [0, 2^bits) behind value @i. */
uint64_t mb_bloom_valgen_perm(const struct mb_bloom_valgen *g, uint64_t i);
/* Write value @i (value_size bytes) to @out. */
void mb_bloom_value(const struct mb_bloom_valgen *g, uint64_t i, void *out);

#endif
