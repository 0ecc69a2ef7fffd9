// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * drivers/xdp_loop: a call runs the XDP program's loop as many times as user space wrote into
 * the slot, returns its packet and verdict and counts one call and its ops in the registered
 * thread's slot; a thread registered to no slot gets no call counted; as the op loop's call
 * hook it answers what mb_kloop_call answers, so mb_kloop_step (the producers' and the
 * linearity check's path) runs XDP programs unchanged.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "drivers/kloop.h"
#include "drivers/thread_slots.h"
#include "drivers/xdp_loop.h"
#include "sys/probe.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_step),
	};

	mb_log_init(true, false, stdout);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
