// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <string.h>

#include "presets.h"

/* run_common.sh: RUN_BENCH="sudo ./bench -w3 -d10 -a" */
static const char *const run_bench[] = { "warmup", "3", "duration", "10", "affinity", "true",
					  NULL };

#define BLOOM_ENTRIES "10000,50000,75000,100000,250000,500000,750000,1000000,2500000,5000000"

static const char *const lpm_args[] = { "--prefix_len", "32", NULL };
static const char *const lpm_globals[] = { "producers", "1", "affinity", "true", NULL };

static const char *const hashmap_lookup_args[] = {
	"--key_size", "4", "--max_entries", "65536", "--nr_loops", "1000000",
	"--map_flags", "0x40", NULL,
};
static const char *const hashmap_lookup_globals[] = { "duration", "2", "affinity", "true", NULL };

const struct mb_preset mb_presets[] = {
	{
		.name = "bpf-loop",
		.desc = "bpf_loop cost per callback iteration against nr_loops and producers",
		.source = "tools/testing/selftests/bpf/benchs/run_bench_bpf_loop.sh",
		.globals = run_bench,
		.series = { {
			.benches = { "bpf-loop" },
			.params = {
				{ "producers", "1,4,8,12,16" },
				{ "nr_loops", "10,100,500,1000,5000,10000,50000,100000,500000,1000000" },
			},
		} },
		.plot_x = "nr_loops", .plot_lines = "producers", .plot_metric = "latency",
	},
	{
		.name = "bloom",
		.desc = "bloom filter lookups, updates and false positives against value size, producers, hash functions, entries",
		.source = "tools/testing/selftests/bpf/benchs/run_bench_bloom_filter_map.sh (first part)",
		.globals = run_bench,
		.series = { {
			.benches = { "bloom-lookup", "bloom-update", "bloom-false-positive" },
			.params = {
				{ "value_size", "2,4,8,16,40" },
				{ "producers", "1,4,8,12,16" },
				{ "nr_hash_funcs", "1..10" },
				{ "nr_entries", BLOOM_ENTRIES },
			},
		} },
		.plot_x = "nr_entries", .plot_lines = "nr_hash_funcs", .plot_metric = "throughput",
	},
	{
		.name = "bloom-hashmap",
		.desc = "hash map lookups without and with a bloom filter in front, 8 producers",
		.source = "tools/testing/selftests/bpf/benchs/run_bench_bloom_filter_map.sh (second part)",
		.globals = run_bench,
		.series = { {
			.benches = { "hashmap-without-bloom", "hashmap-with-bloom" },
			.params = {
				{ "value_size", "2,4,8,16,40" },
				{ "nr_hash_funcs", "1..10" },
				{ "nr_entries", BLOOM_ENTRIES },
				{ "producers", "8" },
			},
		} },
		.plot_x = "nr_entries", .plot_lines = "value_size", .plot_metric = "total",
	},
	{
		.name = "htab-mem",
		.desc = "hash map update rate and memory per allocator flavour and use case, 8 producers",
		.source = "tools/testing/selftests/bpf/benchs/run_bench_htab_mem.sh",
		.globals = run_bench,
		.series = { {
			.benches = { "htab-mem" },
			.params = {
				{ "preallocated", "true,false" },
				{ "use-case", "overwrite,batch_add_batch_del,add_del_on_diff_cpu" },
				{ "producers", "8" },
			},
		} },
		.plot_x = "use-case", .plot_lines = "preallocated", .plot_metric = "throughput",
	},
	{
		.name = "lpm-entries",
		.desc = "LPM trie lookup cost against the number of entries (/32 prefixes)",
		.source = "xdp-project areas/bench/bench02_lpm-trie-lookup.org: lpm-trie-lookup --prefix_len=32 --producers=1 --affinity",
		.globals = lpm_globals,
		.series = { {
			.benches = { "lpm-trie-lookup" },
			.args = lpm_args,
			.params = {
				{ "nr_entries", "1,100,1000,10000,100000,500000,1000000" },
			},
		} },
		.plot_x = "nr_entries", .plot_metric = "latency",
	},
	{
		.name = "hashmap-lookup",
		.desc = "hash map lookups against fullness (6 to 100 % of 65536 entries)",
		.source = "selftests/bpf bpf-hashmap-lookup posting (v2 7/7, 2023): -d2 -a --key_size=4 --max_entries=65536 --nr_loops=1000000 --map_flags=0x40",
		.globals = hashmap_lookup_globals,
		.series = { {
			.benches = { "bpf-hashmap-lookup" },
			.args = hashmap_lookup_args,
			.params = {
				{ "nr_entries", "4096,16384,32768,49152,65536" },
			},
		} },
		.plot_x = "nr_entries", .plot_metric = "auto",
	},
	{ .name = NULL },
};

const struct mb_preset *mb_preset_find(const char *name)
{
	for (int i = 0; mb_presets[i].name; i++)
		if (!strcmp(mb_presets[i].name, name))
			return &mb_presets[i];
	return NULL;
}
