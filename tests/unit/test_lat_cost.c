// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * --latency must not change the mean cost of the ops it does not time by more than 1 %
 * (docs/methodology.md). For each op loop, raw_tp and XDP, with one op, a hash map lookup
 * (tests/bpf/lat_cost_test.bpf.c), calls of the timed twin with its sampling on and off (the
 * next timed op's number, lat_next, moved out of reach: the same program, laid out alike by
 * the JIT, times nothing) take turns, so that a drift of the machine's speed reaches both
 * alike; a round's figure is the median over its turns of on / off (ns/op, each from the
 * in-kernel clock of its call), and the median of ROUNDS rounds, each on a fresh load, must
 * be at most 1.01. Calls of the plain program take their turn too, and the twin's ns/op (off)
 * over the plain's is printed, not checked: two programs differ by where the JIT puts their
 * loops, which moves the cost of the same code by a few percent either way on machines whose
 * kernel sends every return through a thunk (docs/methodology.md).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "drivers/kloop.h"
#include "drivers/loop_kind.h"
#include "drivers/thread_slots.h"
#include "drivers/xdp_loop.h"
#include "sys/probe.h"
#include "util/stats.h"
#include "lat_cost_test.skel.h"

#define PAIRS		21
#define ROUNDS		7
#define CALL_ITERS	(16 * MB_LAT_EVERY)	/* a few ms of lookups, 16 timed among them */
#define MAX_COST	1.01
#define SLOT		0

static bool can_run(void)
{
	char why[512];

	return !mb_probe_bpf(why, sizeof(why)) && !mb_probe_kernel_loop(why, sizeof(why)) &&
	       mb_loop_may_goto_supported();
}

/* Every program loaded (no mb_loop_prepare: the plain ones beside their twins), map full. */
static struct lat_cost_test_bpf *load(void)
{
	struct lat_cost_test_bpf *skel = lat_cost_test_bpf__open_and_load();
	uint64_t v = 0;

	assert_non_null(skel);
	for (uint32_t k = 0; k < 1024; k++)
		assert_int_equal(bpf_map_update_elem(bpf_map__fd(skel->maps.cost_map), &k, &v,
						     BPF_ANY), 0);
	return skel;
}

/* The timed twin's state of the test's slot: in the raw_tp loop's or the XDP loop's .bss. */
static struct mb_loop_ctx_slot *lat_state(struct lat_cost_test_bpf *skel, bool xdp)
{
	return xdp ? &skel->bss->mb_xdp_lat_ctxs[SLOT] : &skel->bss->mb_loop_ctxs[SLOT];
}

/* One call of @fd (an XDP program where @xdp): its in-kernel ns per op, every op a hit. */
static double ns_per_op(struct lat_cost_test_bpf *skel, int fd, bool xdp)
{
	static const unsigned char pkt[64];
	const struct mb_xdp_packet in = { pkt, sizeof(pkt) };
	struct mb_kloop_cfg cfg = { .prog_fd = fd, .slots = skel->bss->mb_slots,
				    .call_ctx = &in };
	struct mb_slot *s = &skel->bss->mb_slots[SLOT];
	uint64_t ops = s->ops, hits = s->hits, ns = s->kernel_ns;
	int ret = xdp ? mb_xdp_loop_call(&cfg, SLOT, CALL_ITERS, -1) :
			mb_kloop_call(fd, SLOT, CALL_ITERS, -1);

	assert_int_equal(ret, MB_RET_OK);
	assert_int_equal(s->ops - ops, CALL_ITERS);
	assert_int_equal(s->hits - hits, CALL_ITERS);
	return (double)(s->kernel_ns - ns) / CALL_ITERS;
}

/*
 * One call of the twin @twin without sampling: the next timed op out of reach for the call,
 * then put back as many ops later as the call ran, so that the next call with sampling times
 * as if this one had not run. Its ns/op.
 */
static double untimed_call(struct lat_cost_test_bpf *skel, int twin, bool xdp)
{
	struct mb_loop_ctx_slot *st = lat_state(skel, xdp);
	uint64_t next = st->lat_next;
	double ns;

	st->lat_next = UINT64_MAX;
	ns = ns_per_op(skel, twin, xdp);
	assert_true(st->lat_next == UINT64_MAX);	/* nothing timed */
	st->lat_next = next + CALL_ITERS;
	return ns;
}

/* What a round found: medians over its pairs. */
struct cost {
	double sampling;	/* the twin with sampling on, over off */
	double program;		/* the twin without sampling, over the plain program */
};

/* PAIRS turns of plain, twin without and with sampling; which runs first turns too. */
static struct cost cost_round(struct lat_cost_test_bpf *skel, int plain, int twin, bool xdp)
{
	double sampling[PAIRS], program[PAIRS];

	for (int i = 0; i < PAIRS; i++) {
		double a, off, on;

		if (i & 1) {
			on = ns_per_op(skel, twin, xdp);
			off = untimed_call(skel, twin, xdp);
			a = ns_per_op(skel, plain, xdp);
		} else {
			a = ns_per_op(skel, plain, xdp);
			off = untimed_call(skel, twin, xdp);
			on = ns_per_op(skel, twin, xdp);
		}
		sampling[i] = on / off;
		program[i] = off / a;
	}
	return (struct cost){ mb_median(sampling, PAIRS), mb_median(program, PAIRS) };
}

/* One round on a fresh load. */
static double load_round(const char *loop, bool xdp)
{
	struct lat_cost_test_bpf *skel = load();
	int slots = bpf_map__fd(skel->maps.mb_thread_slots);
	int plain = bpf_program__fd(xdp ? skel->progs.mb_cost_xdp : skel->progs.mb_cost_lookup);
	int twin = bpf_program__fd(xdp ? skel->progs.mb_cost_xdp_lat :
				   skel->progs.mb_cost_lookup_lat);
	struct cost cost;

	if (xdp)
		assert_int_equal(mb_thread_slot_register(slots, SLOT), 0);
	ns_per_op(skel, plain, xdp);	/* warm: caches, the map, the CPU's clock */
	ns_per_op(skel, twin, xdp);
	cost = cost_round(skel, plain, twin, xdp);
	print_message("%s loop: sampling on / off %.4f; twin / plain program %.4f (%.2f ns/op)\n",
		      loop, cost.sampling, cost.program, ns_per_op(skel, plain, xdp));
	if (xdp)
		assert_int_equal(mb_thread_slot_unregister(slots), 0);
	lat_cost_test_bpf__destroy(skel);
	return cost.sampling;
}

static void check_cost(const char *loop, bool xdp)
{
	double cost[ROUNDS], median;

	if (!can_run())
		skip();
	for (int r = 0; r < ROUNDS; r++)
		cost[r] = load_round(loop, xdp);
	median = mb_median(cost, ROUNDS);
	if (median > MAX_COST)
		fail_msg("%s loop: --latency's sampling costs the ops %+.2f %%, the median of %d loads (at most %+.0f %%)",
			 loop, (median - 1) * 100, ROUNDS, (MAX_COST - 1) * 100);
}

static void test_raw_tp_loop(void **state)
{
	(void)state;
	check_cost("raw_tp", false);
}

static void test_xdp_loop(void **state)
{
	(void)state;
	check_cost("XDP", true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_tp_loop),
		cmocka_unit_test(test_xdp_loop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
