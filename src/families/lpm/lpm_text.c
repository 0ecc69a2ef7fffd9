// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The LPM trie benches' text lines: the kernel's reporters, with the trie's "Memory:" line
 * before each Summary, and lpm-trie-free's own reporter (K ops/s, ms/op). They read what the
 * benches stored in run->extra; the benches themselves print nothing.
 */
#include <math.h>
#include <stdio.h>

#include "core/runner.h"
#include "core/summary.h"
#include "lpm_trie.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"

/* The "Memory:" line before a Summary (unless -q), from extra.memory.trie. */
static void lpm_text_memory(FILE *f, const struct mb_run *run)
{
	const struct mb_json *mem = mb_json_get(mb_json_get(run->extra, "memory"), "trie");
	double bytes, entries, charged;

	if (mb_log_quiet() || !mem)
		return;
	bytes = mb_json_num(mb_json_get(mem, "memlock_bytes"), NAN);
	entries = mb_json_num(mb_json_get(mem, "entries"), 0);
	charged = mb_json_num(mb_json_get(mem, "charged_bytes"), NAN);
	fprintf(f, "Memory: trie of %.0f entries: ", entries);
	if (isnan(bytes) || entries <= 0)
		fprintf(f, "memlock not known (no memlock line in fdinfo)");
	else
		fprintf(f, "memlock %.1f KiB, %.1f B/entry (the kernel's estimate: entry nodes only)",
			bytes / 1024, bytes / entries);
	if (!isnan(charged) && entries > 0)
		fprintf(f, "; charged %.1f KiB, %.1f B/entry (%s, cgroup %s)\n", charged / 1024,
			charged / entries,
			mb_json_str(mb_json_get(mem, "charged_counter"), "?"),
			mb_json_str(mb_json_get(mem, "cgroup"), "?"));
	else
		fprintf(f, "; charged memory not measured: %s\n",
			mb_json_str(mb_json_get(mem, "charged_reason"), "unknown"));
}

/* The kernel's reporters with the Memory line before their Summary. */
MB_TEXT_WITH_NOTES(lpm_text_ops, mb_text_ops, lpm_text_memory);
MB_TEXT_WITH_NOTES(lpm_text_frac_second, mb_text_frac_second, lpm_text_memory);

/* Text: the kernel's fractional-second reporter for free, in K ops/s and ms/op. */

static void free_progress(FILE *f, const struct mb_run *run, int iter, const struct mb_sample *s)
{
	mb_text_frac_progress(f, run, iter, s, 1e3, 'K');
}

static void free_notes(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	const struct mb_json *o = mb_json_get(run->extra, "free");
	char cv[32];

	if (mb_log_quiet())
		return;
	lpm_text_memory(f, run);
	fprintf(f, "Method: %s\n", mb_json_str(mb_json_get(o, "measures"), "unknown"));
	if (run->status == MB_RUN_INTERRUPTED)
		fprintf(f, "Interrupted: %d of %u samples measured\n", sum->n, run->env->duration);
	if (sum->has_kernel)
		fprintf(f, "Free: in-kernel %.3f ms per trie (median %.3f, %s), %llu tries freed; wall-clock %.1f tries/s with create and fill\n",
			sum->latency_kernel.mean / 1e6, sum->latency_kernel.median / 1e6,
			mb_text_cv(cv, sizeof(cv), sum->latency_kernel.cv),
			(unsigned long long)sum->sum.ops,
			sum->throughput.mean);
	mb_text_noise(f, run, sum);
}

/* Frees per second of in-kernel free time; the time per free (shown in ms). */
static void free_figures(const struct mb_run *run, const struct mb_summary *sum,
			 struct mb_json *figs)
{
	double rate = sum->has_kernel ? sum->kernel_throughput.mean : 0;

	mb_figure_spread(mb_figure(figs, "throughput", "ops/s", rate), true,
			 sum->has_kernel ? sum->kernel_throughput.stddev : 0, sum->n);
	mb_figure_spread(mb_figure(figs, "throughput", "ops/s per producer",
				   rate / run->nr_producers), false, NAN, sum->n);
	mb_figure_spread(mb_figure(figs, "latency", "ns/op",
				   sum->has_kernel ? sum->latency_kernel.mean : 0.0), false, NAN,
			 sum->n);
}

static void free_summary(FILE *f, const struct mb_run *run, const struct mb_summary *sum)
{
	struct mb_json *figs = mb_json_array();

	free_figures(run, sum, figs);
	free_notes(f, run, sum);
	mb_text_throughput_line(f, figs, 1e3, 'K', 1e6, "ms");
	mb_json_free(figs);
}

const struct mb_text_style lpm_text_free = {
	.progress = free_progress,
	.summary = free_summary,
	.figures = free_figures,
};
