// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Summary statistics, noise flags and the document writers, on a synthetic run. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/json.h"
#include "util/log.h"
#include "util/outfile.h"
#include "families/registry.h"
#include "output/report.h"
#include "core/runner.h"
#include "core/summary.h"

#define NS 6	/* 1 warm-up + 5 measured */

static struct mb_env env;

static void make_run(struct mb_run *run, int nr_producers)
{
	char msg[128];

	memset(&env, 0, sizeof(env));
	mb_opts_set_defaults(mb_global_opts, &env, msg, sizeof(msg));
	env.warmup = 1;
	env.duration = NS - 1;
	env.producers = (uint32_t)nr_producers;
	mb_cpuset_online(&env.online);
	assert_int_equal(mb_run_init(run, mb_bench_find("bpf-noop"), &env), 0);
	assert_int_equal(mb_run_validate(run), 0);
	run->max_samples = NS;
	run->samples = calloc(NS, sizeof(*run->samples));
	for (int i = 0; i < NS; i++) {
		struct mb_sample *s = &run->samples[i];

		s->prod = calloc((size_t)nr_producers, sizeof(struct mb_counters));
		s->elapsed_ns = 1000000000;
		s->warmup = i == 0;
		for (int p = 0; p < nr_producers; p++) {
			s->prod[p].ops = 100000000 + (uint64_t)i * 1000;
			s->prod[p].kernel_ns = 990000000;
			s->prod[p].hits = s->prod[p].ops;
			s->prod[p].ref_ops = 10000;
			s->prod[p].ref_ns = 15000;
			s->total.ops += s->prod[p].ops;
			s->total.hits += s->prod[p].hits;
			s->total.kernel_ns += s->prod[p].kernel_ns;
			s->total.ref_ops += s->prod[p].ref_ops;
			s->total.ref_ns += s->prod[p].ref_ns;
		}
		s->ref_calls = 16;
		s->ref_median = 1.5;
		for (int m = 0; m < MB_MAX_METRICS; m++)
			s->metric[m] = NAN;
	}
	run->nr_samples = NS;
	run->loop_overhead_ns = 1.5;
}

static void test_summary(void **state)
{
	struct mb_run run;
	struct mb_summary *sum;

	(void)state;
	make_run(&run, 2);
	sum = mb_summarize(&run);
	assert_non_null(sum);
	assert_int_equal(sum->n, NS - 1);
	/* Two producers, 1e8 ops each per second (+ i * 1000), warm-up excluded. */
	assert_float_equal(sum->throughput.mean, 2 * (1e8 + 3000), 1e-3);
	assert_float_equal(sum->prod_throughput.mean, 1e8 + 3000, 1e-3);
	assert_float_equal(sum->latency_kernel.mean, 9.9, 0.001);
	assert_float_equal(sum->latency_ref.mean, 1.5, 1e-9);
	assert_float_equal(sum->prod_tput[1].mean, 1e8 + 3000, 1e-3);
	assert_true(sum->has_kernel && sum->has_ref);
	assert_int_equal(sum->noise.nr_flagged, 0);
	assert_int_equal(sum->noise.noisy, 0);
	assert_true(sum->sum.ops == 2 * (5 * 100000000ULL + 15000));
	free(sum);
	mb_run_free(&run);
}

static void test_noise_flags(void **state)
{
	struct mb_run run;
	struct mb_summary *sum;

	(void)state;
	make_run(&run, 1);
	/* Sample 2 lost its CPU: wall time far above in-kernel time, its ns/op in line. */
	run.samples[2].elapsed_ns = 1300000000;
	/* Sample 3: the reference loop got 20 % slower (a noisy neighbour), the op did not. */
	run.samples[3].total.ref_ns = 18000;
	run.samples[3].ref_median = 1.8;
	/* Sample 4: in-kernel latency jumps 40 %. */
	run.samples[4].total.kernel_ns = 1400000000;
	sum = mb_summarize(&run);
	/* Only the sample whose own figure moved is flagged; the others are evidence. */
	assert_false(run.samples[2].flags);
	assert_false(run.samples[3].flags);
	assert_int_equal(run.samples[4].flags, MB_SAMPLE_OUTLIER);
	assert_int_equal(run.samples[4].cause, MB_CAUSE_UNEXPLAINED);
	assert_false(run.samples[1].flags);
	assert_false(run.samples[5].flags);
	assert_int_equal(sum->noise.nr_flagged, 1);
	assert_int_equal(sum->noise.nr_lost_cpu, 1);
	assert_int_equal(sum->noise.nr_ref_moved, 1);
	/* Without sample 4 the mean moves 7 % (40 % of one in five): that matters. */
	assert_true(sum->noise.noisy & MB_NOISY_BY_SHIFT);
	free(sum);
	mb_run_free(&run);
}

