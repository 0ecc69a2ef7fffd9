// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-scan: the time of one whole walk of a map, by the method --method names, at the
 * capacity --max_entries and the fullness --fill. This file: the options, the checks made
 * before anything is created (the method the type has, the fill, the memory the map takes,
 * the kernel's limits) and the descriptor.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>

#include "scan.h"
#include "maps/maps.h"
#include "core/env.h"
#include "sys/meminfo.h"
#include "util/numparse.h"

#define SCAN_VALUE_MAX	65536	/* the kernel's own limit is probed below it */

/* The flags a walk may meet; rdonly_prog and wronly_prog would keep the fill out. */
#define SCAN_FLAGS	(BPF_F_NO_PREALLOC | BPF_F_NO_COMMON_LRU | BPF_F_ZERO_SEED | BPF_F_NUMA_NODE)

/* --fill: "N" entries, "0.25" a fraction of the capacity, "1%" a percentage of it. */
static int parse_fill(const char *arg, void *field, const char **why)
{
	struct scan_fill *f = field;
	size_t len = strlen(arg);
	char num[64];
	uint64_t n;
	double v;

	if (!len || len >= sizeof(num)) {
		*why = "not a count, a fraction or a percentage";
		return -EINVAL;
	}
	memcpy(num, arg, len + 1);
	if (num[len - 1] == '%' || strchr(num, '.')) {
		bool pct = num[len - 1] == '%';

		num[len - (pct ? 1 : 0)] = '\0';
		if (mb_parse_double(num, &v) || v < 0 || v > (pct ? 100 : 1)) {
			*why = "a fraction must be 0..1, a percentage 0..100%";
			return -EINVAL;
		}
		f->frac = pct ? v / 100 : v;
		f->count = 0;
		return 0;
	}
	if (mb_parse_u64(arg, &n) || n > SCAN_MAX_ENTRIES) {
		*why = "a count must be 0..16777216";
		return -EINVAL;
	}
	f->frac = NAN;
	f->count = (uint32_t)n;
	return 0;
}

static void format_fill(const void *field, char *buf, size_t len)
{
	const struct scan_fill *f = field;

	if (isnan(f->frac))
		snprintf(buf, len, "%u", f->count);
	else
		snprintf(buf, len, "%g%%", f->frac * 100);
}

static const struct mb_opt scan_opts[] = {
	MB_OPT_ENUM_DEF("method", struct scan_args, method, "lookup_batch", scan_method_names,
			"How a walk reads the map: get_next_key (and a lookup per key), lookup_batch, lookup_and_delete_batch (a drain), delete (get_next_key and a delete per key: a drain), iter (an iter/bpf_map_elem program), for_each (bpf_for_each_map_elem in a program run by test_run)"),
	MB_OPT_ENUM_DEF("map_type", struct scan_args, map_type, "hash", scan_type_names,
			"Map type walked"),
	MB_OPT_MAP_FLAGS(struct scan_args, map_flags,
			 "a number or names: no_prealloc, no_common_lru, zero_seed, numa_node",
			 "for the types that take them (lpm_trie: no_prealloc, always)"),
	MB_OPT_MAX_ENTRIES(struct scan_args, max_entries, "65536", SCAN_MAX_ENTRIES,
			   "the slots a walk passes over"),
	MB_OPT_CUSTOM_DEF("fill", struct scan_args, fill, "100%", parse_fill, format_fill,
			  "a count (0..--max_entries), a fraction (0..1, with a '.') or a percentage (0..100%) of --max_entries; arrays: 100%",
			  "FILL", "Entries in the map when a walk starts"),
	MB_OPT_U32_DEF("batch_size", struct scan_args, batch_size, "4096", 1, 1u << 20, "N",
		       "Entries per call of lookup_batch and lookup_and_delete_batch"),
	MB_OPT_VALUE_SIZE(struct scan_args, value_size, "8", 1, SCAN_VALUE_MAX,
			  "per-CPU maps: of each CPU's value; hash_of_maps: 4 (an inner map's fd)"),
	MB_OPT_U32_DEF("churn", struct scan_args, churn, "0", 0, SCAN_MAX_ENTRIES, "N",
		       "Keys a second thread deletes and inserts during the walks (get_next_key, lookup_batch on hash, percpu_hash); the walks then report restarts, entries seen twice and missed"),
	MB_OPT_FLAG_DEF("stall_probe", struct scan_args, stall_probe,
			"A thread on the walker's CPU (-a) times how long the walks keep it off the CPU: the longest stall, and its baseline beside the walker spinning in user space as long"),
	MB_OPT_END,
};

static const struct mb_counter_desc scan_counters[] = {
	[0] = { "entries", "entries", "entries the walks found (each walk checked: every present entry once)" },
	{ NULL, NULL, NULL },
};

static uint64_t round8(uint64_t v)
{
	return (v + 7) & ~7ULL;
}

/* About what the map takes in the kernel, bytes (its elements, buckets and per-CPU values). */
static uint64_t map_bytes(const struct mb_map_type_info *t, const struct scan_args *a,
			  uint32_t flags)
{
	uint64_t ncpus = (uint64_t)libbpf_num_possible_cpus(), v = round8(a->value_size);
	uint64_t slots = a->max_entries, n = (flags & BPF_F_NO_PREALLOC) ? a->entries : slots;
	uint64_t buckets = 1;

	if (t->array)
		return slots * v * (t->percpu ? ncpus : 1);
	if (t->type == BPF_MAP_TYPE_LPM_TRIE)
		return n * (64 + 8 + v);
	while (buckets < slots)
		buckets <<= 1;
	return buckets * 16 + n * (48 + 8 + (t->percpu ? 8 + v * ncpus : v));
}

static int check_memory(struct mb_run *run, const struct mb_map_type_info *t,
			const struct scan_args *a, uint32_t flags)
{
	uint64_t need = map_bytes(t, a, flags), avail;

	if (mb_mem_available(&avail) || need <= avail / 4 * 3)
		return 0;
	return mb_run_bad_num(run, "max_entries", a->max_entries,
			      "smaller (a %s map of it takes about %llu MiB, more than 3/4 of the %llu MiB this machine has available)",
			      t->name, (unsigned long long)(need >> 20),
			      (unsigned long long)(avail >> 20));
}

/* The fill as a count; a fraction above 0 is one entry at least. */
static uint64_t fill_count(const struct scan_args *a)
{
	double n;

	if (isnan(a->fill.frac))
		return a->fill.count;
	n = round(a->fill.frac * a->max_entries);
	return n < 1 && a->fill.frac > 0 ? 1 : (uint64_t)n;
}

static void method_list(unsigned int mask, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int m = 0; m < SCAN_NR_METHODS && off < len; m++)
		if (mask & SCAN_METHOD(m))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						scan_method_names[m]);
}

