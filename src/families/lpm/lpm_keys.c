// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <string.h>

#include "lpm_keys.h"

/* An odd multiplier (2^64 / golden ratio): consecutive entries land far apart. */
#define SPREAD_MULT 0x9e3779b97f4a7c15ULL

/*
 * Shaped like a public IPv4 routing table (half the prefixes are /24, most others /16../23)
 * plus a few host routes and small subnets, as a firewall or load balancer table has.
 */
static const struct mb_lpm_share mixed_v4[] = {
	{ 8, 1 }, { 12, 2 }, { 16, 25 }, { 17, 8 }, { 18, 15 }, { 19, 30 }, { 20, 45 },
	{ 21, 50 }, { 22, 110 }, { 23, 100 }, { 24, 580 }, { 28, 4 }, { 32, 30 },
	{ 0, 0 },
};

/* Shaped like a public IPv6 routing table: /48 and /32 dominate, then /29../47. */
static const struct mb_lpm_share mixed_v6[] = {
	{ 29, 30 }, { 32, 150 }, { 36, 40 }, { 40, 80 }, { 44, 100 }, { 46, 40 },
	{ 47, 30 }, { 48, 480 }, { 56, 10 }, { 64, 20 }, { 128, 20 },
	{ 0, 0 },
};

/* The mixed distribution for @key_bits (32 or 128), ending with a { 0, 0 } entry. */
static const struct mb_lpm_share *mixed_shares(uint32_t key_bits)
{
	return key_bits == 128 ? mixed_v6 : mixed_v4;
}

uint64_t mb_lpm_prefix_space(uint32_t prefixlen)
{
	return prefixlen >= 64 ? UINT64_MAX : 1ULL << prefixlen;
}

static void set_group(struct mb_lpm_keyset *ks, uint32_t g, uint32_t prefixlen, uint64_t mult)
{
	struct mb_lpm_group *grp = &ks->group[g];

	grp->prefixlen = prefixlen;
	grp->shift = ks->key_bits - prefixlen;
	grp->mask = prefixlen >= 64 ? UINT64_MAX : (1ULL << prefixlen) - 1;
	grp->mult = mult;
}

/* Shares of the mixed distribution by length, folded at @prefix_len; returns the count. */
static uint32_t fold_shares(const struct mb_lpm_share *shares, uint32_t prefix_len,
			    uint32_t *len, uint32_t *permille)
{
	uint32_t n = 0;

	for (int i = 0; shares[i].prefixlen; i++) {
		uint32_t l = shares[i].prefixlen < prefix_len ? shares[i].prefixlen : prefix_len;

		if (n && len[n - 1] == l) {
			permille[n - 1] += shares[i].permille;
		} else {
			len[n] = l;
			permille[n++] = shares[i].permille;
		}
	}
	return n;
}

/* Split @nr by @permille, largest remainders first, so the counts add up to @nr exactly. */
static void apportion(uint32_t nr, const uint32_t *permille, uint32_t n, uint64_t *count)
{
	uint64_t rem[MB_LPM_MAX_GROUPS], left = nr;

	for (uint32_t g = 0; g < n; g++) {
		count[g] = (uint64_t)nr * permille[g] / 1000;
		rem[g] = (uint64_t)nr * permille[g] % 1000;
		left -= count[g];
	}
	while (left) {
		uint32_t best = 0;

		for (uint32_t g = 1; g < n; g++)
			if (rem[g] > rem[best])
				best = g;
		count[best]++;
		rem[best] = 0;
		left--;
	}
}

int mb_lpm_keyset_init(struct mb_lpm_keyset *ks, uint32_t key_bits, uint32_t prefix_len,
		       enum mb_lpm_dist dist, uint32_t nr, const char **why)
{
	uint32_t len[MB_LPM_MAX_GROUPS], permille[MB_LPM_MAX_GROUPS], n, g, out = 0;
	uint64_t count[MB_LPM_MAX_GROUPS], carry = 0;

	memset(ks, 0, sizeof(*ks));
	if (key_bits != 32 && key_bits != 128) {
		*why = "the key width must be 32 or 128 bits";
		return -EINVAL;
	}
	if (!prefix_len || prefix_len > key_bits) {
		*why = "the prefix length must be 1..key width";
		return -EINVAL;
	}
	if (!nr || nr > mb_lpm_prefix_space(prefix_len)) {
		*why = "the entries must be 1..2^prefix length";
		return -EINVAL;
	}
	ks->key_bits = key_bits;
	ks->key_size = 4 + key_bits / 8;
	ks->nr_entries = nr;
	for (g = 0; g < MB_LPM_MAX_GROUPS; g++)
		ks->group[g].base = MB_LPM_NO_BASE;

	if (dist == MB_LPM_DIST_FIXED) {
		set_group(ks, 0, prefix_len, 0);
		ks->group[0].base = 0;
		ks->group[0].count = nr;
		ks->nr_groups = 1;
		return 0;
	}

	n = fold_shares(mixed_shares(key_bits), prefix_len, len, permille);
	apportion(nr, permille, n, count);
	/*
	 * A length has only 2^L prefixes: what does not fit moves to the next longer one. The
	 * last length is prefix_len, whose space holds all nr entries, so nothing is left over.
	 */
	for (g = 0; g < n; g++) {
		uint64_t space = mb_lpm_prefix_space(len[g]);

		count[g] += carry;
		carry = 0;
		if (count[g] > space) {
			carry = count[g] - space;
			count[g] = space;
		}
	}
	for (g = 0, nr = 0; g < n; g++) {
		if (!count[g])
			continue;
		set_group(ks, out, len[g], SPREAD_MULT);
		ks->group[out].base = nr;
		ks->group[out].count = (uint32_t)count[g];
		nr += (uint32_t)count[g];
		out++;
	}
	ks->nr_groups = out;
	return 0;
}

void mb_lpm_keys_fill(const struct mb_lpm_keyset *ks, uint32_t first, uint32_t nr, void *buf)
{
	char *p = buf;

	for (uint32_t i = 0; i < nr; i++, p += ks->key_size) {
		struct mb_lpm_key k = {};

		mb_lpm_make_key(ks->group, ks->nr_groups, ks->key_bits, first + i, &k);
		memcpy(p, &k, ks->key_size);
	}
}