static void test_zero_ops(void **state)
{
	struct mb_run run;
	struct mb_summary *sum;

	(void)state;
	make_run(&run, 1);
	for (int i = 0; i < NS; i++) {
		memset(&run.samples[i].total, 0, sizeof(run.samples[i].total));
		memset(run.samples[i].prod, 0, sizeof(struct mb_counters));
	}
	sum = mb_summarize(&run);
	assert_non_null(sum);
	/* No division by zero: latencies are simply absent. */
	assert_int_equal(sum->latency_kernel.n, 0);
	assert_float_equal(sum->throughput.mean, 0, 0);
	free(sum);
	mb_run_free(&run);
}

static void test_document(void **state)
{
	struct mb_run run;
	struct mb_json *doc, *res, *back;
	char *buf = NULL, err[128];
	size_t len = 0;
	FILE *f;

	(void)state;
	make_run(&run, 1);
	run.summary = mb_summarize(&run);
	doc = mb_report_document(&env, &run, 1);
	assert_float_equal(mb_json_num(mb_json_get(doc, "schema_version"), 0), MB_SCHEMA_VERSION, 0);
	res = mb_json_at(mb_json_get(doc, "results"), 0);
	assert_string_equal(mb_json_str(mb_json_get(res, "bench"), ""), "bpf-noop");
	assert_int_equal(mb_json_len(mb_json_get(res, "samples")), NS);
	assert_float_equal(mb_json_num(mb_json_get(mb_json_get(mb_json_get(res, "summary"),
							       "latency_kernel_net"), "mean"), 0),
			   9.9 - 1.5, 0.001);
	/* Written JSON parses back. */
	f = open_memstream(&buf, &len);
	mb_json_write(f, doc, 2);
	fclose(f);
	back = mb_json_parse(buf, len, err, sizeof(err));
	assert_non_null(back);
	mb_json_free(back);
	free(buf);
	/* CSV: a header, one row per sample, one per summary metric, all with the same columns. */
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(mb_report_csv(f, doc), 0);
	fclose(f);
	{
		int lines = 0, samples = 0, cols = -1;

		for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
			int c = 1;

			for (char *p = line; *p; p++)
				c += *p == ',';
			if (cols < 0)
				cols = c;
			assert_int_equal(c, cols);
			samples += strstr(line, ",sample,") != NULL;
			lines++;
		}
		assert_int_equal(samples, NS);
		assert_true(lines > NS + 5);
	}
	free(buf);
	mb_json_free(doc);
	mb_run_free(&run);
}

static const struct mb_counter_desc quarter_counters[] = {
	{ "quarter", "ops", "a quarter of the ops" },
	{ NULL, NULL, NULL },
};

/*
 * What a bench declares drives core and output: its counter summed, rated and written under
 * its name in JSON and CSV, its headline counting it over the wall clock, the lost-CPU clock.
 */
