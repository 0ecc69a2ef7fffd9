// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-perf: samples/bpf/map_perf_test's eleven tests as in-kernel op loops. Each producer runs
 * every selected test in turn (about --call_us each), so a neighbour's noise hits all tests
 * alike; the sampler keeps each test's counters apart and the result has one figure per test
 * and producer, all in map operations per second of in-kernel time, with map_perf_test's
 * events per second and the map operations one event is.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "map_perf.h"
#include "core/env.h"
#include "util/json.h"
#include "maps/keys.h"
#include "drivers/kloop.h"
#include "util/log.h"
#include "map_perf.skel.h"
#include "maps/maps.h"
#include "drivers/map_fill.h"
#include "drivers/map_report.h"
#include "sys/probe.h"
#include "core/runner.h"
#include "util/stats.h"

/* ---- options ---- */

struct mp_args {
	uint32_t tests;		/* --test, as a mask */
	uint32_t test_mask;	/* --test_mask (0: all, as map_perf_test) */
	uint32_t max_entries;	/* 0: each test's own size */
	uint64_t seed;
	uint32_t mask;		/* the tests to run, resolved by validate */
};

static int parse_tests(const char *arg, void *field, const char **why)
{
	return mp_tests_parse(arg, field, why);
}

static void format_tests(const void *field, char *buf, size_t len)
{
	mp_tests_format(*(const uint32_t *)field, buf, len);
}

/* This port's bound, not the kernel's: each selected test preallocates maps of this size. */
#define MP_MAX_ENTRIES_MAX	(1u << 24)

static const struct mb_opt mp_opts[] = {
	MB_OPT_CUSTOM_DEF("test", struct mp_args, tests, "all", parse_tests, format_tests,
			  "all, or names joined by ',': hash_prealloc, percpu_hash_prealloc, hash_kmalloc, percpu_hash_kmalloc, lru_hash_prealloc, nocommon_lru_hash_prealloc, lpm_kmalloc, hash_lookup, array_lookup, inner_lru_hash_prealloc, lru_hash_lookup",
			  "NAMES", "Tests to run"),
	MB_OPT_U32_DEF("test_mask", struct mp_args, test_mask, NULL, 0, MP_ALL, "MASK",
		       "Tests to run as map_perf_test's bitmask (bit 0 hash_prealloc ... bit 10 lru_hash_lookup; 0: all)"),
	MB_OPT_MAX_ENTRIES(struct mp_args, max_entries, NULL, MP_MAX_ENTRIES_MAX,
			   "resizes the maps of the selected tests (map_perf_test's num_map_entries)"),
	MB_OPT_SEED(struct mp_args, seed, "the random keys and of the LPM prefixes"),
	MB_OPT_END,
};

static const char *const prog_names[MP_NR] = {
	"mb_mp_t0", "mb_mp_t1", "mb_mp_t2", "mb_mp_t3", "mb_mp_t4", "mb_mp_t5", "mb_mp_t6",
	"mb_mp_t7", "mb_mp_t8", "mb_mp_t9", "mb_mp_t10",
};

static int slot_of(const struct mp_state *st, int k, int producer)
{
	return k * st->nr_producers + producer;
}

static int mp_validate(struct mb_run *run)
{
	struct mp_args *a = run->args;
	int np = run->nr_producers, nsel = 0;

	if (mb_run_opt_given(run, "test") && mb_run_opt_given(run, "test_mask"))
		return mb_run_usage(run, "--test and --test_mask: give one of them");
	a->mask = mb_run_opt_given(run, "test_mask") ? (a->test_mask ? a->test_mask : MP_ALL) :
						       a->tests;
	for (int t = 0; t < MP_NR; t++)
		nsel += !!(a->mask & (1u << t));
	if (nsel * np > MB_MAX_SLOTS)
		return mb_run_usage(run, "-p %d: %d tests x %d producers need more than %d loop slots: at most %d producers",
				    np, nsel, np, MB_MAX_SLOTS, MB_MAX_SLOTS / nsel);
	if (a->max_entries && a->max_entries < (uint32_t)np &&
	    (a->mask & ((1u << MP_HASH_PREALLOC) | (1u << MP_PERCPU_HASH_PREALLOC) |
			(1u << MP_HASH_KMALLOC) | (1u << MP_PERCPU_HASH_KMALLOC))))
		return mb_run_usage(run, "--max_entries %u: the hash tests keep one key per producer: must be >= %d",
				    a->max_entries, np);
	return 0;
}

