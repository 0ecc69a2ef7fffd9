// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * --latency finds a known delay distribution: the timed twin of an op that spins on the clock
 * for a known time on some of the ops it times (tests/bpf/lat_inject_test.bpf.c: of eight,
 * five empty, two 20 us, one 80 us) reports p50 among the empty ops and p75 and p90 each
 * within one bucket of its delay plus the clock's own cost, which the percentiles include.
 * And the timed ops do not alias with a period of the op's own: an op slow on every 128th op
 * number is slow in about 1 in 128 of the timed ops, not in all of them.
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
#include "lat_inject_test.skel.h"

#define SHORT_NS	20000
#define LONG_NS		80000
#define CALL_ITERS	(64 * MB_LAT_EVERY)	/* about 64 timed ops a call */
#define CALLS		4

static bool can_run(void)
{
	char why[512];

	return !mb_probe_bpf(why, sizeof(why)) && !mb_probe_kernel_loop(why, sizeof(why)) &&
	       mb_loop_may_goto_supported();
}

/* Histogram @key merged over the CPUs into *@h. */
static void read_hist(struct lat_inject_test_bpf *skel, __u32 key, struct mb_lat_hist *h)
{
	int ncpu = libbpf_num_possible_cpus();
	struct mb_lat_hist *v = calloc((size_t)ncpu, sizeof(*v));

	assert_non_null(v);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(skel->maps.mb_lat_hists), &key, v), 0);
	*h = v[0];
	for (int c = 1; c < ncpu; c++)
		mb_lat_hist_merge(h, &v[c]);
	free(v);
}

/* Percentile @p of @h lies in the bucket of @want or one beside it. */
static void assert_near(const struct mb_lat_hist *h, double p, double want)
{
	long got = (long)mb_lat_bucket((__u64)mb_lat_hist_percentile(h, p));
	long at = (long)mb_lat_bucket((__u64)want);

	print_message("p%g: %.0f ns (bucket %ld), expected %.0f ns (bucket %ld)\n", p,
		      mb_lat_hist_percentile(h, p), got, want, at);
	if (labs(got - at) > 1)
		fail_msg("p%g is %.0f ns (bucket %ld), %.0f ns expected (bucket %ld)", p,
			 mb_lat_hist_percentile(h, p), got, want, at);
}

static struct lat_inject_test_bpf *load(uint64_t short_ns, uint64_t long_ns)
{
	struct mb_loop_info loop = { .kind = MB_LOOP_MAY_GOTO, .lat_every = MB_LAT_EVERY };
	struct lat_inject_test_bpf *skel = lat_inject_test_bpf__open();

	assert_non_null(skel);
	skel->rodata->short_ns = short_ns;
	skel->rodata->long_ns = long_ns;
	mb_loop_prepare(skel->skeleton, &loop);
	assert_int_equal(lat_inject_test_bpf__load(skel), 0);
	skel->bss->mb_slots[0] = (struct mb_slot){ 0 };
	return skel;
}

static void test_injected(void **state)
{
	static struct mb_lat_hist op, timer;
	struct lat_inject_test_bpf *skel;
	double clock_ns;
	int fd;

	(void)state;
	if (!can_run())
		skip();
	skel = load(SHORT_NS, LONG_NS);
	fd = bpf_program__fd(skel->progs.mb_lat_inject);
	for (int i = 0; i < CALLS; i++)
		assert_int_equal(mb_kloop_call(fd, 0, CALL_ITERS, -1), MB_RET_OK);
	/* Every op ran; the op saw each timed op; every spin ran its full time: 3 in 8. */
	assert_int_equal(skel->bss->mb_slots[0].ops, (uint64_t)CALLS * CALL_ITERS);
	read_hist(skel, MB_LAT_OP, &op);
	read_hist(skel, MB_LAT_TIMER, &timer);
	assert_int_equal(op.count, skel->bss->timed_seen);
	assert_int_equal(timer.count, op.count);
	assert_true(op.count >= 100);
	assert_int_equal(skel->bss->mb_slots[0].errors, 0);
	assert_int_equal(skel->bss->mb_slots[0].hits, op.count / 8 * 3 + (op.count % 8 > 5) +
						     (op.count % 8 > 6));
	/* The percentiles are gross: each timed op includes one clock read, the timer's cost. */
	clock_ns = mb_lat_hist_percentile(&timer, 50);
	assert_true(mb_lat_hist_percentile(&op, 50) < SHORT_NS / 10);
	assert_near(&op, 75, SHORT_NS + clock_ns);
	assert_near(&op, 90, LONG_NS + clock_ns);
	assert_true(mb_lat_hist_max(&op) >= LONG_NS);
	lat_inject_test_bpf__destroy(skel);
}

static void test_no_aliasing(void **state)
{
	static struct mb_lat_hist op;
	struct lat_inject_test_bpf *skel;
	uint64_t slow = 0, ops = 0;
	int fd;

	(void)state;
	if (!can_run())
		skip();
	skel = load(1000, 0);
	fd = bpf_program__fd(skel->progs.mb_lat_period);
	/* Calls as the producer makes them with --latency: a multiple of four, and 0..3 more. */
	for (uint64_t i = 0; i < 8 * CALLS; i++) {
		uint64_t iters = mb_kloop_latency_iters(CALL_ITERS / 2, i, UINT32_MAX);

		assert_int_equal(mb_kloop_call(fd, 0, iters, -1), MB_RET_OK);
		ops += iters;
	}
	assert_int_equal(skel->bss->mb_slots[0].errors, 0);
	assert_int_equal(skel->bss->mb_slots[0].ops, ops);
	assert_int_equal(skel->bss->mb_slots[0].hits, (ops + 127) / 128);
	read_hist(skel, MB_LAT_OP, &op);
	assert_true(op.count >= 100);
	/* The spin's time and a little more: not an interrupt's or the host's far longer stall. */
	for (uint32_t i = mb_lat_bucket(1000); i < mb_lat_bucket(2000); i++)
		slow += op.bucket[i];
	/*
	 * 1 in 128 expected (8 of ~1000; the gaps are drawn from the same seed every run, and
	 * this one finds 12); a gap of a fixed 8192 would make it all of them, and calls of a
	 * multiple of four ops alone 1 in 32 (32 of ~1000: the timed op's residue modulo 4
	 * would never change).
	 */
	if (slow * 48 > op.count)
		fail_msg("%llu of %llu timed ops took the 1 us spin that 1 op in 128 takes",
			 (unsigned long long)slow, (unsigned long long)op.count);
	lat_inject_test_bpf__destroy(skel);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_injected),
		cmocka_unit_test(test_no_aliasing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