static void test_declared(void **state)
{
	struct mb_bench bench;
	struct mb_run run;
	struct mb_json *doc, *sum;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	make_run(&run, 1);
	bench = *run.bench;
	bench.counters = quarter_counters;
	bench.headline = (struct mb_headline){ .count = MB_HEADLINE_COUNTER, .counter = 0,
					       .clock = MB_HEADLINE_WALL_RATE };
	bench.lost_cpu = MB_LOST_CPU_KERNEL;
	run.bench = &bench;
	for (int i = 0; i < NS; i++) {
		run.samples[i].prod[0].counter[0] = run.samples[i].prod[0].ops / 4;
		run.samples[i].prod[0].cpu_ns = 1000000000;
		run.samples[i].total.counter[0] = run.samples[i].prod[0].counter[0];
		run.samples[i].total.cpu_ns = 1000000000;
	}
	run.summary = mb_summarize(&run);
	assert_float_equal(run.summary->throughput.mean, (1e8 + 3000) / 4, 1e-3);
	assert_float_equal(run.summary->counter[0].mean, (1e8 + 3000) / 4, 1e-3);
	assert_true(run.summary->sum.counter[0] == (5 * 100000000ULL + 15000) / 4);
	assert_false(run.summary->judged_latency);
	assert_int_equal(run.summary->preempt_basis, MB_PREEMPT_KERNEL);
	doc = mb_report_document(&env, &run, 1);
	sum = mb_json_get(mb_json_at(mb_json_get(doc, "results"), 0), "summary");
	assert_string_equal(mb_json_str(mb_json_get(mb_json_get(sum, "headline"), "counts"), ""),
			    "quarter");
	assert_string_equal(mb_json_str(mb_json_get(mb_json_get(sum, "noise"), "figure"), ""),
			    "throughput");
	assert_float_equal(mb_json_num(mb_json_get(mb_json_get(mb_json_get(sum, "counters"),
							       "quarter"), "mean"), 0),
			   (1e8 + 3000) / 4, 1e-3);
	assert_float_equal(mb_json_num(mb_json_get(mb_json_get(mb_json_get(sum, "totals"),
							       "counters"), "quarter"), 0),
			   (5 * 100000000.0 + 15000) / 4, 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(mb_report_csv(f, doc), 0);
	fclose(f);
	assert_non_null(strstr(buf, ",errors,counters,kernel_ns,"));
	assert_non_null(strstr(buf, ",sample,1,false,1000000000,100001000,100001000,0,0,quarter=25000250,"));
	assert_non_null(strstr(buf, ",summary,,,,,,,,,,,,,,counters.quarter,ops/s,"));
	free(buf);
	mb_json_free(doc);
	mb_run_free(&run);
}

/* One measured sample: its spread is unknown in JSON (null), text and CSV (n/a), never 0. */
static void test_one_sample(void **state)
{
	struct mb_run run;
	struct mb_json *doc, *tput;
	char *buf = NULL, num[32];
	size_t len = 0;
	FILE *f;

	(void)state;
	make_run(&run, 1);
	run.nr_samples = 2;	/* the warm-up and one measured sample */
	run.summary = mb_summarize(&run);
	assert_non_null(run.summary);
	assert_int_equal(run.summary->n, 1);
	doc = mb_report_document(&env, &run, 1);
	tput = mb_json_get(mb_json_get(mb_json_at(mb_json_get(doc, "results"), 0), "summary"),
			   "throughput");
	assert_true(mb_json_is(mb_json_get(tput, "stddev"), MB_JSON_NULL));
	assert_true(mb_json_is(mb_json_get(tput, "cv"), MB_JSON_NULL));
	assert_float_equal(mb_json_num(mb_json_get(tput, "n"), 0), 1, 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(mb_report_csv(f, doc), 0);
	fclose(f);
	/* mean, stddev, median, min, max, cv, n */
	assert_non_null(strstr(buf, ",throughput,ops/s,"));
	assert_non_null(strstr(strstr(buf, ",throughput,ops/s,"), ",n/a,"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	mb_log_init(false, false, f);	/* the notes too, not only the Summary line */
	run.bench->text->summary(f, &run, run.summary);
	mb_log_init(true, false, stdout);
	fclose(f);
	assert_non_null(strstr(buf, "\u00B1   n/a M ops/s"));
	assert_non_null(strstr(buf, "one sample cannot show noise"));
	assert_null(strstr(buf, "0.000 M ops/s ("));
	free(buf);
	assert_string_equal(mb_text_num(num, sizeof(num), 5, 3, NAN), "  n/a");
	assert_string_equal(mb_text_num(num, sizeof(num), 5, 3, 1.5), "1.500");
	assert_string_equal(mb_text_cv(num, sizeof(num), NAN), "CV n/a");
	assert_string_equal(mb_text_cv(num, sizeof(num), 0.0123), "CV 1.23 %");
	mb_json_free(doc);
	mb_run_free(&run);
}

/* A figure of @figs by name and unit (NULL: none). */
static const struct mb_json *find_figure(const struct mb_json *figs, const char *name,
					 const char *unit)
{
	for (size_t i = 0; i < mb_json_len(figs); i++) {
		const struct mb_json *f = mb_json_at(figs, i);

		if (!strcmp(mb_json_str(mb_json_get(f, "name"), ""), name) &&
		    !strcmp(mb_json_str(mb_json_get(f, "unit"), ""), unit))
			return f;
	}
	return NULL;
}

/*
 * The figures: what the Summary line prints, by its names, with a spread only where it shows
 * one; in CSV one figure row each, the spread "n/a" where null, the labels in the last column.
 */
static void test_figures(void **state)
{
	const struct mb_json *tput, *prod;
	struct mb_json *doc, *figs, *fig;
	char *buf = NULL, num[32];
	struct mb_run run;
	size_t len = 0;
	FILE *f;

	(void)state;
	make_run(&run, 2);
	run.nr_samples = NS;
	run.summary = mb_summarize(&run);
	doc = mb_report_document(&env, &run, 1);
	figs = mb_json_get(mb_json_at(mb_json_get(doc, "results"), 0), "figures");
	assert_int_equal(mb_json_len(figs), 3);
	tput = find_figure(figs, "throughput", "ops/s");
	prod = find_figure(figs, "throughput", "ops/s per producer");
	assert_non_null(tput);
	assert_non_null(prod);
	assert_non_null(find_figure(figs, "latency", "ns/op"));
	assert_float_equal(mb_json_num(mb_json_get(tput, "value"), 0), run.summary->throughput.mean,
			   0);
	assert_float_equal(mb_json_num(mb_json_get(tput, "stddev"), -1),
			   run.summary->throughput.stddev, 0);
	assert_float_equal(mb_json_num(mb_json_get(prod, "value"), 0),
			   run.summary->throughput.mean / 2, 1e-6);
	assert_null(mb_json_get(prod, "stddev"));
	assert_float_equal(mb_json_num(mb_json_get(tput, "n"), 0), NS - 1, 0);
	/* A one-shot bench's labelled figure, and a spread the text shows as "± n/a". */
	fig = mb_figure(figs, "filled", "bytes", 86016);
	mb_figure_label_str(fig, "map_type", "hash");
	mb_figure_label_num(fig, "max_entries", 1000);
	mb_figure_spread(mb_figure(figs, "hits", "ops/s", 5), true, NAN, 1);
	f = open_memstream(&buf, &len);
	assert_int_equal(mb_report_csv(f, doc), 0);
	fclose(f);
	assert_non_null(strstr(buf, ",n,labels\n"));
	assert_non_null(strstr(buf, ",figure,,,,,,,,,,,,,,throughput,ops/s per producer,"));
	assert_non_null(strstr(buf, ",filled,bytes,86016,,,,,,,map_type=hash;max_entries=1000\n"));
	assert_non_null(strstr(buf, ",hits,ops/s,5,n/a,,,,,1,\n"));
	free(buf);
	assert_string_equal(mb_text_spread(num, sizeof(num), 5, 3, NAN), "  n/a ");
	assert_string_equal(mb_text_spread(num, sizeof(num), 5, 3, 1.5), "1.500");
	mb_json_free(doc);
	mb_run_free(&run);
}

static int write_hello(FILE *f, void *ctx)
{
	fputs(ctx, f);
	return 0;
}

static int write_fail(FILE *f, void *ctx)
{
	(void)ctx;
	fputs("partial", f);
	return -EIO;
}

static void test_atomic_write(void **state)
{
	char dir[] = "/tmp/mb-out-XXXXXX", path[256], buf[64] = "", err[256];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(mb_write_atomic(path, write_hello, "hello", err, sizeof(err)), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "hello");
	/* A failed write leaves the old file untouched and no temporary file. */
	assert_int_equal(mb_write_atomic(path, write_fail, NULL, err, sizeof(err)), -EIO);
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "hello");
	unlink(path);
	assert_int_equal(rmdir(dir), 0);	/* empty: nothing left behind */
	assert_int_equal(mb_write_atomic("/nonexistent/dir/x.json", write_hello, "x", err,
					 sizeof(err)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_one_sample),
		cmocka_unit_test(test_noise_flags),
		cmocka_unit_test(test_zero_ops),
		cmocka_unit_test(test_document),
		cmocka_unit_test(test_declared),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_atomic_write),
	};

	mb_log_init(true, false, stdout);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
