// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * LPM trie benches: one in-kernel op loop per operation (drivers/kloop.bpf.h). Keys are
 * computed from the entry index (lpm_trie.h) rather than read from a key array, so a lookup's
 * cache misses are the trie's own; lpm-trie-baseline measures the key generation alone.
 */
#include "drivers/kloop.bpf.h"
#include "lpm_key_layout.h"

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(map_flags, BPF_F_NO_PREALLOC);	/* the only mode LPM tries support */
	__uint(key_size, sizeof(struct mb_lpm_key));	/* set to the key width before load */
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 1);			/* set to --nr_entries before load */
} mb_lpm_trie SEC(".maps");

/*
 * Set before load. The key set's sizes and the key order are read-only, so the verifier prunes
 * the paths of other settings; the groups are writable on purpose (see mb_lpm_make_key).
 */
const volatile struct mb_lpm_keyset mb_lpm_ks;
const volatile bool mb_lpm_random;
struct mb_lpm_group mb_lpm_groups[MB_LPM_MAX_GROUPS] SEC(".data.groups");

static __always_inline void make_key(__u32 i, struct mb_lpm_key *k)
{
	mb_lpm_make_key(mb_lpm_groups, mb_lpm_ks.nr_groups, mb_lpm_ks.key_bits, i, k);
}

/*
 * The next entry: uniform over all entries, or the producer's cursor, carried across calls
 * and wrapping without a divide. The wrap writes i + 1 - n (0 here) rather than a constant 0,
 * which the verifier could follow value by value through the loop if it ever tracked the
 * cursor precisely.
 */
static __always_inline __u32 next_entry(struct mb_loop_ctx *lc)
{
	__u32 n = mb_lpm_ks.nr_entries, i;

	if (mb_lpm_random)
		return mb_rand_below(lc, n);
	i = lc->cursor;
	lc->cursor = i + 1 < n ? i + 1 : i + 1 - n;
	return i;
}

static __always_inline int noop_cb(__u32 index, void *ctx)
{
	return 0;
}

MB_LOOP_PROG(mb_lpm_noop, noop_cb)

static __always_inline int baseline_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	struct mb_lpm_key key;

	make_key(next_entry(lc), &key);
	/* Make the key look used, or the compiler drops its construction. */
	asm volatile("" : : "r"(&key) : "memory");
	return 0;
}

MB_LOOP_PROG(mb_lpm_baseline, baseline_cb)

static __always_inline int lookup_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	struct mb_lpm_key key;
	__u32 i = next_entry(lc), *v;

	make_key(i, &key);
	v = bpf_map_lookup_elem(&mb_lpm_trie, &key);
	/* The trie holds every entry: a miss, or another entry's value, is an error. */
	if (v && *v == i)
		lc->hits++;
	else
		lc->errors++;
	return 0;
}

MB_LOOP_PROG(mb_lpm_lookup, lookup_cb)

/* An op that must succeed: a failure is an error. */
static __always_inline void count(struct mb_loop_ctx *lc, long err)
{
	if (err)
		lc->errors++;
	else
		lc->hits++;
}

static __always_inline int update_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	struct mb_lpm_key key;
	__u32 i = next_entry(lc);

	make_key(i, &key);
	count(lc, bpf_map_update_elem(&mb_lpm_trie, &key, &i, BPF_EXIST));
	return 0;
}

MB_LOOP_PROG(mb_lpm_update, update_cb)

/*
 * Insert and delete walk every entry once, in order: after entry @i's op (@err), the walk
 * moves on, and after the last one it ends with @ret, when user space empties or refills it.
 */
static __always_inline int walk_next(struct mb_loop_ctx *lc, __u32 i, long err, int ret)
{
	count(lc, err);
	lc->cursor = i + 1;
	if (i + 1 >= mb_lpm_ks.nr_entries) {
		lc->ret = ret;
		return 1;
	}
	return 0;
}

static __always_inline int insert_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	struct mb_lpm_key key;
	__u32 i = lc->cursor;

	make_key(i, &key);
	return walk_next(lc, i, bpf_map_update_elem(&mb_lpm_trie, &key, &i, BPF_NOEXIST),
			 MB_LPM_RET_FULL);
}

MB_LOOP_PROG(mb_lpm_insert, insert_cb)

static __always_inline int delete_cb(__u32 index, void *ctx)
{
	struct mb_loop_ctx *lc = ctx;
	struct mb_lpm_key key;
	__u32 i = lc->cursor;

	make_key(i, &key);
	return walk_next(lc, i, bpf_map_delete_elem(&mb_lpm_trie, &key), MB_LPM_RET_EMPTY);
}

MB_LOOP_PROG(mb_lpm_delete, delete_cb)