static int check_fill(struct mb_run *run, const struct mb_map_type_info *t, struct scan_args *a)
{
	uint64_t n = fill_count(a);
	char given[64];

	format_fill(&a->fill, given, sizeof(given));
	if (n > a->max_entries)
		return mb_run_usage(run, "--fill %s: must be 0..%u (--max_entries)", given,
				    a->max_entries);
	if (t->array && n != a->max_entries)
		return mb_run_usage(run, "--fill %s: must be 100%% (%s maps hold every slot)", given,
				    t->name);
	a->entries = (uint32_t)n;
	return 0;
}

static int check_churn(struct mb_run *run, const struct mb_map_type_info *t,
		       const struct scan_args *a)
{
	if (a->method != SCAN_GET_NEXT_KEY && a->method != SCAN_LOOKUP_BATCH)
		return mb_run_usage(run, "--churn %u: walks under change are get_next_key and lookup_batch walks, not %s",
				    a->churn, scan_method_names[a->method]);
	if (t->type != BPF_MAP_TYPE_HASH && t->type != BPF_MAP_TYPE_PERCPU_HASH)
		return mb_run_usage(run, "--churn %u: walks under change are of hash and percpu_hash maps, not %s (an LRU map would evict, an array deletes nothing)",
				    a->churn, t->name);
	if ((uint64_t)a->entries + a->churn > a->max_entries)
		return mb_run_bad_num(run, "churn", a->churn, "0..%u (--max_entries less the %u entries of --fill)",
				      a->max_entries - a->entries, a->entries);
	return 0;
}

