// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Hash family: what validate checks before a run. The options together, the sizes the map
 * must have (and the LRU head room added to a derived --max_entries), and the kernel's own
 * limits, found with one-entry maps. One-line errors that name the option and its value.
 */
#include <errno.h>
#include <string.h>
#include <linux/bpf.h>

#include "hash.h"
#include "core/runner.h"

#define KNOWN_FLAGS (BPF_F_NO_PREALLOC | BPF_F_NO_COMMON_LRU | BPF_F_NUMA_NODE | \
		     BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG | BPF_F_ZERO_SEED | BPF_F_MMAPABLE)

int hash_validate_flags(struct mb_run *run, const struct hash_args *a, enum hash_op op)
{
	const struct mb_map_type_info *leaf = hash_leaf_type(a);
	uint32_t bad = a->map_flags & KNOWN_FLAGS & ~leaf->flags_ok;
	uint32_t unnamed = mb_map_flags_unnamed(a->map_flags);
	char given[128], bad_s[128], ok_s[160], un_s[256] = "";

	mb_map_flags_given(a->map_flags, given, sizeof(given));
	if (bad) {
		mb_map_flags_format(bad, bad_s, sizeof(bad_s));
		mb_map_flags_format(leaf->flags_ok, ok_s, sizeof(ok_s));
		/* Bits that are no flag at all: say so, not only which flags the type refuses. */
		if (unnamed) {
			un_s[0] = ';';
			un_s[1] = ' ';
			mb_map_flags_unnamed_note(unnamed, un_s + 2, sizeof(un_s) - 2);
		}
		return mb_run_usage(run, "--map_flags %s: %s maps do not take %s (they take %s)%s",
				    given, leaf->name, bad_s, ok_s, un_s);
	}
	/* Read-only or write-only for programs: the in-kernel ops would not load. */
	if (a->path == HASH_PATH_KERNEL && (a->map_flags & BPF_F_WRONLY_PROG) &&
	    op != HASH_DELETE && op != HASH_INSERT && op != HASH_KB_FULL)
		return mb_run_usage(run, "--map_flags %s: wronly_prog keeps the in-kernel %s from reading the map (use --path syscall)",
				    given, hash_op_name(op));
	if ((a->map_flags & BPF_F_RDONLY_PROG) &&
	    ((hash_op_fills(op) && !leaf->array) ||
	     (op != HASH_LOOKUP && op != HASH_MISS && op != HASH_KB_LOOKUP)))
		return mb_run_usage(run, "--map_flags %s: rdonly_prog keeps programs from writing the map, and the fill is a program",
				    given);
	if ((a->map_flags & BPF_F_WRONLY_PROG) && hash_op_fills(op) && leaf->lru)
		return mb_run_usage(run, "--map_flags %s: wronly_prog keeps the fill check from reading the map",
				    given);
	return 0;
}

static const char *errno_name(int err)
{
	switch (-err) {
	case E2BIG:
		return "E2BIG";
	case EINVAL:
		return "EINVAL";
	case ENOMEM:
		return "ENOMEM";
	default:
		return strerror(-err);
	}
}

/* The kernel's own limits on sizes and flags, found with one-entry maps. */
int hash_validate_kernel(struct mb_run *run, const struct hash_args *a)
{
	const struct mb_map_type_info *leaf = hash_leaf_type(a);
	struct mb_map_refusal r;
	char flags[128];

	if (!mb_map_probe_create(leaf->type, a->key_size, a->value_size, a->map_flags, &r))
		return 0;
	mb_map_flags_format(a->map_flags, flags, sizeof(flags));
	if (r.what && !strcmp(r.what, "key_size")) {
		if (r.min == r.max)
			return mb_run_usage(run, "--key_size %u: %s maps take keys of exactly %u bytes",
					    a->key_size, leaf->name, r.min);
		return mb_run_usage(run, "--key_size %u: %s maps take keys of %u..%u bytes on this kernel (%s)",
				    a->key_size, leaf->name, r.min, r.max, errno_name(r.err));
	}
	if (r.what && !strcmp(r.what, "value_size"))
		return mb_run_usage(run, "--value_size %u: %s maps take values of %u..%u bytes on this kernel (%s)",
				    a->value_size, leaf->name, r.min, r.max, errno_name(r.err));
	if (r.what)
		return mb_run_usage(run, "--map_flags %s: this kernel refuses them for %s maps (%s)",
				    flags, leaf->name, errno_name(r.err));
	return mb_run_usage(run, "--map_type %s --key_size %u --value_size %u --map_flags %s: this kernel refuses the combination (%s)",
			    leaf->name, a->key_size, a->value_size, flags, errno_name(r.err));
}