/* ---- setup ---- */

static struct bpf_map *test_map(struct map_perf_bpf *skel, int t)
{
	struct bpf_map *maps[MP_NR] = {
		skel->maps.mb_mp_hash, skel->maps.mb_mp_pc_hash, skel->maps.mb_mp_hash_km,
		skel->maps.mb_mp_pc_hash_km, skel->maps.mb_mp_lru, skel->maps.mb_mp_nc_lru,
		skel->maps.mb_mp_lpm, skel->maps.mb_mp_hash_lk, skel->maps.mb_mp_array,
		skel->maps.mb_mp_outer, skel->maps.mb_mp_lru_lk,
	};

	return maps[t];
}

/* Test 9's maps: one inner LRU hash per online CPU, on its node, in an array of maps. */
static int create_inner_maps(struct mb_run *run, struct mp_state *st)
{
	struct mb_map_desc outer = { .type = mb_map_type_by_type(BPF_MAP_TYPE_ARRAY_OF_MAPS),
				     .name = "mb_mp_outer" };
	struct mb_map_desc inner = { .type = mb_map_type_by_type(BPF_MAP_TYPE_LRU_HASH),
				     .name = "mb_mp_inner", .key_size = 4, .value_size = 8,
				     .max_entries = st->entries[MP_INNER_LRU_HASH_PREALLOC],
				     .flags = BPF_F_NUMA_NODE, .numa_node = MB_NUMA_OF_CPU };
	int err = mb_cpu_maps_create(run, &st->inner, &outer, &inner);

	return err ? err : bpf_map__reuse_fd(st->skel->maps.mb_mp_outer, st->inner.outer_fd);
}

/* Test 6's trie: 192.168.0.1/32 (the lookups' prefix) and up to 512 random prefixes. */
static int fill_lpm(struct mb_run *run, struct mp_state *st, int fd)
{
	const struct mp_args *a = run->args;
	uint32_t room = st->entries[MP_LPM_KMALLOC] - 1, n = room < 512 ? room : 512;
	struct { uint32_t prefixlen, addr; } *k = calloc(n + 1, sizeof(*k));
	struct mb_entries e = { .type = mb_map_type_by_type(BPF_MAP_TYPE_LPM_TRIE),
				.key_size = sizeof(*k), .value_size = 8, .key = MB_KEY_GIVEN,
				.value = MB_VALUE_INDEX, .keys = k };
	struct mb_fill_result r;
	struct mb_rng rng;
	int err;

	if (!k)
		return mb_run_fail(run, -ENOMEM, "out of memory");
	k[0].prefixlen = 32;
	k[0].addr = __builtin_bswap32(0xc0a80001);
	mb_rng_seed(&rng, a->seed);
	for (uint32_t i = 1; i <= n; i++) {
		k[i].prefixlen = (uint32_t)mb_rng_below(&rng, 33);
		k[i].addr = (uint32_t)mb_rng_next(&rng);
	}
	/* A duplicate prefix replaces the old one: fine, the trie is the point. */
	err = mb_map_fill(&(struct mb_fill){ .fd = fd, .e = &e, .count = n + 1,
					     .method = MB_FILL_SINGLE }, &r);
	free(k);
	return err ? mb_run_fail(run, err, "cannot fill the LPM trie: %s", strerror(-err)) : 0;
}

/* Test 10's map: keys 0..n-1, every one still there after the fill (an LRU map may evict). */
static int fill_lru(struct mb_run *run, int fd, uint32_t n)
{
	struct mb_entries e = { .type = mb_map_type_by_type(BPF_MAP_TYPE_LRU_HASH), .key_size = 4,
				.value_size = 8, .key = MB_KEY_INDEX, .value = MB_VALUE_ZERO };
	struct mb_fill f = { .fd = fd, .e = &e, .count = n, .method = MB_FILL_BATCH };
	struct mb_fill_result r;
	int err = mb_map_fill(&f, &r);

	if (!err) {
		f.method = MB_FILL_SINGLE;
		err = mb_map_check(&f, &r);
	}
	if (!err && r.failed)
		err = -ENOSPC;
	if (err)
		return mb_run_fail(run, err, "cannot fill lru_hash_lookup's map with %u keys: %s",
				   n, strerror(-err));
	return 0;
}

