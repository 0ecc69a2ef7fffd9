// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The sockmap bench: its options (the kernel bench's: one mode flag, --rx-strp,
 * --delay-consumer, --producer-duration) and its descriptor, over sms_setup.c, sms_run.c
 * and sms_text.c. The kernel's wants -c2 -p1 -a; on a machine of two CPUs one consumer is
 * enough except in --rx-normal, whose second consumer is the proxy.
 */
#include <stddef.h>

#include "sms.h"

extern const struct mb_text_style sms_text;	/* sms_text.c */


static const struct mb_opt sms_opts[] = {
	MB_OPT_FLAG_DEF("rx-normal", struct sms_args, mode_flag[SMS_RX_NORMAL],
			"No program: a user-space proxy (consumer 1) reads p1 and sends on from p2"),
	MB_OPT_FLAG_DEF("rx-pass", struct sms_args, mode_flag[SMS_RX_PASS],
			"An sk_skb verdict on c2 that lets each message through"),
	MB_OPT_U32_DEF("rx-strp", struct sms_args, strp, "0", 0, SMS_FILE_SIZE, "BYTES",
		       "With an rx mode that runs a program: a stream parser that cuts messages of BYTES (0: none)"),
	MB_OPT_FLAG_DEF("rx-verdict-egress", struct sms_args, mode_flag[SMS_RX_VERDICT_EGRESS],
			"The default: an sk_skb verdict on p1 redirects each message to p2's send queue"),
	MB_OPT_FLAG_DEF("rx-verdict-ingress", struct sms_args, mode_flag[SMS_RX_VERDICT_INGRESS],
			"An sk_skb verdict on p1 redirects each message to c2's receive queue"),
	MB_OPT_FLAG_DEF("tx-normal", struct sms_args, mode_flag[SMS_TX_NORMAL],
			"No program: p2 sends to c2"),
	MB_OPT_FLAG_DEF("tx-pass", struct sms_args, mode_flag[SMS_TX_PASS],
			"An sk_msg verdict on p2 that lets each message through"),
	MB_OPT_FLAG_DEF("tx-verdict-ingress", struct sms_args, mode_flag[SMS_TX_VERDICT_INGRESS],
			"An sk_msg verdict on p2 redirects each message to c2's receive queue"),
	MB_OPT_FLAG_DEF("tx-verdict-egress", struct sms_args, mode_flag[SMS_TX_VERDICT_EGRESS],
			"An sk_msg verdict on p1 redirects each message to p2's send queue"),
	MB_OPT_U32_DEF("delay-consumer", struct sms_args, delay_consumer, "0", 0, 3600, "SEC",
		       "Consumer 0 starts reading SEC seconds late"),
	MB_OPT_U32_DEF("producer-duration", struct sms_args, producer_duration, "0", 0, 3600,
		       "SEC", "The producer stops after SEC seconds (0: at the run's end)"),
	MB_OPT_END,
};

static const struct mb_counter_desc sms_counters[] = {
	[SMS_BYTES] = { "bytes", "bytes", "bytes a producer sent, or a consumer received" },
	[SMS_BPF_BYTES] = { "bpf_bytes", "bytes", "bytes the programs' verdicts saw (the producer reads them)" },
	{ NULL, NULL, NULL },
};

static int sms_validate(struct mb_run *run)
{
	struct sms_args *a = run->args;
	int n = 0;

	a->mode = SMS_RX_VERDICT_EGRESS;
	for (int m = 0; m < SMS_NR_MODES; m++)
		if (a->mode_flag[m]) {
			a->mode = m;
			n++;
		}
	if (n > 1)
		return mb_run_usage(run, "--%s: one mode only (--rx-normal ... --tx-verdict-egress)",
				    sms_mode_names[a->mode]);
	if (a->strp && !sms_rx_bpf(a->mode))
		return mb_run_bad_num(run, "rx-strp", a->strp, "0 with --%s (the stream parser runs with --rx-pass and the rx verdicts)",
				      sms_mode_names[a->mode]);
	if (a->mode == SMS_RX_NORMAL && run->nr_consumers < 2)
		return mb_run_usage(run, "-c/--consumers %d: --rx-normal needs 2 (consumer 1 is the proxy)",
				    run->nr_consumers);
	if (run->nr_consumers < 1 || run->nr_consumers > 2)
		return mb_run_usage(run, "-c/--consumers %d: must be 1 or 2 (consumer 0 reads c2; consumer 1 is --rx-normal's proxy)",
				    run->nr_consumers);
	return 0;
}

static int sms_default_consumers(const struct mb_run *run)
{
	const struct sms_args *a = run->args;

	return a->mode_flag[SMS_RX_NORMAL] ? 2 : 1;
}

const struct mb_bench mb_bench_sockmap = {
	.name = "sockmap",
	.family = "sockmap",
	.desc = "the kernel bench's sockmap: a file sent over loopback TCP through sk_skb or sk_msg programs of a sockmap (--rx-*/--tx-* modes), Send, BPF and Rcv MB/s",
	.opts = sms_opts,
	.args_size = sizeof(struct sms_args),
	.flags = MB_BENCH_NEEDS_BPF | MB_BENCH_SINGLE_PRODUCER | MB_BENCH_CONSUMERS,
	.map_types = (const char *const[]){ "sockmap", NULL },
	.text = &sms_text,
	.counters = sms_counters,
	.headline = { .count = MB_HEADLINE_COUNTER, .counter = SMS_BYTES,
		      .clock = MB_HEADLINE_WALL_RATE },
	.validate = sms_validate,
	.setup = sms_setup,
	.producer = sms_producer,
	.consumer = sms_consumer,
	.default_consumers = sms_default_consumers,
	.finish = sms_finish,
	.teardown = sms_teardown,
};
