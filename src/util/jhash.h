/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Bob Jenkins' lookup3 mixing (public domain), the kernel's jhash, shared by user space
 * (drivers/bucket_order.c: which bucket a hash map puts a key in) and BPF (the xdp-lb
 * family's consistent-hash ring). MB_JHASH_INIT is the state's start before the length and
 * seed are added; MB_JHASH_MIX stirs three words in after each group of three; MB_JHASH_FINAL
 * ends the hash, whose value is then c.
 *
 * The includer provides __u32 (vmlinux.h in BPF, <linux/types.h> in user space).
 */
#ifndef MB_JHASH_H
#define MB_JHASH_H

#define MB_JHASH_INIT	0xdeadbeefu

static inline __attribute__((always_inline)) __u32 mb_rol32(__u32 w, int s)
{
	return (w << s) | (w >> (32 - s));
}

#define MB_JHASH_MIX(a, b, c)							\
	do {									\
		a -= c; a ^= mb_rol32(c, 4);  c += b;				\
		b -= a; b ^= mb_rol32(a, 6);  a += c;				\
		c -= b; c ^= mb_rol32(b, 8);  b += a;				\
		a -= c; a ^= mb_rol32(c, 16); c += b;				\
		b -= a; b ^= mb_rol32(a, 19); a += c;				\
		c -= b; c ^= mb_rol32(b, 4);  b += a;				\
	} while (0)

#define MB_JHASH_FINAL(a, b, c)							\
	do {									\
		c ^= b; c -= mb_rol32(b, 14);					\
		a ^= c; a -= mb_rol32(c, 11);					\
		b ^= a; b -= mb_rol32(a, 25);					\
		c ^= b; c -= mb_rol32(b, 16);					\
		a ^= c; a -= mb_rol32(c, 4);					\
		b ^= a; b -= mb_rol32(a, 14);					\
		c ^= b; c -= mb_rol32(b, 24);					\
	} while (0)

#endif