/* The map contents the lookup tests expect (map_perf_test filled the wrong LPM map). */
static int fill_maps(struct mb_run *run, struct mp_state *st)
{
	struct map_perf_bpf *skel = st->skel;
	struct mb_entries one = { .type = mb_map_type_by_type(BPF_MAP_TYPE_HASH), .key_size = 4,
				  .value_size = 8, .key = MB_KEY_INDEX, .value = MB_VALUE_INDEX };
	struct mb_fill_result r = { 0 };
	int err = 0;

	/* Key 1, value 1. */
	if (st->mask & (1u << MP_HASH_LOOKUP))
		err = mb_map_fill(&(struct mb_fill){ .fd = bpf_map__fd(skel->maps.mb_mp_hash_lk),
						     .e = &one, .first = 1, .count = 1,
						     .method = MB_FILL_SINGLE, .noexist = true }, &r);
	if (err || r.failed)
		return mb_run_fail(run, err ? err : -EEXIST, "cannot insert key 1: %s",
				   strerror(err ? -err : EEXIST));
	if (st->mask & (1u << MP_LPM_KMALLOC))
		err = fill_lpm(run, st, bpf_map__fd(skel->maps.mb_mp_lpm));
	if (!err && (st->mask & (1u << MP_LRU_HASH_LOOKUP)))
		err = fill_lru(run, bpf_map__fd(skel->maps.mb_mp_lru_lk),
			       skel->rodata->mb_mp_lookup_entries);
	return err;
}

/* Load the selected tests' programs and maps only, each map at its test's size. */
static void choose_tests(struct mp_state *st, const struct mp_args *a)
{
	struct map_perf_bpf *skel = st->skel;
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, false);
	for (int t = 0; t < MP_NR; t++) {
		bool on = st->mask & (1u << t);

		st->entries[t] = a->max_entries ? a->max_entries : mp_tests[t].entries;
		if (t == MP_LRU_HASH_LOOKUP && st->entries[t] < 32)
			st->entries[t] = 32;
		prog = bpf_object__find_program_by_name(skel->obj, prog_names[t]);
		bpf_program__set_autoload(prog, on);
		/* Test 7 and test 0 have a map each here (map_perf_test shared one). */
		bpf_map__set_autocreate(test_map(skel, t), on);
		if (on && t != MP_INNER_LRU_HASH_PREALLOC)
			bpf_map__set_max_entries(test_map(skel, t), st->entries[t]);
	}
	/* The lookups' keys must not be evicted: LRU head room (see hash_default_max_entries). */
	if (st->mask & (1u << MP_LRU_HASH_LOOKUP))
		bpf_map__set_max_entries(skel->maps.mb_mp_lru_lk,
					 st->entries[MP_LRU_HASH_LOOKUP] +
						 256 * (uint32_t)libbpf_num_possible_cpus());
	skel->rodata->mb_mp_lookup_entries = st->entries[MP_LRU_HASH_LOOKUP];
}

static int mp_setup(struct mb_run *run)
{
	const struct mp_args *a = run->args;
	struct mp_state *st = calloc(1, sizeof(*st));
	struct map_perf_bpf *skel;
	struct bpf_program *prog;
	int np = run->nr_producers, err, fd;

	if (!st)
		return -ENOMEM;
	run->priv = st;
	run->runner = "kernel-loop";
	st->mask = a->mask;
	st->nr_producers = np;
	for (int t = 0; t < MP_NR; t++)
		if (st->mask & (1u << t))
			st->sel[st->nsel++] = t;
	st->pub = aligned_alloc(128, sizeof(*st->pub) * (size_t)np);
	st->last = calloc((size_t)np * MP_NR, sizeof(*st->last));
	st->delta = calloc((size_t)run->max_samples * (size_t)np * MP_NR, sizeof(*st->delta));
	if (!st->pub || !st->last || !st->delta)
		return -ENOMEM;
	memset(st->pub, 0, sizeof(*st->pub) * (size_t)np);

	st->skel = skel = map_perf_bpf__open();
	if (!skel)
		return mb_run_fail(run, -errno, "cannot open the BPF object: %s", strerror(errno));
	mb_loop_prepare(skel->skeleton, &run->loop);
	choose_tests(st, a);
	if (st->mask & (1u << MP_INNER_LRU_HASH_PREALLOC)) {
		err = create_inner_maps(run, st);
		if (err)
			return run->status == MB_RUN_OK ?
				       mb_run_fail(run, err, "cannot hand the array of maps over: %s",
						   strerror(-err)) : err;
	}
	err = map_perf_bpf__load(skel);
	if (err) {
		char why[1024];

		mb_explain_load_error(err, "cannot load the BPF programs", why, sizeof(why));
		return mb_run_fail(run, err, "%s", why);
	}
	for (int t = 0; t < MP_NR; t++) {
		prog = bpf_object__find_program_by_name(skel->obj, prog_names[t]);
		st->prog_fd[t] = (st->mask & (1u << t)) ? bpf_program__fd(prog) : -1;
	}
	err = fill_maps(run, st);
	if (err)
		return err;
	for (int k = 0; k < st->nsel; k++) {
		int t = st->sel[k];
		char label[32];

		snprintf(label, sizeof(label), "%s", mp_tests[t].name);
		/* Test 9: one of its inner maps (they are alike). */
		fd = t == MP_INNER_LRU_HASH_PREALLOC ?
			     st->inner.inner_fd[mb_cpuset_next(&run->env->online, 0)] :
			     bpf_map__fd(test_map(skel, t));
		mb_run_report_map_memory(run, label, fd, st->entries[t]);
	}
	return 0;
}

