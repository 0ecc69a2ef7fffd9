/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Key sets of the LPM trie benches: which prefix lengths the entries get (one length, or a
 * routing-table-like mix) and every entry's key, built exactly as the BPF programs build them
 * (src/families/lpm/lpm_key_layout.h).
 */
#ifndef MB_LPM_KEYS_H
#define MB_LPM_KEYS_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "lpm_key_layout.h"

enum mb_lpm_dist {
	MB_LPM_DIST_FIXED,	/* every entry has --prefix_len */
	MB_LPM_DIST_MIXED,	/* a routing-table spread of lengths up to --prefix_len */
};

/* One prefix length of a mixed distribution and its share of the entries, in 1/1000. */
struct mb_lpm_share {
	uint32_t prefixlen;
	uint32_t permille;
};

/* How many distinct prefixes of length @prefixlen exist: 2^prefixlen, capped at UINT64_MAX. */
uint64_t mb_lpm_prefix_space(uint32_t prefixlen);

/*
 * Build the groups of @nr entries: one group of length @prefix_len (fixed), or the mixed
 * shares with lengths above @prefix_len folded into it, a group's overflow beyond its prefix
 * space moved to the next longer length. Returns 0, or -EINVAL with @why set when the
 * arguments do not describe a key set (nr 0 or above the prefix space, a bad length).
 */
int mb_lpm_keyset_init(struct mb_lpm_keyset *ks, uint32_t key_bits, uint32_t prefix_len,
		       enum mb_lpm_dist dist, uint32_t nr, const char **why);

/* Write the keys of entries [first, first + nr) to @buf, ks->key_size bytes each. */
void mb_lpm_keys_fill(const struct mb_lpm_keyset *ks, uint32_t first, uint32_t nr, void *buf);

#endif
