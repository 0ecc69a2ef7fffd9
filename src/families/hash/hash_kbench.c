// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The kernel's hash map benches, measured as they are but without their flaws:
 * bpf-hashmap-lookup (nested loops over keys 1..nr_entries; now one key buffer per producer
 * instead of one shared buffer, and mean +- stddev over every sample instead of the last 32
 * program runs) and bpf-hashmap-full-update (updates of an absent key into a full
 * preallocated hash; now mean +- stddev per producer instead of one last run per CPU). The
 * kernel drives both from fentry on getpgid, which this kind of kernel may refuse; here they
 * run as in-kernel op loops, each BPF_PROG_TEST_RUN call one run of --nr_loops operations.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "hash.h"
#include "core/env.h"
#include "util/json.h"
#include "util/log.h"
#include "util/stats.h"

static const char *const fill_order_names[] = { "bucket", "key", NULL };

/*
 * The kernel bench's keys are 1..nr_entries in a u32 word, and nr_entries <= max_entries (a u32):
 * the port's limit, one below the u32 maximum, keeps nr_entries + 1 a u32 too.
 */
#define HML_NR_ENTRIES_MAX	(UINT32_MAX - 1)
/* The full map is preallocated and filled before the run: 2^30 elements are tens of GiB. */
#define FU_MAX_ENTRIES_MAX	(1u << 30)

static const struct mb_opt hml_opts[] = {
	MB_OPT_KEY_SIZE(struct hash_args, key_size, "4", 4, MB_HASH_KEY_MAX,
			"of the hashmap (the kernel's limit is checked)"),
	MB_OPT_MAP_FLAGS(struct hash_args, map_flags,
			 "a number or names: no_prealloc, zero_seed, numa_node",
			 "of the hashmap, passed to BPF_MAP_CREATE"),
	MB_OPT_MAX_ENTRIES(struct hash_args, max_entries, "1000", MB_MAP_ENTRIES_MAX,
			   "the hashmap's max_entries"),
	MB_OPT_NR_ENTRIES(struct hash_args, nr_entries, "500", 1, HML_NR_ENTRIES_MAX,
			  "the keys 1..N inserted and looked up"),
	MB_OPT_NR_LOOPS(struct hash_args, nr_loops, "1000000",
			"Lookups per program run (a multiple of --nr_entries)"),
	MB_OPT_ENUM_DEF("fill_order", struct hash_args, fill_order, "key", fill_order_names,
			"Order the fill inserts keys in: by key (the kernel bench's layout) or by hash bucket (fast)"),
	MB_OPT_END,
};

static const struct mb_opt fu_opts[] = {
	MB_OPT_MAX_ENTRIES(struct hash_args, max_entries, "1000", FU_MAX_ENTRIES_MAX,
			   "entries of the full preallocated hash"),
	MB_OPT_NR_LOOPS(struct hash_args, nr_loops, "10000", "Updates per program run"),
	MB_OPT_END,
};

/* What the shared setup needs and these benches do not take as options. */
static void fixed_args(struct hash_args *a)
{
	a->map_type = mb_map_type_by_name("hash");
	a->inner_type = mb_map_type_by_name("lru_hash");
	a->value_size = 8;
	a->key_dist = (struct mb_key_dist){ .kind = MB_DIST_SEQ };
	a->path = HASH_PATH_KERNEL;
	a->seed = 1;
}

static int hml_validate(struct mb_run *run)
{
	struct hash_args *a = run->args;
	int err;

	fixed_args(a);
	if (a->nr_entries > a->max_entries)
		return mb_run_usage(run, "--nr_entries %u: must be <= --max_entries %u",
				    a->nr_entries, a->max_entries);
	/* The kernel bench runs nr_loops / nr_entries passes: fewer loops than keys is none. */
	if (a->nr_loops < a->nr_entries)
		return mb_run_bad_num(run, "nr_loops", a->nr_loops,
				      ">= --nr_entries %u (one run looks up every key at least once)",
				      a->nr_entries);
	err = hash_validate_flags(run, a, HASH_KB_LOOKUP);
	if (!err)
		err = hash_validate_kernel(run, a);
	return err;
}