static int check_kernel(struct mb_run *run, const struct mb_map_type_info *t,
			const struct scan_args *a, uint32_t flags)
{
	struct mb_map_refusal r;

	if (t->map_in_map ||
	    !mb_map_probe_create(t->type, t->type == BPF_MAP_TYPE_LPM_TRIE ? 8 : 4,
				 a->value_size, flags, &r))
		return 0;
	if (r.what && !strcmp(r.what, "value_size"))
		return mb_run_usage(run, "--value_size %u: %s maps take values of %u..%u bytes on this kernel",
				    a->value_size, t->name, r.min, r.max);
	return mb_run_usage(run, "--map_type %s --value_size %u: this kernel refuses the map (%s)",
			    t->name, a->value_size, strerror(-r.err));
}

static int scan_validate(struct mb_run *run)
{
	struct scan_args *a = run->args;
	const struct mb_map_type_info *t = mb_map_type_by_name(scan_type_names[a->map_type]);
	uint32_t flags = a->map_flags | (t->type == BPF_MAP_TYPE_LPM_TRIE ? BPF_F_NO_PREALLOC : 0);
	unsigned int methods = scan_methods_of(t);
	char list[160];
	int err;

	if (!(methods & SCAN_METHOD(a->method))) {
		method_list(methods, list, sizeof(list));
		return mb_run_usage(run, "--method %s: %s maps have no such walk (theirs: %s)",
				    scan_method_names[a->method], t->name, list);
	}
	if (flags & ~(t->flags_ok & SCAN_FLAGS)) {
		char given[128], ok[160];

		mb_map_flags_given(a->map_flags, given, sizeof(given));
		mb_map_flags_format(t->flags_ok & SCAN_FLAGS, ok, sizeof(ok));
		return mb_run_usage(run, "--map_flags %s: %s maps do not take them (they take %s)",
				    given, t->name, ok);
	}
	if (t->map_in_map && mb_run_opt_given(run, "value_size") && a->value_size != 4)
		return mb_run_bad_num(run, "value_size", a->value_size,
				      "4 (hash_of_maps values are inner maps' fds)");
	if (t->map_in_map)
		a->value_size = 4;
	if (a->stall_probe && !run->env->affinity && !run->env->prod_cpus.count)
		return mb_run_usage(run, "--stall_probe: give -a or --prod-affinity too (the probe runs on the walker's CPU)");
	err = check_fill(run, t, a);
	if (!err && a->churn)
		err = check_churn(run, t, a);
	if (!err)
		err = check_memory(run, t, a, flags);
	return err ? err : check_kernel(run, t, a, flags);
}

extern const struct mb_text_style scan_text;	/* scan_text.c */

const struct mb_bench mb_bench_map_scan = {
	.name = "map-scan",
	.family = "scan",
	.desc = "time of one whole walk of a map (--method: get_next_key, batches, drains, iterator, bpf_for_each_map_elem) at any capacity and fill, each walk checked",
	.opts = scan_opts,
	.args_size = sizeof(struct scan_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER,
	.map_types = scan_type_names,
	.text = &scan_text,
	.counters = scan_counters,
	.sweep_fastest = "method",	/* which method to use at each fullness */
	.validate = scan_validate,
	.setup = scan_setup,
	.producer = scan_producer,
	.finish = scan_finish,
	.teardown = scan_teardown,
};
