// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bucket_order.h"
#include "map_entries.h"

/*
 * Bob Jenkins' lookup3 hash (public domain) in the two forms the kernel's hash maps use:
 * over 32-bit words when the key length is a multiple of 4, over bytes otherwise, both
 * starting from 0xdeadbeef + length + seed and returning the third state word.
 */
static inline uint32_t rol32(uint32_t x, int k)
{
	return (x << k) | (x >> (32 - k));
}

#define JMIX(a, b, c)						\
	do {							\
		a -= c; a ^= rol32(c, 4);  c += b;		\
		b -= a; b ^= rol32(a, 6);  a += c;		\
		c -= b; c ^= rol32(b, 8);  b += a;		\
		a -= c; a ^= rol32(c, 16); c += b;		\
		b -= a; b ^= rol32(a, 19); a += c;		\
		c -= b; c ^= rol32(b, 4);  b += a;		\
	} while (0)

#define JFINAL(a, b, c)						\
	do {							\
		c ^= b; c -= rol32(b, 14);			\
		a ^= c; a -= rol32(c, 11);			\
		b ^= a; b -= rol32(a, 25);			\
		c ^= b; c -= rol32(b, 16);			\
		a ^= c; a -= rol32(c, 4);			\
		b ^= a; b -= rol32(a, 14);			\
		c ^= b; c -= rol32(b, 24);			\
	} while (0)

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

uint32_t mb_jhash(const void *key, uint32_t len, uint32_t seed)
{
	const uint8_t *k = key;
	uint32_t a, b, c, n;

	if (len % 4 == 0) {
		n = len / 4;
		a = b = c = 0xdeadbeefu + (n << 2) + seed;
		for (; n > 3; n -= 3, k += 12) {
			a += get32(k);
			b += get32(k + 4);
			c += get32(k + 8);
			JMIX(a, b, c);
		}
		if (!n)
			return c;
		if (n == 3)
			c += get32(k + 8);
		if (n >= 2)
			b += get32(k + 4);
		a += get32(k);
		JFINAL(a, b, c);
		return c;
	}
	a = b = c = 0xdeadbeefu + len + seed;
	for (; len > 12; len -= 12, k += 12) {
		a += get32(k);
		b += get32(k + 4);
		c += get32(k + 8);
		JMIX(a, b, c);
	}
	/* The 1..12 bytes left, little-endian within each word. */
	for (uint32_t i = len; i > 0; i--) {
		uint32_t v = (uint32_t)k[i - 1] << (8 * ((i - 1) % 4));

		if (i > 8)
			c += v;
		else if (i > 4)
			b += v;
		else
			a += v;
	}
	JFINAL(a, b, c);
	return c;
}

int mb_bucket_order(uint32_t base, uint32_t n, uint32_t key_size, uint32_t seed,
		    uint32_t nbuckets, uint32_t *out)
{
	uint32_t groups, shift = 0, *group, *start;
	uint8_t key[MB_ENTRY_KEY_MAX] = {};

	if (!nbuckets || (nbuckets & (nbuckets - 1)) || key_size < 4 || key_size > MB_ENTRY_KEY_MAX)
		return -EINVAL;
	/* Groups of 64 buckets (1 KiB of bucket array): locality is all the fill needs. */
	while ((nbuckets >> shift) > 1 && (1u << shift) < 64)
		shift++;
	groups = nbuckets >> shift;
	group = malloc(sizeof(uint32_t) * (size_t)n);
	start = calloc((size_t)groups + 1, sizeof(uint32_t));
	if (!group || !start) {
		free(group);
		free(start);
		return -ENOMEM;
	}
	mb_index_key_pattern(key, key_size);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = base + i;

		memcpy(key, &k, sizeof(k));
		group[i] = (mb_jhash(key, key_size, seed) & (nbuckets - 1)) >> shift;
		start[group[i] + 1]++;
	}
	for (uint32_t g = 0; g < groups; g++)
		start[g + 1] += start[g];
	for (uint32_t i = 0; i < n; i++)
		out[start[group[i]]++] = base + i;
	free(group);
	free(start);
	return 0;
}
