// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* LPM trie key sets: layout, prefix space, mixed distributions, uniqueness of every key. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "families/lpm/lpm_keys.h"

static struct mb_lpm_key key_of(const struct mb_lpm_keyset *ks, uint32_t i)
{
	struct mb_lpm_key k = {};

	mb_lpm_make_key(ks->group, ks->nr_groups, ks->key_bits, i, &k);
	return k;
}

static unsigned __int128 addr_of(const struct mb_lpm_key *k, uint32_t key_bits)
{
	unsigned __int128 v = 0;

	for (uint32_t w = 0; w < key_bits / 32; w++)
		v = (v << 32) | ntohl(k->addr[w]);
	return v;
}

static void init_ok(struct mb_lpm_keyset *ks, uint32_t bits, uint32_t len, enum mb_lpm_dist d,
		    uint32_t nr)
{
	const char *why = NULL;

	assert_int_equal(mb_lpm_keyset_init(ks, bits, len, d, nr, &why), 0);
	assert_int_equal(ks->nr_entries, nr);
	assert_int_equal(ks->key_size, 4 + bits / 8);
}

/* The kernel bench's key, built bit by bit: j's bytes low byte first, cut at @len bits. */
static uint32_t ref_kernel_addr(uint32_t j, uint32_t len)
{
	uint32_t bits = len < 32 ? len : 32, a = 0, pos = 0;

	for (uint32_t b = 0; b < 4 && pos < bits; b++) {
		uint32_t byte = (j >> (8 * b)) & 0xff;
		uint32_t take = bits - pos >= 8 ? 8 : bits - pos;

		a |= (take == 8 ? byte : byte & ((1u << take) - 1)) << (32 - pos - take);
		pos += take;
	}
	return a;
}

static void check_all_keys(const struct mb_lpm_keyset *ks);

static void test_fixed_ipv4(void **state)
{
	struct mb_lpm_keyset ks;
	struct mb_lpm_key k;
	uint32_t le;

	(void)state;
	init_ok(&ks, 32, 32, MB_LPM_DIST_FIXED, 10000);
	assert_int_equal(ks.nr_groups, 1);
	k = key_of(&ks, 9999);
	assert_int_equal(k.prefixlen, 32);
	/* As the kernel's bench stores it: the entry number as a little-endian u32. */
	le = (uint32_t)(9999 & 0xff) << 24 | (9999 >> 8) << 16;
	assert_int_equal(ntohl(k.addr[0]), le);
	init_ok(&ks, 32, 24, MB_LPM_DIST_FIXED, 300);
	k = key_of(&ks, 258);
	assert_int_equal(k.prefixlen, 24);
	assert_int_equal(ntohl(k.addr[0]), 0x02010000u);
	init_ok(&ks, 32, 1, MB_LPM_DIST_FIXED, 2);
	assert_int_equal(ntohl(key_of(&ks, 1).addr[0]), 0x80000000u);
	/* Lengths that are not multiples of 8: the kernel's keys would collide, these do not. */
	for (uint32_t len = 1; len <= 32; len++) {
		uint32_t nr = len < 17 ? 1u << len : 70000;

		init_ok(&ks, 32, len, MB_LPM_DIST_FIXED, nr);
		for (uint32_t i = 0; i < nr; i += nr > 64 ? nr / 61 : 1)
			assert_int_equal(ntohl(key_of(&ks, i).addr[0]), ref_kernel_addr(i, len));
		if (len % 5 == 0 || len == 32)
			check_all_keys(&ks);
	}
}

static void test_fixed_ipv6(void **state)
{
	const uint32_t lens[] = { 1, 20, 32, 63, 64, 65, 96, 100, 127, 128 };
	struct mb_lpm_keyset ks;

	(void)state;
	for (size_t n = 0; n < sizeof(lens) / sizeof(lens[0]); n++) {
		uint32_t len = lens[n], nr = len < 20 ? 2 : 100000;

		init_ok(&ks, 128, len, MB_LPM_DIST_FIXED, nr);
		for (uint32_t i = 0; i < nr; i += nr > 2 ? nr / 3 : 1) {
			struct mb_lpm_key k = key_of(&ks, i);

			assert_int_equal(k.prefixlen, len);
			assert_true(addr_of(&k, 128) ==
				    (unsigned __int128)ref_kernel_addr(i, len) << 96);
		}
		check_all_keys(&ks);
	}
}

static void test_bad_sets(void **state)
{
	struct mb_lpm_keyset ks;
	const char *why;

	(void)state;
	assert_int_equal(mb_lpm_keyset_init(&ks, 32, 8, MB_LPM_DIST_FIXED, 256, &why), 0);
	assert_int_equal(mb_lpm_keyset_init(&ks, 32, 8, MB_LPM_DIST_FIXED, 257, &why), -EINVAL);
	assert_int_equal(mb_lpm_keyset_init(&ks, 32, 8, MB_LPM_DIST_MIXED, 257, &why), -EINVAL);
	assert_int_equal(mb_lpm_keyset_init(&ks, 32, 0, MB_LPM_DIST_FIXED, 1, &why), -EINVAL);
	assert_int_equal(mb_lpm_keyset_init(&ks, 32, 33, MB_LPM_DIST_FIXED, 1, &why), -EINVAL);
	assert_int_equal(mb_lpm_keyset_init(&ks, 64, 32, MB_LPM_DIST_FIXED, 1, &why), -EINVAL);
	assert_int_equal(mb_lpm_keyset_init(&ks, 32, 32, MB_LPM_DIST_FIXED, 0, &why), -EINVAL);
	assert_non_null(why);
	assert_true(mb_lpm_prefix_space(63) == 1ULL << 63);
	assert_true(mb_lpm_prefix_space(64) == UINT64_MAX);
	assert_true(mb_lpm_prefix_space(128) == UINT64_MAX);
}

