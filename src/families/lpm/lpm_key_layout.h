/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * LPM trie benches: the key layout and the entry -> key mapping, shared by the BPF programs
 * (src/families/lpm/lpm_trie.bpf.c) and user space (src/families/lpm/lpm_keys.c), so that both build byte-identical keys.
 * The includer provides __u32 and __u64.
 *
 * The trie holds entries 0..nr_entries-1. Entry i belongs to a group of entries that share one
 * prefix length L; j = i - base numbers it within the group. Two layouts:
 *  - the kernel bench's (mult 0, --prefix_dist fixed): the key starts with j's bytes, low byte
 *    first, as the kernel stores j (a host-endian u32 on a little-endian machine). Consecutive
 *    entries differ in the first byte, so a sequential walk jumps across the trie. For L not a
 *    multiple of 8 the last partial byte takes j's next low bits, so that no two entries
 *    collide (the kernel's own keys do collide there);
 *  - spread (odd mult, --prefix_dist mixed): the prefix is the L-bit number
 *    (j * mult) mod 2^min(L, 64), placed at the top of the key (shifted left by
 *    key_bits - L). Multiplying by an odd number is a bijection modulo 2^k, so the prefixes of
 *    one group never collide, and groups differ in length, so all entries are distinct.
 * Addresses are stored in network byte order, the order in which the trie compares bits.
 */
#ifndef MB_LPM_TRIE_H
#define MB_LPM_TRIE_H

#include "drivers/kloop_shared.h"

#define MB_LPM_MAX_GROUPS	16	/* prefix lengths in one key set (a power of two) */
#define MB_LPM_NO_BASE		0xffffffffu	/* base of an unused group: above every entry */

/* Program return codes: the trie must be emptied (insert) or refilled (delete). */
#define MB_LPM_RET_FULL		(MB_RET_BENCH + 0)
#define MB_LPM_RET_EMPTY	(MB_RET_BENCH + 1)

/* A key as BPF_MAP_TYPE_LPM_TRIE takes it. 32-bit keys use addr[0] only (key size 8). */
struct mb_lpm_key {
	__u32 prefixlen;
	__u32 addr[4];		/* the address, big-endian, as 32-bit words (aligned stores) */
};

struct mb_lpm_group {
	__u64 mult;		/* odd; 0 for the kernel bench's layout */
	__u64 mask;		/* 2^min(prefixlen, 64) - 1 */
	__u32 base;		/* first entry of the group; MB_LPM_NO_BASE when unused */
	__u32 count;		/* entries in the group */
	__u32 prefixlen;
	__u32 shift;		/* key_bits - prefixlen */
};

struct mb_lpm_keyset {
	__u32 key_bits;		/* 32 or 128 */
	__u32 key_size;		/* bytes of a trie key: 4 + key_bits / 8 */
	__u32 nr_entries;
	__u32 nr_groups;
	struct mb_lpm_group group[MB_LPM_MAX_GROUPS];	/* sorted by base (and prefix length) */
};

/* Inlined in BPF too: a call per key would be a measurable part of the op. */
#define MB_LPM_INLINE static inline __attribute__((always_inline))

MB_LPM_INLINE __u32 mb_lpm_be32(__u32 x)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return __builtin_bswap32(x);
#else
	return x;
#endif
}

/*
 * The first 32 bits of the kernel bench's key for entry @j of length @len: j's low bytes, low
 * byte first, as many as fit in the prefix, then j's next low bits in the partial byte.
 */
MB_LPM_INLINE __u32 mb_lpm_kernel_addr(__u32 j, __u32 len)
{
	__u32 bits = len < 32 ? len : 32, bytes = bits / 8, rest = bits % 8;
	__u32 le = __builtin_bswap32(j);	/* j's bytes, low byte first, as a number */
	__u32 p;

	if (bytes == 4)
		return le;
	p = bytes ? (le >> (32 - 8 * bytes)) << rest : 0;
	p |= (j >> (8 * bytes)) & ((1u << rest) - 1);
	return p << (32 - bits);
}

/* The group of entry @i: a branch-light binary search over the 16 group bases. */
MB_LPM_INLINE __u32 mb_lpm_group_of(const volatile struct mb_lpm_group *grp, __u32 nr_groups,
				    __u32 i)
{
	__u32 g = 0;

	if (nr_groups <= 1)
		return 0;
	if (i >= grp[g + 8].base)
		g += 8;
	if (i >= grp[g + 4].base)
		g += 4;
	if (i >= grp[g + 2].base)
		g += 2;
	if (i >= grp[g + 1].base)
		g += 1;
	return g & (MB_LPM_MAX_GROUPS - 1);
}

/*
 * The key of entry @i in a key set of @key_bits with groups @grp. Host bits (beyond the prefix
 * length) are zero. BPF programs keep @grp in writable memory: were its values known to the
 * verifier, it would prove parts of the key zero, track the entry index precisely and follow
 * the loop value by value.
 */
MB_LPM_INLINE void mb_lpm_make_key(const volatile struct mb_lpm_group *grp, __u32 nr_groups,
				   __u32 key_bits, __u32 i, struct mb_lpm_key *k)
{
	const volatile struct mb_lpm_group *g = &grp[mb_lpm_group_of(grp, nr_groups, i)];
	__u64 p = ((__u64)(i - g->base) * g->mult) & g->mask;
	__u32 s = g->shift;
	__u64 hi, lo;

	k->prefixlen = g->prefixlen;
	if (!g->mult) {
		k->addr[0] = mb_lpm_be32(mb_lpm_kernel_addr(i - g->base, g->prefixlen));
		if (key_bits == 128) {
			k->addr[1] = 0;
			k->addr[2] = 0;
			k->addr[3] = 0;
		}
		return;
	}
	if (key_bits == 32) {
		/* p < 2^L and s = 32 - L: the shifted prefix fits 32 bits. */
		k->addr[0] = mb_lpm_be32((__u32)(p << s));
		return;
	}
	/* A 128-bit shift of p, in two halves; no shift by 64 or more (undefined in C). */
	if (s >= 64) {
		hi = p << (s - 64);
		lo = 0;
	} else if (s == 0) {
		hi = 0;
		lo = p;
	} else {
		hi = p >> (64 - s);
		lo = p << s;
	}
	k->addr[0] = mb_lpm_be32((__u32)(hi >> 32));
	k->addr[1] = mb_lpm_be32((__u32)hi);
	k->addr[2] = mb_lpm_be32((__u32)(lo >> 32));
	k->addr[3] = mb_lpm_be32((__u32)lo);
}

#endif