static void mp_teardown(struct mb_run *run)
{
	struct mp_state *st = run->priv;

	if (!st)
		return;
	map_perf_bpf__destroy(st->skel);
	mb_cpu_maps_close(&st->inner);
	free(st->pub);
	free(st->last);
	free(st->delta);
	free(st);
	run->priv = NULL;
}

/* ---- producer: every selected test in turn ---- */

static void publish_tests(struct mp_pub *pub, const struct mb_counters *c)
{
	unsigned int seq = __atomic_load_n(&pub->seq, __ATOMIC_RELAXED);
	const uint64_t *src = (const uint64_t *)c;
	uint64_t *dst = (uint64_t *)pub->c;

	__atomic_store_n(&pub->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	for (size_t i = 0; i < MB_COUNTERS_NR * MP_NR; i++)
		__atomic_store_n(&dst[i], src[i], __ATOMIC_RELAXED);
	__atomic_store_n(&pub->seq, seq + 2, __ATOMIC_RELEASE);
}

static void read_tests(const struct mp_pub *pub, struct mb_counters *c)
{
	const uint64_t *src = (const uint64_t *)pub->c;
	uint64_t *dst = (uint64_t *)c;
	unsigned int s1, s2;

	do {
		s1 = __atomic_load_n(&pub->seq, __ATOMIC_ACQUIRE);
		for (size_t i = 0; i < MB_COUNTERS_NR * MP_NR; i++)
			dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&pub->seq, __ATOMIC_RELAXED);
	} while ((s1 & 1) || s1 != s2);
}

static int mp_producer(struct mb_run *run, struct mb_producer *p)
{
	struct mp_state *st = run->priv;
	const struct mp_args *a = run->args;
	struct mb_slot *slots = st->skel->bss->mb_slots;
	uint64_t target = (uint64_t)run->env->call_us * 1000, iters[MP_NR], next_ref = 0;
	struct mb_counters tc[MP_NR] = {}, total = {}, ref = {};
	struct mb_rng rng;
	int err;

	mb_rng_seed(&rng, a->seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(p->idx + 1)));
	for (int k = 0; k < st->nsel; k++) {
		struct mb_slot *s = &slots[slot_of(st, k, p->idx)];

		iters[k] = 64;
		s->rng = mb_rng_next(&rng) | 1;
		/* lru_hash_lookup: producers start at different keys. */
		s->cursor = (uint64_t)st->entries[MP_LRU_HASH_LOOKUP] * (uint64_t)p->idx /
			    (uint64_t)st->nr_producers;
	}
	mb_producer_publish_stamped(p, &total);
	while (!mb_run_should_stop(run)) {
		memset(&total, 0, sizeof(total));
		for (int k = 0; k < st->nsel && !mb_run_should_stop(run); k++) {
			int t = st->sel[k], idx = slot_of(st, k, p->idx);
			struct mb_slot *s = &slots[idx];
			uint64_t ns0 = s->kernel_ns, t0 = mb_now_ns();

			err = mb_kloop_call(st->prog_fd[t], idx, iters[k], p->cpu);
			/* The wall time of the test's calls: its own result's covered time. */
			tc[t].end_ns += mb_now_ns() - t0;
			if (err < 0) {
				mb_err("%s: producer %d: BPF_PROG_TEST_RUN failed: %s", run->bench->name,
				       p->idx, strerror(-err));
				return err;
			}
			if (err)
				return -EPROTO;
			iters[k] = mb_kloop_next_iters(iters[k], s->kernel_ns - ns0, target,
						       1u << 23);
			tc[t].ops = s->ops * mp_tests[t].ops_per_event;
			tc[t].hits = s->hits;
			tc[t].errors = s->errors;
			tc[t].kernel_ns = s->kernel_ns;
			tc[t].calls = s->calls;
		}
		for (int t = 0; t < MP_NR; t++) {
			total.ops += tc[t].ops;
			total.hits += tc[t].hits;
			total.errors += tc[t].errors;
			total.kernel_ns += tc[t].kernel_ns;
			total.calls += tc[t].calls;
		}
		err = mb_kloop_reference(run, p, &ref, &next_ref);
		if (err < 0)
			return err;
		total.ref_ops = ref.ref_ops;
		total.ref_ns = ref.ref_ns;
		publish_tests(&st->pub[p->idx], tc);
		/* A round of calls can be long: rates divide by the time the rounds took. */
		mb_producer_publish_stamped(p, &total);
	}
	return 0;
}