static int cmp_key(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct mb_lpm_key));
}

/* Every key valid (host bits zero, length of its group) and no two keys alike. */
static void check_all_keys(const struct mb_lpm_keyset *ks)
{
	struct mb_lpm_key *keys = calloc(ks->nr_entries, sizeof(*keys));
	uint32_t total = 0;

	assert_non_null(keys);
	for (uint32_t g = 0; g < ks->nr_groups; g++) {
		const struct mb_lpm_group *grp = &ks->group[g];

		assert_int_equal(grp->base, total);
		assert_true(grp->count > 0);
		assert_true(grp->count <= mb_lpm_prefix_space(grp->prefixlen));
		assert_true(grp->prefixlen <= ks->key_bits);
		if (g)
			assert_true(grp->prefixlen > ks->group[g - 1].prefixlen);
		for (uint32_t i = grp->base; i < grp->base + grp->count; i++) {
			unsigned __int128 a, host;

			keys[i] = key_of(ks, i);
			assert_int_equal(keys[i].prefixlen, grp->prefixlen);
			assert_int_equal(mb_lpm_group_of(ks->group, ks->nr_groups, i), g);
			a = addr_of(&keys[i], ks->key_bits);
			host = grp->prefixlen >= ks->key_bits ? 0 :
				((unsigned __int128)1 << (ks->key_bits - grp->prefixlen)) - 1;
			assert_true((a & host) == 0);
		}
		total += grp->count;
	}
	assert_int_equal(total, ks->nr_entries);
	for (uint32_t g = ks->nr_groups; g < MB_LPM_MAX_GROUPS; g++)
		assert_int_equal(ks->group[g].base, MB_LPM_NO_BASE);
	qsort(keys, ks->nr_entries, sizeof(*keys), cmp_key);
	for (uint32_t i = 1; i < ks->nr_entries; i++)
		assert_int_not_equal(cmp_key(&keys[i - 1], &keys[i]), 0);
	free(keys);
}

static uint32_t entries_of_len(const struct mb_lpm_keyset *ks, uint32_t len)
{
	for (uint32_t g = 0; g < ks->nr_groups; g++)
		if (ks->group[g].prefixlen == len)
			return ks->group[g].count;
	return 0;
}

static void test_mixed_ipv4(void **state)
{
	struct mb_lpm_keyset ks;

	(void)state;
	init_ok(&ks, 32, 32, MB_LPM_DIST_MIXED, 100000);
	assert_int_equal(ks.nr_groups, 13);
	assert_int_equal(entries_of_len(&ks, 24), 58000);	/* 58 % are /24, as on the Internet */
	assert_int_equal(entries_of_len(&ks, 8), 100);
	check_all_keys(&ks);
	/* /8 overflows its prefix space: the rest moves to the next length. */
	init_ok(&ks, 32, 32, MB_LPM_DIST_MIXED, 1000000);
	assert_int_equal(entries_of_len(&ks, 8), 256);
	assert_int_equal(entries_of_len(&ks, 12), 2000 + 1000 - 256);
	assert_int_equal(entries_of_len(&ks, 16), 25000);
	check_all_keys(&ks);
}

static void test_mixed_folded(void **state)
{
	struct mb_lpm_keyset ks;

	(void)state;
	/* Lengths above --prefix_len fold into it. */
	init_ok(&ks, 32, 16, MB_LPM_DIST_MIXED, 50000);
	assert_int_equal(ks.group[ks.nr_groups - 1].prefixlen, 16);
	check_all_keys(&ks);
	/* The whole space of one length. */
	init_ok(&ks, 32, 8, MB_LPM_DIST_MIXED, 256);
	assert_int_equal(ks.nr_groups, 1);
	check_all_keys(&ks);
	init_ok(&ks, 32, 20, MB_LPM_DIST_MIXED, 1 << 20);
	check_all_keys(&ks);
	init_ok(&ks, 32, 32, MB_LPM_DIST_MIXED, 1);
	assert_int_equal(ks.nr_groups, 1);
	assert_int_equal(ks.group[0].prefixlen, 24);
	check_all_keys(&ks);
}

static void test_mixed_ipv6(void **state)
{
	struct mb_lpm_keyset ks;

	(void)state;
	init_ok(&ks, 128, 128, MB_LPM_DIST_MIXED, 100000);
	assert_int_equal(entries_of_len(&ks, 48), 48000);
	assert_int_equal(entries_of_len(&ks, 128), 2000);
	check_all_keys(&ks);
	init_ok(&ks, 128, 40, MB_LPM_DIST_MIXED, 100000);
	assert_int_equal(ks.group[ks.nr_groups - 1].prefixlen, 40);
	check_all_keys(&ks);
}

static void test_keys_fill(void **state)
{
	struct mb_lpm_keyset ks;
	unsigned char buf[3 * 20];

	(void)state;
	for (uint32_t bits = 32; bits <= 128; bits += 96) {
		init_ok(&ks, bits, bits, MB_LPM_DIST_MIXED, 1000);
		mb_lpm_keys_fill(&ks, 500, 3, buf);
		for (uint32_t i = 0; i < 3; i++) {
			struct mb_lpm_key k = key_of(&ks, 500 + i);

			assert_memory_equal(buf + i * ks.key_size, &k, ks.key_size);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_ipv4),
		cmocka_unit_test(test_fixed_ipv6),
		cmocka_unit_test(test_bad_sets),
		cmocka_unit_test(test_mixed_ipv4),
		cmocka_unit_test(test_mixed_folded),
		cmocka_unit_test(test_mixed_ipv6),
		cmocka_unit_test(test_keys_fill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
