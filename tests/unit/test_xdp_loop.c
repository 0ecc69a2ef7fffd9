// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * drivers/xdp_loop: a call runs the XDP program's loop as many times as user space wrote into
 * the slot, returns its packet and verdict and counts one call and its ops in the registered
 * thread's slot; a thread registered to no slot gets no call counted; as the op loop's call
 * hook it answers what mb_kloop_call answers, so mb_kloop_step (the producers' and the
 * linearity check's path) runs XDP programs unchanged; its timed twin (--latency) times one
 * packet in MB_LAT_EVERY on its own.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "drivers/kloop.h"
#include "drivers/loop_kind.h"
#include "drivers/thread_slots.h"
#include "drivers/xdp_loop.h"
#include "sys/probe.h"
#include "util/lat_hist.h"
#include "util/log.h"
#include "xdp_loop_test.skel.h"

static struct xdp_loop_test_bpf *load(void)
{
	char why[512];

	if (mb_probe_bpf(why, sizeof(why)))
		return NULL;
	return xdp_loop_test_bpf__open_and_load();
}

static void test_run(void **state)
{
	struct xdp_loop_test_bpf *skel = load();
	__u8 pkt[64] = { 250 }, out[128];
	struct mb_xdp_packet in = { pkt, sizeof(pkt) };
	struct mb_xdp_call c = { .in = &in, .out = out, .out_cap = sizeof(out) };
	struct mb_slot *slot;
	int fd;

	(void)state;
	if (!skel)
		skip();
	slot = &skel->bss->mb_slots[5];
	fd = bpf_map__fd(skel->maps.mb_thread_slots);
	/* No slot for this thread: the program counts no call. */
	assert_int_equal(mb_xdp_loop_run(bpf_program__fd(skel->progs.mb_tst_xdp_loop),
					 skel->bss->mb_slots, 5, 3, &c), -ENOENT);
	assert_int_equal(mb_thread_slot_register(fd, 5), 0);
	assert_int_equal(mb_xdp_loop_run(bpf_program__fd(skel->progs.mb_tst_xdp_loop),
					 skel->bss->mb_slots, 5, 3, &c), 0);
	assert_int_equal(c.retval, XDP_PASS);
	assert_int_equal(c.ops, 3);
	assert_int_equal(c.out_len, sizeof(pkt));
	assert_int_equal(out[0], 253);
	assert_memory_equal(out + 1, pkt + 1, sizeof(pkt) - 1);
	assert_int_equal(slot->ops, 3);
	assert_int_equal(slot->hits, 3);
	assert_int_equal(slot->calls, 1);
	assert_int_equal(slot->call_iters, 3);
	/* Six more: the byte wraps, the last packet's verdict is the call's. */
	assert_int_equal(mb_xdp_loop_run(bpf_program__fd(skel->progs.mb_tst_xdp_loop),
					 skel->bss->mb_slots, 5, 6, &c), 0);
	assert_int_equal(c.retval, XDP_DROP);
	assert_int_equal(out[0], 0);
	assert_int_equal(slot->ops, 9);
	assert_int_equal(slot->calls, 2);
	assert_int_equal(mb_thread_slot_unregister(fd), 0);
	xdp_loop_test_bpf__destroy(skel);
}

/* Through the op loop's step, as a producer and the linearity check call it. */
static void test_step(void **state)
{
	struct xdp_loop_test_bpf *skel = load();
	__u8 pkt[64] = { 0 };
	struct mb_xdp_packet in = { pkt, sizeof(pkt) };
	const struct mb_bench bench = { .name = "xdp-loop-test" };
	struct mb_run run = { .bench = &bench };
	struct mb_producer p = { .idx = 2, .cpu = -1 };
	struct mb_counters c = { 0 };
	struct mb_kloop_cfg cfg = { .call = mb_xdp_loop_call, .call_ctx = &in };
	uint64_t ns;

	(void)state;
	if (!skel)
		skip();
	cfg.prog_fd = bpf_program__fd(skel->progs.mb_tst_xdp_loop);
	cfg.slots = skel->bss->mb_slots;
	/* Unregistered: the loop's answer for a slot it cannot use. */
	assert_int_equal(mb_xdp_loop_call(&cfg, 2, 10, -1), MB_RET_BAD_ARGS);
	assert_int_equal(mb_kloop_step(&run, &p, &cfg, 10, &c), -EINVAL);
	assert_int_equal(mb_thread_slot_register(bpf_map__fd(skel->maps.mb_thread_slots), 2), 0);
	assert_int_equal(mb_kloop_step(&run, &p, &cfg, 1000, &c), MB_RET_OK);
	assert_int_equal(c.ops, 1000);
	assert_int_equal(c.hits, 1000);
	assert_int_equal(c.calls, 1);
	ns = c.kernel_ns;
	assert_true(ns > 0);
	assert_int_equal(mb_kloop_step(&run, &p, &cfg, 2000, &c), MB_RET_OK);
	assert_int_equal(c.ops, 3000);
	assert_true(c.kernel_ns > ns);
	xdp_loop_test_bpf__destroy(skel);
}

/* Histogram @key of @skel's timed twin, merged over the CPUs. */
static void read_hist(struct xdp_loop_test_bpf *skel, __u32 key, struct mb_lat_hist *h)
{
	int ncpu = libbpf_num_possible_cpus();
	struct mb_lat_hist *v = calloc((size_t)ncpu, sizeof(*v));

	assert_non_null(v);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(skel->maps.mb_lat_hists), &key, v), 0);
	memset(h, 0, sizeof(*h));
	for (int c = 0; c < ncpu; c++)
		mb_lat_hist_merge(h, &v[c]);
	free(v);
}