/* Each sample: every test's counter deltas per producer, kept for the per-test figures. */
static void mp_measure(struct mb_run *run, struct mb_sample *s)
{
	struct mp_state *st = run->priv;
	int np = st->nr_producers, i = run->nr_samples;
	struct mb_counters now[MP_NR];

	(void)s;
	if (i >= run->max_samples)
		return;
	for (int p = 0; p < np; p++) {
		read_tests(&st->pub[p], now);
		for (int t = 0; t < MP_NR; t++) {
			struct mb_counters *d = &st->delta[((size_t)i * np + p) * MP_NR + t];
			struct mb_counters *l = &st->last[(size_t)p * MP_NR + t];

			d->ops = now[t].ops - l->ops;
			d->hits = now[t].hits - l->hits;
			d->errors = now[t].errors - l->errors;
			d->kernel_ns = now[t].kernel_ns - l->kernel_ns;
			d->calls = now[t].calls - l->calls;
			d->end_ns = now[t].end_ns - l->end_ns;
			*l = now[t];
		}
	}
}

static void stats_obj(struct mb_json *o, const char *key, const double *v, int n, double scale)
{
	struct mb_json *x;
	struct mb_stats st;

	if (mb_stats_compute(v, (size_t)n, &st)) {
		mb_json_set(o, key, mb_json_null());
		return;
	}
	x = mb_json_child(o, key);
	mb_json_set_num(x, "mean", st.mean * scale);
	mb_json_set(x, "stddev", isnan(st.stddev) ? mb_json_null() :
						    mb_json_number(st.stddev * scale));
	mb_json_set_num(x, "n", (double)st.n);
}

static void mp_finish(struct mb_run *run)
{
	struct mp_state *st = run->priv;
	int np = st->nr_producers;
	struct mb_json *tests = mb_json_array();
	double *rate = calloc((size_t)run->nr_samples + 1, sizeof(double));
	double *lat = calloc((size_t)run->nr_samples + 1, sizeof(double));
	char mask[16];

	for (int k = 0; rate && lat && k < st->nsel; k++) {
		int t = st->sel[k];
		const struct mp_test_info *ti = &mp_tests[t];
		struct mb_json *o = mb_json_object(), *prods = mb_json_array();
		double total = 0;

		mb_json_set_str(o, "name", ti->name);
		mb_json_set_num(o, "bit", t);
		mb_json_set_str(o, "label", ti->label);
		mb_json_set_str(o, "map", ti->map);
		mb_json_set_str(o, "event", ti->event);
		mb_json_set_num(o, "ops_per_event", ti->ops_per_event);
		mb_json_set_num(o, "max_entries", st->entries[t]);
		for (int p = 0; p < np; p++) {
			struct mb_json *po = mb_json_object();
			uint64_t errors = 0, ops = 0;
			int n = 0;

			for (int i = 0; i < run->nr_samples; i++) {
				const struct mb_counters *d =
					&st->delta[((size_t)i * np + p) * MP_NR + t];

				if (run->samples[i].warmup || !d->ops || !d->kernel_ns)
					continue;
				rate[n] = (double)d->ops * 1e9 / (double)d->kernel_ns;
				lat[n] = (double)d->kernel_ns / (double)d->ops;
				errors += d->errors;
				ops += d->ops;
				n++;
			}
			mb_json_set_num(po, "producer", p);
			mb_json_set(po, "cpu", run->prod[p].cpu >= 0 ?
					       mb_json_number(run->prod[p].cpu) : mb_json_null());
			stats_obj(po, "map_ops_per_sec", rate, n, 1);
			stats_obj(po, "events_per_sec", rate, n, 1.0 / ti->ops_per_event);
			stats_obj(po, "ns_per_op", lat, n, 1);
			mb_json_set_num(po, "ops", (double)ops);
			mb_json_set_num(po, "errors", (double)errors);
			total += mb_json_num(mb_json_get(mb_json_get(po, "map_ops_per_sec"), "mean"), 0);
			mb_json_append(prods, po);
		}
		mb_json_set_num(o, "map_ops_per_sec_total", total);
		mb_json_set(o, "producers", prods);
		mb_json_append(tests, o);
	}
	free(rate);
	free(lat);
	snprintf(mask, sizeof(mask), "0x%x", st->mask);
	mb_json_set_str(mb_run_extra(run), "test_mask", mask);
	mb_json_set(mb_run_extra(run), "tests", tests);
}

