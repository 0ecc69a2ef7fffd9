// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * xdp-lb: the load balancer's cost per packet, by the kernel's scenario names. Each producer
 * runs the XDP program on the scenario's packet through BPF_PROG_TEST_RUN, in the op loop's
 * producer (drivers/kloop.h with drivers/xdp_loop.h's call): calls sized to --call_us, the
 * drift reference between them, the linearity check after the samples. After the run the
 * program's per-CPU stats are read back and must agree with the loop's counts.
 */
#include <errno.h>
#include <string.h>
#include <linux/bpf.h>

#include "core/env.h"
#include "core/opts.h"
#include "drivers/slots.h"
#include "drivers/thread_slots.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"
#include "xl_run.h"

#define XL_LRU_MISSES	0	/* counter[0]: packets that missed the connection table */

static const struct mb_counter_desc xl_counters[] = {
	[XL_LRU_MISSES] = { "lru_misses", "packets",
			    "packets whose flow was not in the connection table (a ring lookup)" },
	{ NULL, NULL, NULL },
};

static int parse_scenario(const char *arg, void *field, const char **why)
{
	const struct xl_scenario *s = xl_scenario_find(arg);

	if (!s) {
		*why = "mapbench xdp-lb --list-scenarios lists the 24";
		return -EINVAL;
	}
	*(const struct xl_scenario **)field = s;
	return 0;
}

static void format_scenario(const void *field, char *buf, size_t len)
{
	const struct xl_scenario *s = *(const struct xl_scenario *const *)field;

	snprintf(buf, len, "%s", s ? s->name : "");
}

static const struct mb_opt xl_opts[] = {
	MB_OPT_CUSTOM_DEF("scenario", struct xl_args, scenario, XL_DEFAULT_SCENARIO,
			  parse_scenario, format_scenario, "a scenario name",
			  "NAME", "The kernel's xdp-lb scenario: the packet, the VIP, the LRU's state"),
	MB_OPT_FLAG_DEF("list-scenarios", struct xl_args, list,
			"Print the scenarios, one a line with what each does, and exit"),
	MB_OPT_END,
};

static int xl_validate(struct mb_run *run)
{
	const struct xl_args *a = run->args;

	if (!a->list && run->env->loop == MB_LOOP_BPF_LOOP)
		return mb_run_usage(run, "--loop bpf_loop: xdp-lb's packet loop is a may_goto loop only (use --loop auto or may_goto)");
	if (!a->list)
		return 0;
	xl_scenarios_print(stdout);
	fflush(stdout);
	return MB_RUN_ANSWERED;
}

static int xl_producer(struct mb_run *run, struct mb_producer *p)
{
	const struct xl_scenario *s = ((const struct xl_args *)run->args)->scenario;
	struct xl_state *st = run->priv;
	struct mb_kloop_cfg cfg = {
		.prog_fd = bpf_program__fd(st->skel->progs.mb_xl_lb),
		.slots = st->skel->bss->mb_slots,
		.fixed_iters = s->fixed_iters,
		.call = mb_xdp_loop_call,
		.call_ctx = &st->packet,
	};
	int err = mb_thread_slot_register(bpf_map__fd(st->skel->maps.mb_thread_slots),
					  (uint32_t)p->idx);

	if (err) {
		mb_err("xdp-lb: producer %d: cannot register its thread: %s", p->idx,
		       strerror(-err));
		return err;
	}
	return mb_kloop_produce(run, p, &cfg);
}

/* The misses the run may have had: exactly 0 or all, or at most what its flows allow. */
static bool misses_fit(const struct xl_scenario *s, const struct xl_state *st, __u64 ops,
		       __u64 misses)
{
	if (s->action != XDP_TX)
		return misses == 0;
	if (s->miss == XL_MISS_ALL)
		return misses == ops;
	if (s->miss == XL_MISS_NONE && !s->flow_mask)
		return misses == 0;
	/* Warm tables: each of the 4096 sources misses once in each CPU's table. */
	if (s->miss == XL_MISS_NONE)
		return misses <= (__u64)XL_DIVERSE_FLOWS * (__u64)st->nr_tables;
	return misses <= ops;
}

/* The per-CPU stats against the loop's counts: every packet counted once, as the scenario. */
static int read_back(struct mb_run *run, const struct xl_state *st, const struct xl_scenario *s,
		     const struct mb_slot *sum, const struct xl_counts *c)
{
	__u64 n = sum->ops, verdict = s->action == XDP_TX ? c->tx :
				      s->action == XDP_PASS ? c->pass : c->drop;

	if (verdict != n || c->tx + c->pass + c->drop != n || sum->hits != n || sum->errors)
		return mb_run_fail(run, -EIO, "%llu packets read back from the loop (%llu with the scenario's verdict, %llu errors), the stats count %llu sent, %llu passed, %llu dropped: every packet must get the scenario's verdict",
				   (unsigned long long)n, (unsigned long long)sum->hits,
				   (unsigned long long)sum->errors, (unsigned long long)c->tx,
				   (unsigned long long)c->pass, (unsigned long long)c->drop);
	if (c->lru_packets != (s->action == XDP_TX ? n : 0) ||
	    c->lru_misses != sum->counter[XL_LRU_MISSES] ||
	    c->tcp_misses != (s->proto == XL_PROTO_TCP ? c->lru_misses : 0))
		return mb_run_fail(run, -EIO, "the stats count %llu packets to the VIP, %llu misses (%llu TCP), the loop %llu packets and %llu misses: they must agree",
				   (unsigned long long)c->lru_packets,
				   (unsigned long long)c->lru_misses,
				   (unsigned long long)c->tcp_misses, (unsigned long long)n,
				   (unsigned long long)sum->counter[XL_LRU_MISSES]);
	if (!misses_fit(s, st, n, c->lru_misses))
		return mb_run_fail(run, -EIO, "%llu connection-table misses in %llu packets: not what %s implies",
				   (unsigned long long)c->lru_misses, (unsigned long long)n,
				   s->name);
	return 0;
}

static void report(struct mb_run *run, const struct xl_state *st, const struct xl_scenario *s,
		   const struct mb_slot *sum, const struct xl_counts *c)
{
	struct mb_json *x = mb_run_extra(run), *chk = mb_json_object(), *lru = mb_json_object();
	struct mb_json *verdicts = mb_json_object();

	mb_json_set_str(x, "scenario", s->name);
	mb_json_set_str(x, "description", s->desc);
	mb_json_set_num(x, "connection_tables", st->nr_tables);
	mb_json_set_num(chk, "packets", (double)st->checked.packets);
	mb_json_set_num(chk, "verdict", st->checked.retval);
	mb_json_set_num(chk, "expected_verdict", s->action);
	mb_json_set_num(chk, "output_bytes", st->checked.out_len);
	mb_json_set_num(chk, "expected_output_bytes", st->expect.len);
	mb_json_set_num(chk, "lru_misses", (double)st->checked.misses);
	mb_json_set_num(chk, "expected_lru_misses", (double)st->checked.want_misses);
	mb_json_set_bool(chk, "ok", true);
	mb_json_set(x, "check", chk);
	mb_json_set_num(lru, "packets", (double)c->lru_packets);
	mb_json_set_num(lru, "misses", (double)c->lru_misses);
	mb_json_set_num(lru, "hits", (double)(c->lru_packets - c->lru_misses));
	mb_json_set_num(lru, "tcp_misses", (double)c->tcp_misses);
	mb_json_set(x, "lru", lru);
	mb_json_set_num(verdicts, "tx", (double)c->tx);
	mb_json_set_num(verdicts, "pass", (double)c->pass);
	mb_json_set_num(verdicts, "drop", (double)c->drop);
	mb_json_set(x, "verdicts", verdicts);
	/* Every call's, the linearity check's and those after the last sample's too. */
	mb_json_set_num(x, "loop_packets", (double)sum->ops);
	mb_json_set_num(x, "loop_lru_misses", (double)sum->counter[XL_LRU_MISSES]);
}

static void xl_finish(struct mb_run *run)
{
	const struct xl_scenario *s = ((const struct xl_args *)run->args)->scenario;
	struct xl_state *st = run->priv;
	struct xl_counts c;
	struct mb_slot sum;
	int err;

	mb_slots_sum(st->skel->bss->mb_slots, run->nr_producers, &sum);
	err = xl_counts_read(st, &c);
	if (err) {
		mb_run_fail(run, err, "cannot read the stats back: %s", strerror(-err));
		return;
	}
	if (!read_back(run, st, s, &sum, &c))
		report(run, st, s, &sum, &c);
}

const struct mb_bench mb_bench_xdp_lb = {
	.name = "xdp-lb",
	.family = "xdplb",
	.desc = "the kernel's XDP load balancer (VIP hash, a per-CPU LRU each in an array of maps, per-CPU stats): ns per packet, by its 24 scenarios",
	.opts = xl_opts,
	.args_size = sizeof(struct xl_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_OP_CALLS,
	.map_types = MB_MAP_TYPES("hash", "lru_hash", "array_of_maps", "array", "percpu_array"),
	.text = &mb_text_ops,
	.counters = xl_counters,
	.instrument = &mb_kloop_instrument,
	.result_scenario = "scenario",
	.validate = xl_validate,
	.setup = xl_setup,
	.producer = xl_producer,
	.finish = xl_finish,
	.teardown = xl_teardown,
};