static int fu_validate(struct mb_run *run)
{
	struct hash_args *a = run->args;

	fixed_args(a);
	a->key_size = 4;
	a->map_flags = 0;	/* preallocated: the case the bench exists for */
	a->nr_entries = a->max_entries;
	a->fill_order = HASH_FILL_KEY;
	if ((uint64_t)a->max_entries + (uint64_t)run->nr_producers > UINT32_MAX)
		return mb_run_bad_num(run, "max_entries", a->max_entries,
				      "<= %llu (the producers' absent keys follow the map's)",
				      (unsigned long long)UINT32_MAX - (unsigned)run->nr_producers);
	return 0;
}

/* Per producer: operations per second of in-kernel time, over the measured samples. */
static void report_producer_rates(struct mb_run *run)
{
	struct mb_json *arr = mb_json_array();
	double *v = calloc((size_t)run->nr_samples + 1, sizeof(*v));

	for (int p = 0; v && p < run->nr_producers; p++) {
		struct mb_json *o = mb_json_object();
		struct mb_stats st;
		int n = 0;

		for (int i = 0; i < run->nr_samples; i++) {
			const struct mb_counters *c = &run->samples[i].prod[p];

			if (!run->samples[i].warmup && c->kernel_ns)
				v[n++] = (double)c->ops * 1e9 / (double)c->kernel_ns;
		}
		mb_json_set_num(o, "producer", p);
		mb_json_set(o, "cpu", run->prod[p].cpu >= 0 ? mb_json_number(run->prod[p].cpu) :
							     mb_json_null());
		if (mb_stats_compute(v, (size_t)n, &st)) {
			mb_json_set(o, "events_per_sec", mb_json_null());
		} else {
			struct mb_json *e = mb_json_child(o, "events_per_sec");

			mb_json_set_num(e, "mean", st.mean);
			mb_json_set(e, "stddev", isnan(st.stddev) ? mb_json_null() :
							      mb_json_number(st.stddev));
			mb_json_set_num(e, "n", (double)st.n);
		}
		mb_json_append(arr, o);
	}
	free(v);
	mb_json_set(mb_run_extra(run), "per_producer", arr);
}

static void kb_finish(struct mb_run *run)
{
	const struct hash_args *a = run->args;

	report_producer_rates(run);
	mb_json_set_num(mb_run_extra(run), "ops_per_run",
			run->bench->opts == hml_opts ?
				(double)(a->nr_loops / a->nr_entries) * a->nr_entries :
				(double)a->nr_loops);
}

const struct mb_bench mb_bench_bpf_hashmap_lookup = {
	.name = "bpf-hashmap-lookup",
	.family = "hash",
	.desc = "the kernel bench: lookups of keys 1..nr_entries in nested loops, per-producer keys",
	.opts = hml_opts,
	.args_size = sizeof(struct hash_args),
	/* The kernel's method: an inner bpf_loop per op, so a callback call per key. */
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_OP_CALLS,
	.map_types = MB_MAP_TYPES("hash"),
	.instrument = &mb_kloop_instrument,
	.text = &hash_text_hml,
	.validate = hml_validate,
	.setup = hash_setup,
	.producer = hash_kernel_producer,
	.finish = kb_finish,
	.teardown = hash_teardown,
};

const struct mb_bench mb_bench_bpf_hashmap_full_update = {
	.name = "bpf-hashmap-full-update",
	.family = "hash",
	.desc = "the kernel bench: updates of an absent key into a full preallocated hash (E2BIG)",
	.opts = fu_opts,
	.args_size = sizeof(struct hash_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = MB_MAP_TYPES("hash"),
	.instrument = &mb_kloop_instrument,
	.text = &hash_text_fu,
	.validate = fu_validate,
	.setup = hash_setup,
	.producer = hash_kernel_producer,
	.finish = kb_finish,
	.teardown = hash_teardown,
};