/* ---- one result per test ---- */

static int mp_nr_parts(const struct mb_run *run)
{
	const struct mp_args *a = run->args;

	return __builtin_popcount(a->mask);
}

/* Part @k's extra: the run's, with only test @t's entry in tests, memory and test_mask. */
static int part_extra(struct mb_run *part, const struct mb_json *extra, int k, int t)
{
	const struct mb_json *mem = mb_json_get(mb_json_get(extra, "memory"), mp_tests[t].name);
	struct mb_json *tests = mb_json_array();
	char mask[16];

	for (size_t i = 0; i < mb_json_len(extra); i++) {
		const char *key = mb_json_key_at(extra, i);

		if (strcmp(key, "tests") && strcmp(key, "memory") && strcmp(key, "test_mask"))
			mb_json_set(part->extra, key, mb_json_copy(mb_json_at(extra, i)));
	}
	snprintf(mask, sizeof(mask), "0x%x", 1u << t);
	mb_json_append(tests, mb_json_copy(mb_json_at(mb_json_get(extra, "tests"), (size_t)k)));
	if (mem)
		mb_json_set(mb_json_child(part->extra, "memory"), mp_tests[t].name,
			    mb_json_copy(mem));
	return mb_json_set_str(part->extra, "test_mask", mask) ||
	       mb_json_set(part->extra, "tests", tests) ||
	       mb_json_set_num(part->params, "test_mask", 1u << t);
}

static int mp_split(struct mb_run *run)
{
	struct mp_state *st = run->priv;
	int np = st->nr_producers;

	for (int k = 0; k < st->nsel; k++) {
		int t = st->sel[k];
		struct mb_run *part = mb_run_add_part(run, mp_tests[t].name);

		if (!part || part_extra(part, run->extra, k, t))
			return -ENOMEM;
		for (int i = 0; i < run->nr_samples; i++) {
			for (int p = 0; p < np; p++) {
				struct mb_counters *c = &part->samples[i].prod[p];

				*c = st->delta[((size_t)i * np + p) * MP_NR + t];
				/* The reference loop ran between the rounds: every test's. */
				c->ref_ops = run->samples[i].prod[p].ref_ops;
				c->ref_ns = run->samples[i].prod[p].ref_ns;
			}
		}
	}
	return 0;
}

const struct mb_bench mb_bench_map_perf = {
	.name = "map-perf",
	.family = "hash",
	.desc = "samples/bpf/map_perf_test's eleven tests (--test, --test_mask), in map ops/s per test",
	.opts = mp_opts,
	.args_size = sizeof(struct mp_args),
	.flags = MB_BENCH_NEEDS_BPF,
	.map_types = MB_MAP_TYPES("hash", "percpu_hash", "lru_hash", "array", "lpm_trie",
				  "array_of_maps"),
	.instrument = &mb_kloop_instrument,
	.text = &map_perf_text,
	.validate = mp_validate,
	.setup = mp_setup,
	.producer = mp_producer,
	.measure = mp_measure,
	.finish = mp_finish,
	.teardown = mp_teardown,
	.nr_parts = mp_nr_parts,
	.split = mp_split,
	.part_param = "test",
};
