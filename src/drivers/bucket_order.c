// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "bucket_order.h"
#include "map_entries.h"
#include "util/jhash.h"

/*
 * Bob Jenkins' lookup3 hash (util/jhash.h) in the two forms the kernel's hash maps use:
 * over 32-bit words when the key length is a multiple of 4, over bytes otherwise, both
 * starting from MB_JHASH_INIT + length + seed and returning the third state word.
 */
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
		a = b = c = MB_JHASH_INIT + (n << 2) + seed;
		for (; n > 3; n -= 3, k += 12) {
			a += get32(k);
			b += get32(k + 4);
			c += get32(k + 8);
			MB_JHASH_MIX(a, b, c);
		}
		if (!n)
			return c;
		if (n == 3)
			c += get32(k + 8);
		if (n >= 2)
			b += get32(k + 4);
		a += get32(k);
		MB_JHASH_FINAL(a, b, c);
		return c;
	}
	a = b = c = MB_JHASH_INIT + len + seed;
	for (; len > 12; len -= 12, k += 12) {
		a += get32(k);
		b += get32(k + 4);
		c += get32(k + 8);
		MB_JHASH_MIX(a, b, c);
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
	MB_JHASH_FINAL(a, b, c);
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
