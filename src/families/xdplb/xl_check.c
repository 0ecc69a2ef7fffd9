// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * xdp-lb's check before timing, as the kernel's bench makes it: one call of XL_CHECK_ITERS
 * packets on the main thread (slot 0, given back before the producers start) whose verdict,
 * output packet, stats and connection-table misses must be what the scenario implies. A
 * mismatch fails the run: a figure of a balancer that does something else is no figure.
 */
#include <errno.h>
#include <string.h>
#include <linux/bpf.h>

#include "drivers/thread_slots.h"
#include "util/log.h"
#include "xl_run.h"

static const char *verdict_name(__u32 v)
{
	switch (v) {
	case XDP_ABORTED: return "XDP_ABORTED";
	case XDP_DROP: return "XDP_DROP";
	case XDP_PASS: return "XDP_PASS";
	case XDP_TX: return "XDP_TX";
	case XDP_REDIRECT: return "XDP_REDIRECT";
	default: return "an unknown verdict";
	}
}

static __u64 want_misses(const struct xl_scenario *s, __u64 n)
{
	if (s->action != XDP_TX)
		return 0;
	return s->miss == XL_MISS_ALL ? n : s->miss == XL_MISS_FIRST ? 1 : 0;
}

/* One call of @n packets on this thread as slot 0, its output packet into @out. */
static int call(struct mb_run *run, struct xl_state *st, __u64 n, __u8 *out,
		struct mb_xdp_call *c)
{
	int fd = bpf_map__fd(st->skel->maps.mb_thread_slots);
	int err = mb_thread_slot_register(fd, 0);

	if (err)
		return mb_run_fail(run, err, "cannot register the checking thread: %s",
				   strerror(-err));
	*c = (struct mb_xdp_call){ .in = &st->packet, .out = out, .out_cap = XL_OUT_MAX };
	err = mb_xdp_loop_run(bpf_program__fd(st->skel->progs.mb_xl_lb), st->skel->bss->mb_slots,
			      0, n, c);
	mb_thread_slot_unregister(fd);
	if (err)
		return mb_run_fail(run, err, "the check's call failed: %s", strerror(-err));
	return 0;
}

static int check_packet(struct mb_run *run, const struct xl_state *st, const __u8 *out,
			__u32 len)
{
	long at = st->expect.len ? xl_pkt_diff(&st->expect, out, len) : -1;

	if (at < 0)
		return 0;
	if ((__u32)at < len && (__u32)at < st->expect.len)
		return mb_run_fail(run, -EPROTO, "check before timing: the output packet differs from the expected one at byte %ld (0x%02x, expected 0x%02x)",
				   at, out[at], st->expect.data[at]);
	return mb_run_fail(run, -EPROTO, "check before timing: the output packet has %u bytes, %u expected",
			   len, st->expect.len);
}

/* Each stat the scenario implies, @n packets in. */
static int check_counts(struct mb_run *run, const struct xl_state *st, const struct xl_scenario *s,
			__u64 n, const struct xl_counts *c)
{
	__u64 tx = s->action == XDP_TX ? n : 0, pass = s->action == XDP_PASS ? n : 0;
	__u64 drop = s->action == XDP_DROP ? n : 0, misses = want_misses(s, n);
	const struct mb_slot *slot = &st->skel->bss->mb_slots[0];

	if (c->tx != tx || c->pass != pass || c->drop != drop)
		return mb_run_fail(run, -EPROTO, "check before timing: %llu packets in, the stats count %llu sent, %llu passed, %llu dropped (the scenario: all %s)",
				   (unsigned long long)n, (unsigned long long)c->tx,
				   (unsigned long long)c->pass, (unsigned long long)c->drop,
				   verdict_name((__u32)s->action));
	if (c->lru_packets != tx || c->lru_misses != misses)
		return mb_run_fail(run, -EPROTO, "check before timing: %llu packets to the VIP and %llu connection-table misses, %llu and %llu expected",
				   (unsigned long long)c->lru_packets,
				   (unsigned long long)c->lru_misses, (unsigned long long)tx,
				   (unsigned long long)misses);
	if (c->tcp_misses != (s->proto == XL_PROTO_TCP ? misses : 0))
		return mb_run_fail(run, -EPROTO, "check before timing: %llu TCP misses counted, %llu expected",
				   (unsigned long long)c->tcp_misses,
				   (unsigned long long)(s->proto == XL_PROTO_TCP ? misses : 0));
	if (slot->ops != n || slot->hits != n || slot->errors || slot->counter[0] != misses)
		return mb_run_fail(run, -EPROTO, "check before timing: the loop counted %llu packets, %llu with the scenario's verdict, %llu misses (%llu, %llu, %llu expected)",
				   (unsigned long long)slot->ops, (unsigned long long)slot->hits,
				   (unsigned long long)slot->counter[0], (unsigned long long)n,
				   (unsigned long long)n, (unsigned long long)misses);
	return 0;
}

/* The state the producers start from: no count of the check's, the sources varied. */
static int ready(struct mb_run *run, struct xl_state *st, const struct xl_scenario *s)
{
	int err = xl_counts_reset(st);

	if (err)
		return mb_run_fail(run, err, "cannot reset the stats: %s", strerror(-err));
	memset(st->skel->bss->mb_slots, 0, sizeof(st->skel->bss->mb_slots));
	st->skel->bss->xl_flow_mask = s->flow_mask;
	return 0;
}

int xl_check(struct mb_run *run, struct xl_state *st)
{
	const struct xl_scenario *s = ((const struct xl_args *)run->args)->scenario;
	__u8 out[XL_OUT_MAX];
	struct mb_xdp_call c;
	struct xl_counts counts;
	int err;

	st->skel->bss->xl_want = (__u32)s->action;
	/* A cold scenario's own flow is in the table after a first call, as the kernel seeds it. */
	if (s->cold) {
		st->skel->bss->xl_cold = 1;
		err = call(run, st, XL_CHECK_ITERS, out, &c);
		if (err)
			return err;
	}
	err = xl_counts_reset(st);
	if (err)
		return mb_run_fail(run, err, "cannot reset the stats: %s", strerror(-err));
	memset(st->skel->bss->mb_slots, 0, sizeof(st->skel->bss->mb_slots));
	err = call(run, st, XL_CHECK_ITERS, out, &c);
	if (err)
		return err;
	if (c.retval != (__u32)s->action)
		return mb_run_fail(run, -EPROTO, "check before timing: the balancer's verdict was %s, the scenario's is %s",
				   verdict_name(c.retval), verdict_name((__u32)s->action));
	err = check_packet(run, st, out, c.out_len);
	if (err)
		return err;
	err = xl_counts_read(st, &counts);
	if (err)
		return mb_run_fail(run, err, "cannot read the stats: %s", strerror(-err));
	err = check_counts(run, st, s, XL_CHECK_ITERS, &counts);
	if (err)
		return err;
	/* A dropped packet goes nowhere, though test_run hands its buffer back. */
	st->checked = (struct xl_checked){ .packets = XL_CHECK_ITERS, .retval = c.retval,
					   .out_len = st->expect.len ? c.out_len : 0, .misses = counts.lru_misses,
					   .want_misses = want_misses(s, XL_CHECK_ITERS) };
	mb_debug("xdp-lb: %s: the check's %d packets: %s, %u bytes out, %llu misses",
		 s->name, XL_CHECK_ITERS, verdict_name(c.retval), c.out_len,
		 (unsigned long long)counts.lru_misses);
	return ready(run, st, s);
}
