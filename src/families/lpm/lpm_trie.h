/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the LPM trie benches share: their options, the checks across options, the trie's keys
 * in user space (for batch fills), creating and filling a trie, and the text lines.
 */
#ifndef MB_BENCHS_LPM_TRIE_H
#define MB_BENCHS_LPM_TRIE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bench.h"
#include "drivers/map_entries.h"
#include "lpm_keys.h"
#include "sys/memcg.h"

#define LPM_DEFAULT_ENTRIES "10000"	/* the size of the kernel bench's published figures */
#define LPM_MAX_ENTRIES 100000000	/* the kernel bench's max_entries */

enum lpm_free_method {
	LPM_FREE_AUTO,
	LPM_FREE_FENTRY,
	LPM_FREE_WORKQUEUE,
};

struct lpm_args {
	uint32_t nr_entries;
	uint32_t prefix_len;	/* 0 until validate: then the key width unless given */
	bool random;
	int key_bits;		/* index into "32", "128" */
	int prefix_dist;	/* enum mb_lpm_dist */
	int free_method;	/* enum lpm_free_method (lpm-trie-free only) */
};

extern const struct mb_opt lpm_opts[];		/* noop, baseline, lookup, insert, update, delete */
extern const struct mb_opt lpm_free_opts[];	/* free: the same and --free_method */

/* The keys of every entry, for batch updates and deletes from user space. */
struct lpm_keys {
	struct mb_lpm_keyset ks;
	void *keys;		/* nr_entries keys, ks.key_size bytes each */
	struct mb_entries e;	/* those keys; the value of entry i is i (what the lookups check) */
};


/*
 * Checks across options, filling in the default prefix length. @ordered: NULL, or what the
 * bench does instead of taking --random ("inserts every key once, in order").
 */
int lpm_validate(struct mb_run *run, const char *ordered);

void lpm_keys_free(struct lpm_keys *k);

/* Create an empty trie for @k's keys (negative errno on error). */
int lpm_trie_create(const struct lpm_keys *k, const char *name);
/*
 * Insert every entry, or delete every entry, with batch syscalls. 0, -EINTR when @run (may be
 * NULL) is stopping or a signal came, or a negative errno.
 */
int lpm_trie_fill(int fd, const struct lpm_keys *k, const struct mb_run *run);
int lpm_trie_empty(int fd, const struct lpm_keys *k, const struct mb_run *run);

/*
 * The memory a filled trie is charged: a fresh memory cgroup joined before the trie is made
 * (a map is charged to its creator's cgroup) and left once it is filled and read.
 */
struct lpm_charge {
	struct mb_memcg cg;
	struct mb_memcg_usage base;
	bool ok;
	char why[256];		/* why there is no figure */
};


/* A set-up fill or empty failed: mb_run_fail(), or mark the run interrupted on -EINTR. */
int lpm_fill_failed(struct mb_run *run, int err);



/*
 * The start of every set-up: skip where the kernel has no LPM trie, else allocate the bench's
 * zeroed state of @size bytes as run->priv. NULL with *@err set (reported on @run) on error.
 */
void *lpm_state_alloc(struct mb_run *run, size_t size, int *err);
/* lpm_keys_init() then lpm_trie_create_full(): the full trie's fd, or a reported error. */
int lpm_keys_and_trie(struct mb_run *run, struct lpm_keys *k);

/* The text lines (lpm_text.c): the kernel's reporters with the trie's Memory line. */
extern const struct mb_text_style lpm_text_ops;		/* noop, baseline, lookup, update */
extern const struct mb_text_style lpm_text_frac_second;	/* insert, delete */
extern const struct mb_text_style lpm_text_free;	/* free: K ops/s, ms/op */

#endif
