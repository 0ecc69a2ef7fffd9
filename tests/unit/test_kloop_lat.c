// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The op loop's timed twin (--latency, drivers/kloop_lat.bpf.h): loaded in the plain loop's
 * place, it times the first op and then one in MB_LAT_EVERY on average (random gaps), counted
 * over the producer's ops across calls of any length, into the op and timer histograms
 * alike; without it the histogram map is not even created.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "drivers/kloop.h"
#include "drivers/loop_kind.h"
#include "sys/probe.h"
#include "util/lat_hist.h"
#include "util/log.h"
#include "kloop_pre_test.skel.h"

static struct kloop_pre_test_bpf *load(unsigned int lat_every)
{
	struct kloop_pre_test_bpf *skel = kloop_pre_test_bpf__open();
	struct mb_loop_info loop = { .kind = MB_LOOP_MAY_GOTO, .lat_every = lat_every };

	assert_non_null(skel);
	mb_loop_prepare(skel->skeleton, &loop);
	assert_int_equal(kloop_pre_test_bpf__load(skel), 0);
	return skel;
}

/* Histogram @key's count, summed over the CPUs. */
static uint64_t timed(struct kloop_pre_test_bpf *skel, __u32 key)
{
	int ncpu = libbpf_num_possible_cpus();
	struct mb_lat_hist *v = calloc((size_t)ncpu, sizeof(*v));
	uint64_t n = 0;

	assert_non_null(v);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(skel->maps.mb_lat_hists), &key, v), 0);
	for (int c = 0; c < ncpu; c++)
		n += v[c].count;
	free(v);
	return n;
}

static void call(struct kloop_pre_test_bpf *skel, uint64_t iters)
{
	int fd = bpf_program__fd(skel->progs.mb_kpre_each);

	assert_int_equal(mb_kloop_call(fd, 0, iters, -1), MB_RET_OK);
}

static bool can_run(void)
{
	char why[512];

	return !mb_probe_bpf(why, sizeof(why)) && !mb_probe_kernel_loop(why, sizeof(why)) &&
	       mb_loop_may_goto_supported();
}

/* @n timed ops over @ops: one in MB_LAT_EVERY on average, within 10 % (the gaps are random). */
static void assert_rate(uint64_t n, uint64_t ops)
{
	double want = (double)ops / MB_LAT_EVERY;

	if ((double)n < 0.9 * want || (double)n > 1.1 * want)
		fail_msg("%llu timed ops in %llu, %.0f expected", (unsigned long long)n,
			 (unsigned long long)ops, want);
}

static void test_one_in_every(void **state)
{
	struct kloop_pre_test_bpf *skel;
	uint64_t ops, after_long;

	(void)state;
	if (!can_run())
		skip();
	skel = load(MB_LAT_EVERY);
	skel->bss->mb_slots[0] = (struct mb_slot){ .arg = (uint64_t)gettid() };
	/* The first op is timed, then one in MB_LAT_EVERY on average, gaps of 1/2 to 3/2 of it. */
	call(skel, 4);
	assert_int_equal(timed(skel, MB_LAT_OP), 1);
	call(skel, 1000 * MB_LAT_EVERY);
	after_long = timed(skel, MB_LAT_OP);
	assert_rate(after_long, 1000 * MB_LAT_EVERY);
	assert_true(after_long >= 1000 * 2 / 3 && after_long <= 2 * 1000 + 1);
	/*
	 * Calls far shorter than a gap carry the count on: 4000 calls of a quarter gap and two
	 * ops (those two run one by one, untimed) keep the rate.
	 */
	for (int i = 0; i < 4000; i++)
		call(skel, MB_LAT_EVERY / 4 + 2);
	ops = 4000ULL * (MB_LAT_EVERY / 4 + 2);
	assert_int_equal(skel->bss->mb_slots[0].ops, 4 + 1000ULL * MB_LAT_EVERY + ops);
	assert_rate(timed(skel, MB_LAT_OP) - after_long, ops);
	/* Every timed op has its empty clock pair. */
	assert_int_equal(timed(skel, MB_LAT_TIMER), timed(skel, MB_LAT_OP));
	kloop_pre_test_bpf__destroy(skel);
}

static void test_plain_loop_has_no_map(void **state)
{
	struct kloop_pre_test_bpf *skel;

	(void)state;
	if (!can_run())
		skip();
	skel = load(0);
	assert_true(bpf_map__fd(skel->maps.mb_lat_hists) < 0);
	skel->bss->mb_slots[0] = (struct mb_slot){ .arg = (uint64_t)gettid() };
	call(skel, 10 * MB_LAT_EVERY);
	assert_int_equal(skel->bss->mb_slots[0].ops, 10 * MB_LAT_EVERY);
	kloop_pre_test_bpf__destroy(skel);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_in_every),
		cmocka_unit_test(test_plain_loop_has_no_map),
	};

	mb_log_init(true, false, stdout);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
