// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The sockmap bench's lines, the kernel bench's: each sample's Send, BPF and Rcv speeds in
 * MB/s (10^6 bytes) with the send and read calls per second, and its Summary of what the
 * programs carried: the total in MB and the mean BPF speed. In a mode that runs no program
 * both are 0, as in the kernel's. The notes say the mode and the bytes read back.
 */
#include <math.h>
#include <stdio.h>

#include "core/bench.h"
#include "core/summary.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"
#include "sms.h"

static double per_s(uint64_t count, uint64_t ns)
{
	return ns ? (double)count * 1e9 / (double)ns : 0;
}

static void sms_progress(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s)
{
	double send = mb_sample_rate(s, s->total.counter[SMS_BYTES]) / 1e6;
	double bpf = mb_sample_rate(s, s->total.counter[SMS_BPF_BYTES]) / 1e6;

	mb_text_iter_prefix(f, run, iter, s);
	fprintf(f, "Send Speed %8.3lf MB/s (%8.3lf calls/s), BPF Speed %8.3lf MB/s, Rcv Speed %8.3lf MB/s (%8.3lf calls/s)\n",
		send, mb_sample_rate(s, s->total.ops), bpf,
		per_s(s->cons_total.counter[SMS_BYTES], s->elapsed_ns) / 1e6,
		per_s(s->cons_total.ops, s->elapsed_ns));
}

static void sms_figures(const struct mb_run *run, const struct mb_summary *sum,
			struct mb_json *figs)
{
	(void)run;
	mb_figure_spread(mb_figure(figs, "total trans", "MB",
				   floor((double)sum->sum.counter[SMS_BPF_BYTES] / 1e6)),
			 false, NAN, sum->n);
	mb_figure_spread(mb_figure(figs, "BPF Speed", "MB/s",
				   sum->counter[SMS_BPF_BYTES].mean / 1e6),
			 false, NAN, sum->n);
}

static void sms_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *x = run->extra;

	if (mb_log_quiet() || !mb_json_get(x, "mode"))
		return;
	fprintf(f, "Mode: --%s, a %.0f-byte file sent again and again", mb_json_str(mb_json_get(x, "mode"), "?"),
		mb_json_num(mb_json_get(x, "file_size"), 0));
	if (mb_json_num(mb_json_get(x, "rx_strp"), 0))
		fprintf(f, ", stream parser messages of %.0f bytes",
			mb_json_num(mb_json_get(x, "rx_strp"), 0));
	fprintf(f, "\nBytes read back: %.0f sent, %.0f received, %.0f not in their place, %.0f seen by the programs, %.0f redirects refused\n",
		mb_json_num(mb_json_get(x, "sent"), 0), mb_json_num(mb_json_get(x, "received"), 0),
		mb_json_num(mb_json_get(x, "mismatched_bytes"), 0),
		mb_json_num(mb_json_get(x, "bpf_bytes"), 0),
		mb_json_num(mb_json_get(x, "redirects_refused"), 0));
}

static void sms_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	struct mb_json *figs = mb_json_array();

	sms_figures(run, sum, figs);
	sms_notes(f, run);
	mb_text_notes(f, run, sum);
	fprintf(f, "Summary: total trans %8.3lu MB \u00b1 %5.3lf MB/s\n",
		(unsigned long)mb_figure_get(figs, "total trans", "MB", "value"),
		mb_figure_get(figs, "BPF Speed", "MB/s", "value"));
	mb_json_free(figs);
}

const struct mb_text_style sms_text = {
	.progress = sms_progress,
	.summary = sms_summary,
	.figures = sms_figures,
};