/*
 * The timed twin through the op loop's step: the same packets and counts as the plain loop,
 * the first packet timed and then one in MB_LAT_EVERY on average (gaps of 1/2 to 3/2 of it,
 * counted over calls), each with its empty clock pair, percentiles in order.
 */
static void test_timed_twin(void **state)
{
	struct xdp_loop_test_bpf *skel = load();
	__u8 pkt[64] = { 0 };
	struct mb_xdp_packet in = { pkt, sizeof(pkt) };
	const struct mb_bench bench = { .name = "xdp-loop-test" };
	struct mb_run run = { .bench = &bench };
	struct mb_producer p = { .idx = 3, .cpu = -1 };
	struct mb_counters c = { 0 };
	struct mb_kloop_cfg cfg = { .call = mb_xdp_loop_call, .call_ctx = &in };
	struct mb_lat_hist op, timer;
	double want;

	(void)state;
	if (!skel)
		skip();
	cfg.prog_fd = bpf_program__fd(skel->progs.mb_tst_xdp_loop_lat);
	cfg.slots = skel->bss->mb_slots;
	assert_int_equal(mb_thread_slot_register(bpf_map__fd(skel->maps.mb_thread_slots), 3), 0);
	assert_int_equal(mb_kloop_step(&run, &p, &cfg, 1, &c), MB_RET_OK);
	read_hist(skel, MB_LAT_OP, &op);
	assert_int_equal(op.count, 1);
	for (int i = 0; i < 8; i++)
		assert_int_equal(mb_kloop_step(&run, &p, &cfg, 1000 * 1000, &c), MB_RET_OK);
	/* Calls far shorter than a gap carry the count on. */
	for (int i = 0; i < 1000; i++)
		assert_int_equal(mb_kloop_step(&run, &p, &cfg, MB_LAT_EVERY / 4 + 3, &c),
				 MB_RET_OK);
	assert_int_equal(c.hits, c.ops);
	assert_true(c.ops > 8 * 1000 * 1000);
	read_hist(skel, MB_LAT_OP, &op);
	read_hist(skel, MB_LAT_TIMER, &timer);
	want = (double)c.ops / MB_LAT_EVERY;
	if ((double)op.count < 0.9 * want || (double)op.count > 1.1 * want + 1)
		fail_msg("%llu timed packets in %llu, %.0f expected", (unsigned long long)op.count,
			 (unsigned long long)c.ops, want);
	assert_int_equal(timer.count, op.count);
	assert_true(mb_lat_hist_percentile(&op, 50) > 0);
	assert_true(mb_lat_hist_percentile(&op, 50) <= mb_lat_hist_percentile(&op, 90));
	assert_true(mb_lat_hist_percentile(&op, 90) <= mb_lat_hist_percentile(&op, 99));
	assert_true(mb_lat_hist_percentile(&op, 99) <= mb_lat_hist_percentile(&op, 99.9));
	assert_true(mb_lat_hist_percentile(&op, 99.9) <= mb_lat_hist_max(&op));
	assert_int_equal(mb_thread_slot_unregister(bpf_map__fd(skel->maps.mb_thread_slots)), 0);
	xdp_loop_test_bpf__destroy(skel);
}

/*
 * mb_loop_prepare on a may_goto loop alone (no _bl twin): with --latency the twin takes the
 * plain program's place and the histogram map is made; without, the twin and the map are not.
 */
static void test_prepare_keeps_one(void **state)
{
	struct mb_loop_info loop = { .kind = MB_LOOP_MAY_GOTO, .lat_every = MB_LAT_EVERY };
	struct xdp_loop_test_bpf *skel;
	char why[512];

	(void)state;
	if (mb_probe_bpf(why, sizeof(why)) || !mb_loop_may_goto_supported())
		skip();
	for (int lat = 0; lat < 2; lat++) {
		loop.lat_every = lat ? MB_LAT_EVERY : 0;
		skel = xdp_loop_test_bpf__open();
		assert_non_null(skel);
		mb_loop_prepare(skel->skeleton, &loop);
		assert_int_equal(xdp_loop_test_bpf__load(skel), 0);
		assert_string_equal(bpf_program__name(skel->progs.mb_tst_xdp_loop),
				    lat ? "mb_tst_xdp_loop_lat" : "mb_tst_xdp_loop");
		assert_int_equal(bpf_program__autoload(skel->progs.mb_tst_xdp_loop_lat), lat);
		assert_int_equal(bpf_map__fd(skel->maps.mb_lat_hists) >= 0, lat);
		xdp_loop_test_bpf__destroy(skel);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_timed_twin),
		cmocka_unit_test(test_prepare_keeps_one),
	};

	mb_log_init(true, false, stdout);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
