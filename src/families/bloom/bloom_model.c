// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <math.h>
#include <string.h>

#include "bloom_model.h"

/*
 * The kernel sizes the bit array in bloom_map_alloc() (kernel/bpf/bloom_filter.c, unchanged
 * since the map was added in 5.16): it aims at n * k / ln 2 bits, with 1 / ln 2 taken as 7 / 5
 * in u32 arithmetic (the product divided by 5 first, then times 7), and rounds that up to a
 * power of two so that a hash can be masked instead of divided. At least one long's worth of
 * bits is allocated. When n * k or the product with 7 overflows a u32, or the result exceeds
 * 2^31, the filter gets 2^32 bits (mask U32_MAX). The false-positive theory below uses this
 * actual size, not the ideal n * k / ln 2.
 */
uint64_t mb_bloom_nr_bits(uint32_t nr_entries, uint32_t nr_hash_funcs)
{
	const uint64_t min_bits = 8 * sizeof(long);
	uint64_t bits = (uint64_t)nr_entries * nr_hash_funcs, pow2;

	if (bits > UINT32_MAX)
		return 1ULL << 32;
	bits = bits / 5 * 7;
	if (bits > (1ULL << 31))
		return 1ULL << 32;
	if (bits <= min_bits)
		return min_bits;
	for (pow2 = min_bits; pow2 < bits; pow2 <<= 1)
		;
	return pow2;
}

double mb_bloom_fp_rate(uint64_t nr_bits, uint32_t nr_hash_funcs, uint64_t nr_values)
{
	double k = nr_hash_funcs, unset;

	if (!nr_bits || !nr_hash_funcs)
		return NAN;
	/*
	 * Probability that one given bit is still 0: (1 - 1/m)^(k n), computed without rounding
	 * 1 - 1/m away for large m.
	 */
	unset = exp(k * (double)nr_values * log1p(-1.0 / (double)nr_bits));
	return pow(1.0 - unset, k);
}

double mb_bloom_optimal_hash_funcs(uint64_t nr_bits, uint64_t nr_values)
{
	return nr_values ? (double)nr_bits / (double)nr_values * M_LN2 : NAN;
}

uint64_t mb_bloom_value_space(uint32_t value_size)
{
	return value_size >= 8 ? 0 : 1ULL << (8 * value_size);
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void mb_bloom_valgen_init(struct mb_bloom_valgen *g, uint32_t value_size, uint64_t seed)
{
	uint64_t s = seed;

	memset(g, 0, sizeof(*g));
	g->value_size = value_size;
	g->bits = value_size >= 8 ? 64 : 8 * value_size;
	g->mask = g->bits == 64 ? UINT64_MAX : (1ULL << g->bits) - 1;
	g->shift = (g->bits + 1) / 2;
	g->add = splitmix64(&s);
	g->mul1 = splitmix64(&s) | 1;	/* odd: a bijection modulo 2^bits */
	g->mul2 = splitmix64(&s) | 1;
	g->seed = splitmix64(&s);
}

/*
 * Each step is a bijection on [0, 2^bits): adding a constant, multiplying by an odd constant
 * (both modulo 2^bits) and x ^= x >> s. Two rounds spread consecutive indexes over the whole
 * space, so the inserted values look random to the kernel's jhash.
 */
uint64_t mb_bloom_valgen_perm(const struct mb_bloom_valgen *g, uint64_t i)
{
	uint64_t x = (i + g->add) & g->mask;

	x = (x * g->mul1) & g->mask;
	x ^= x >> g->shift;
	x = (x * g->mul2) & g->mask;
	x ^= x >> g->shift;
	x = (x * g->mul1) & g->mask;
	x ^= x >> g->shift;
	return x;
}

void mb_bloom_value(const struct mb_bloom_valgen *g, uint64_t i, void *out)
{
	uint64_t x = mb_bloom_valgen_perm(g, i), s = g->seed ^ x;
	uint8_t *p = out;
	uint32_t n = g->value_size < 8 ? g->value_size : 8;

	/* Little-endian bytes of the permuted index: distinct for distinct i. */
	for (uint32_t b = 0; b < n; b++)
		p[b] = (uint8_t)(x >> (8 * b));
	/* Filler beyond 8 bytes: varies with the value, like the kernel bench's random bytes. */
	for (uint32_t b = 8; b < g->value_size; b += 8) {
		uint64_t r = splitmix64(&s);
		uint32_t len = g->value_size - b < 8 ? g->value_size - b : 8;

		memcpy(p + b, &r, len);
	}
}