static int validate_sizes(struct mb_run *run, struct hash_args *a, enum hash_op op)
{
	const struct mb_map_type_info *leaf = hash_leaf_type(a);
	int np = run->nr_producers, ncpus = hash_possible_cpus();
	uint64_t need = hash_need(op, a->nr_entries, np), max;

	if ((op == HASH_INSERT || op == HASH_DELETE || op == HASH_MIXED) &&
	    a->nr_entries < (uint32_t)np)
		return mb_run_bad_num(run, "nr_entries", a->nr_entries,
				      ">= %d (map-%s gives each of the %d producers its own keys)",
				      np, hash_op_name(op), np);
	if (leaf->array) {
		if (!a->max_entries)
			a->max_entries = a->nr_entries;
		if (a->nr_entries > a->max_entries)
			return mb_run_usage(run, "--nr_entries %u: must be <= --max_entries %u",
					    a->nr_entries, a->max_entries);
		/* Absent indices start at max_entries. */
		if (op == HASH_MISS &&
		    (uint64_t)a->max_entries + a->nr_entries >= MB_HASH_BAD_INDEX)
			return mb_run_bad_num(run, "max_entries", a->max_entries,
					      "< %u - --nr_entries (map-lookup-miss looks up indices from max_entries on)",
					      MB_HASH_BAD_INDEX);
		return 0;
	}
	if (!a->max_entries) {
		max = hash_default_max_entries(leaf, a->map_flags, need, ncpus);
		if (!max)
			return mb_run_bad_num(run, "nr_entries", a->nr_entries,
					      "smaller (the map it needs has more than %u entries)",
					      UINT32_MAX);
		a->max_entries = (uint32_t)max;
		a->max_entries_headroom = (uint32_t)(max - need);
		return 0;
	}
	if (need > a->max_entries) {
		if (op == HASH_MIXED)
			return mb_run_bad_num(run, "nr_entries", a->nr_entries,
					      "<= --max_entries %u - %d (map-mixed needs room for one more key per producer)",
					      a->max_entries, np);
		return mb_run_usage(run, "--nr_entries %u: must be <= --max_entries %u",
				    a->nr_entries, a->max_entries);
	}
	if (leaf->lru && (a->map_flags & BPF_F_NO_COMMON_LRU) && hash_op_resident(op)) {
		uint32_t cap = hash_lru_cpu_capacity(a->max_entries, ncpus);

		/* One CPU's list may come to hold every key: it must not have to evict. */
		if (need + HASH_LRU_PERCPU_SLACK > cap)
			return mb_run_usage(run, "--nr_entries %u: with no_common_lru the LRU capacity is per CPU: each of the %d possible CPUs gets --max_entries / %d = %u nodes, and one CPU's list must hold every key plus %d: raise --max_entries to %llu or leave it out",
					    a->nr_entries, ncpus, ncpus, cap, HASH_LRU_PERCPU_SLACK,
					    (unsigned long long)((need + HASH_LRU_PERCPU_SLACK) *
								 (uint64_t)ncpus));
	}
	return 0;
}

int hash_validate(struct mb_run *run)
{
	struct hash_args *a = run->args;
	enum hash_op op = hash_bench_op(run->bench);
	const struct mb_map_type_info *leaf = hash_leaf_type(a);
	int err;

	if (mb_run_opt_given(run, "inner_type") && !a->map_type->map_in_map)
		return mb_run_usage(run, "--inner_type %s: only for array_of_maps and hash_of_maps (--map_type %s has no inner maps)",
				    a->inner_type->name, a->map_type->name);
	if (leaf->array && (op == HASH_INSERT || op == HASH_DELETE || op == HASH_MIXED))
		return mb_run_usage(run, "--map_type %s: %s%s maps cannot delete elements, so map-%s needs a hash type (use map-update)",
				    a->map_type->name, leaf->name,
				    a->map_type->map_in_map ? " inner" : "", hash_op_name(op));
	if (leaf->array && a->key_size != 4)
		return mb_run_usage(run, "--key_size %u: %s maps take keys of exactly 4 bytes (the index)",
				    a->key_size, leaf->name);
	if (a->key_dist.kind == MB_DIST_ZIPF && !hash_op_wraps(op))
		return mb_run_usage(run, "--key_dist zipf:%g: map-%s uses each key of its range once per round: seq or uniform",
				    a->key_dist.theta, hash_op_name(op));
	if (a->path == HASH_PATH_BATCH && (op == HASH_MISS || op == HASH_MIXED))
		return mb_run_usage(run, "--path batch: there is no keyed batch lookup, so map-%s has no batch form (use --path syscall)",
				    hash_op_name(op));
	if (a->path == HASH_PATH_BATCH && op == HASH_LOOKUP && a->key_dist.kind != MB_DIST_SEQ)
		return mb_run_usage(run, "--key_dist: map-lookup --path batch dumps the map in its own order (BPF_MAP_LOOKUP_BATCH): seq only");
	if (mb_run_opt_given(run, "batch_size") && a->path != HASH_PATH_BATCH)
		return mb_run_usage(run, "--batch_size %u: only with --path batch", a->batch_size);
	err = hash_validate_flags(run, a, op);
	if (!err)
		err = validate_sizes(run, a, op);
	if (!err)
		err = hash_validate_kernel(run, a);
	return err;
}
