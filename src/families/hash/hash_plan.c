// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Pure planning for the hash family: which keys each producer uses, how big the map must be,
 * the precomputed key streams, and what the options and the bench name say. No BPF object
 * here, so the unit tests can check it all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>

#include "hash.h"

static const char *const op_names[HASH_OP_NR] = {
	[HASH_LOOKUP] = "lookup",
	[HASH_MISS] = "lookup-miss",
	[HASH_UPDATE] = "update",
	[HASH_INSERT] = "insert",
	[HASH_DELETE] = "delete",
	[HASH_MIXED] = "mixed",
	[HASH_KB_LOOKUP] = "lookup",
	[HASH_KB_FULL] = "update of an absent key into a full map",
};

const char *const hash_path_names[] = { "kernel", "syscall", "batch", NULL };

/* The benches of the family by name; any other (map-lookup) looks keys up. */
static const struct {
	const char *bench;
	enum hash_op op;
} bench_ops[] = {
	{ "map-lookup-miss", HASH_MISS },
	{ "map-update", HASH_UPDATE },
	{ "map-insert", HASH_INSERT },
	{ "map-delete", HASH_DELETE },
	{ "map-mixed", HASH_MIXED },
	{ "bpf-hashmap-lookup", HASH_KB_LOOKUP },
	{ "bpf-hashmap-full-update", HASH_KB_FULL },
};

enum hash_op hash_bench_op(const struct mb_bench *b)
{
	for (size_t i = 0; i < sizeof(bench_ops) / sizeof(bench_ops[0]); i++)
		if (!strcmp(b->name, bench_ops[i].bench))
			return bench_ops[i].op;
	return HASH_LOOKUP;
}

const struct mb_map_type_info *hash_leaf_type(const struct hash_args *a)
{
	return a->map_type->map_in_map ? a->inner_type : a->map_type;
}

int hash_possible_cpus(void)
{
	int n = libbpf_num_possible_cpus();

	return n > 0 ? n : 1;
}

const char *hash_op_name(enum hash_op op)
{
	return op < HASH_OP_NR ? op_names[op] : "?";
}

bool hash_op_wraps(enum hash_op op)
{
	return op != HASH_INSERT && op != HASH_DELETE;
}

bool hash_op_resident(enum hash_op op)
{
	return op != HASH_INSERT;
}

bool hash_op_fills(enum hash_op op)
{
	return op != HASH_INSERT;
}

uint64_t hash_need(enum hash_op op, uint32_t nr_entries, int nr_producers)
{
	if (op == HASH_INSERT)
		return nr_entries;
	return (uint64_t)nr_entries + (op == HASH_MIXED ? (uint64_t)nr_producers : 0);
}

uint64_t hash_default_max_entries(const struct mb_map_type_info *leaf, uint32_t flags,
				  uint64_t need, int possible_cpus)
{
	uint64_t max = need;

	if (possible_cpus < 1)
		possible_cpus = 1;
	if (leaf->lru && (flags & BPF_F_NO_COMMON_LRU))
		max = (need + HASH_LRU_PERCPU_SLACK) * (uint64_t)possible_cpus;
	else if (leaf->lru)
		max = need + (uint64_t)HASH_LRU_SLACK_PER_CPU * (uint64_t)possible_cpus;
	return max > UINT32_MAX ? 0 : max;
}

uint32_t hash_lru_cpu_capacity(uint32_t max_entries, int possible_cpus)
{
	return possible_cpus > 0 ? max_entries / (uint32_t)possible_cpus : max_entries;
}

static uint64_t stream_seed(uint64_t seed, int idx)
{
	struct mb_rng r;

	/* Distinct, well-mixed seeds per producer, the same on every machine. */
	mb_rng_seed(&r, seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(idx + 1)));
	return mb_rng_next(&r);
}

void hash_streams(enum hash_op op, uint32_t nr_entries, uint32_t miss_base, uint64_t seed,
		  int nr_producers, struct hash_stream *out)
{
	uint32_t part = nr_producers > 0 ? nr_entries / (uint32_t)nr_producers : nr_entries;

	for (int p = 0; p < nr_producers; p++) {
		struct hash_stream *s = &out[p];

		memset(s, 0, sizeof(*s));
		s->seed = stream_seed(seed, p);
		switch (op) {
		case HASH_LOOKUP:
		case HASH_UPDATE:
		case HASH_MISS:
			s->base = op == HASH_MISS ? miss_base : 0;
			s->range = nr_entries;
			/* Same keys, own stream: sequential streams start spread out. */
			s->start = (uint32_t)((uint64_t)nr_entries * (uint64_t)p /
					      (uint64_t)nr_producers);
			break;
		case HASH_INSERT:
		case HASH_DELETE:
		case HASH_MIXED:
			/* Disjoint ranges; the last producer takes the remainder. */
			s->base = (uint32_t)p * part + (op == HASH_MIXED ? nr_entries : 0);
			s->range = p == nr_producers - 1 ? nr_entries - (uint32_t)p * part : part;
			break;
		default:
			break;
		}
	}
}

int hash_kernel_src(enum hash_op op, const struct mb_key_dist *dist)
{
	switch (dist->kind) {
	case MB_DIST_UNIFORM:
		/* A once-through stream must not repeat a key: a shuffled range. */
		return hash_op_wraps(op) ? MB_HASH_SRC_RAND : MB_HASH_SRC_ARRAY;
	case MB_DIST_ZIPF:
		return MB_HASH_SRC_ARRAY;
	case MB_DIST_SEQ:
	default:
		return MB_HASH_SRC_SEQ;
	}
}

uint32_t hash_stream_len(enum hash_op op, const struct hash_stream *s)
{
	return hash_op_wraps(op) ? HASH_STREAM_LEN : s->range;
}

int hash_stream_indices(enum hash_op op, const struct hash_stream *s,
			const struct mb_key_dist *dist, uint32_t *out, uint32_t len)
{
	struct mb_keygen gen;
	struct mb_rng rng;
	int err;

	if (!s->range)
		return -EINVAL;
	if (!hash_op_wraps(op)) {
		/* Every key of the range once, in order or shuffled (Fisher-Yates). */
		if (len != s->range || dist->kind == MB_DIST_ZIPF)
			return -EINVAL;
		for (uint32_t i = 0; i < len; i++)
			out[i] = s->base + i;
		if (dist->kind == MB_DIST_SEQ)
			return 0;
		mb_rng_seed(&rng, s->seed);
		for (uint32_t i = len - 1; i > 0; i--) {
			uint32_t j = (uint32_t)mb_rng_below(&rng, (uint64_t)i + 1), t = out[i];

			out[i] = out[j];
			out[j] = t;
		}
		return 0;
	}
	err = mb_keygen_init(&gen, dist, s->range, s->seed);
	if (err)
		return err;
	gen.cursor = s->start % s->range;
	for (uint32_t i = 0; i < len; i++)
		out[i] = s->base + (uint32_t)mb_keygen_next(&gen);
	return 0;
}
