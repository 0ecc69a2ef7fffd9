// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The results history on a temporary SQLite file: add, dedupe, walk, filters, --since. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "store/store.h"
#include "store/store_record.h"
#include "util/json.h"

static char dir[] = "/tmp/mb-test-store-XXXXXX";
static char path[256];

static struct mb_json *parse(const char *text)
{
	char err[256];
	struct mb_json *v = mb_json_parse(text, strlen(text), err, sizeof(err));

	if (!v)
		fail_msg("%s: %s", err, text);
	return v;
}

static struct mb_json *context(const char *kernel, const char *host)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
		 "{\"version\": \"0.1.0\", \"git_revision\": \"abc\", \"hostname\": \"%s\", "
		 "\"kernel\": {\"release\": \"%s\"}, \"command_line\": [\"mapbench\", \"x\"], "
		 "\"cpu\": {\"vendor\": \"V\", \"family\": 25, \"model\": 1, \"microcode\": \"0xa\", "
		 "\"vulnerabilities\": {\"meltdown\": \"Not affected\", \"mds\": \"Vulnerable\"}}, "
		 "\"time\": \"2026-12-01T00:00:00Z\"}", host, kernel);
	return parse(buf);
}

/* A result of @bench whose latency samples are @a and @b (and a warm-up left out). */
static struct mb_json *result(const char *bench, const char *params, const char *start,
			      double a, double b, const char *status)
{
	char buf[2048];

	snprintf(buf, sizeof(buf),
		 "{\"bench\": \"%s\", \"family\": \"f\", \"status\": \"%s\", \"start_time\": \"%s\", "
		 "\"end_time\": \"%s\", \"config\": {\"producers\": 2}, \"params\": %s, "
		 "\"summary\": {\"noisy\": true, \"headline\": {\"figure\": \"latency_kernel\"}, "
		 "\"latency_kernel\": {\"unit\": \"ns/op\", \"mean\": %g, \"median\": %g, "
		 "\"stddev\": 0.5, \"cv\": 0.01}}, \"samples\": ["
		 "{\"warmup\": true, \"latency_kernel\": 99}, "
		 "{\"warmup\": false, \"latency_kernel\": %g}, {\"warmup\": false, \"latency_kernel\": %g}]}",
		 bench, status, start, start, params, (a + b) / 2, (a + b) / 2, a, b);
	return parse(buf);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/h.db", dir);
	return 0;
}

static int teardown(void **state)
{
	char name[300];
	const char *suffix[] = { "", "-wal", "-shm" };

	(void)state;
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "%s%s", path, suffix[i]);
		unlink(name);
	}
	rmdir(dir);
	return 0;
}

struct seen {
	int n;
	long long ids[8];
	char bench[8][32];
	double samples0[8];
	int nsamples[8];
};

static int collect(const struct mb_store_run *run, void *arg)
{
	struct seen *s = arg;

	if (s->n == 8)
		return 1;
	s->ids[s->n] = run->id;
	snprintf(s->bench[s->n], sizeof(s->bench[0]), "%s", run->bench);
	s->samples0[s->n] = run->nsamples ? run->samples[0] : NAN;
	s->nsamples[s->n] = run->nsamples;
	s->n++;
	return 0;
}

static void add_ok(struct mb_store *st, struct mb_json *ctx, struct mb_json *res, int want)
{
	char err[256] = "";

	assert_int_equal(mb_store_add(st, ctx, res, err, sizeof(err)), want);
	mb_json_free(res);
}

/* Added once, then 0 for the same result again; reopened, the runs come back oldest first. */
static void test_add_dedupe_each(void **state)
{
	struct mb_json *c1 = context("6.1.0", "h1"), *c2 = context("6.8.0", "h2");
	struct mb_store *st;
	struct seen s = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(mb_store_open(path, &st, err, sizeof(err)), 0);
	add_ok(st, c1, result("map-lookup", "{\"key_size\": 4}", "2026-12-02T10:00:00Z", 10, 12, "ok"), 1);
	add_ok(st, c1, result("map-lookup", "{\"key_size\": 4}", "2026-12-02T10:00:00Z", 10, 12, "ok"), 0);
	add_ok(st, c1, result("map-lookup", "{\"key_size\": 64}", "2026-12-01T10:00:00Z", 20, 22, "ok"), 1);
	add_ok(st, c2, result("bpf-noop", "{}", "2026-12-03T10:00:00Z", 1, 2, "ok"), 1);
	add_ok(st, c2, result("bpf-noop", "{}", "2026-12-04T10:00:00Z", 1, 2, "skipped"), -ENODATA);
	mb_store_close(st);

	assert_int_equal(mb_store_open_existing(path, &st, err, sizeof(err)), 0);
	assert_int_equal(mb_store_each(st, NULL, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.bench[0], "map-lookup");
	assert_float_equal(s.samples0[0], 20, 0);
	assert_float_equal(s.samples0[1], 10, 0);
	assert_int_equal(s.nsamples[1], 2);
	assert_string_equal(s.bench[2], "bpf-noop");
	mb_store_close(st);
	mb_json_free(c1);
	mb_json_free(c2);
}

static int check_fields(const struct mb_store_run *r, void *arg)
{
	(void)arg;
	assert_string_equal(r->params, "key_size=4,producers=2");
	assert_string_equal(r->kernel, "6.1.0");
	assert_string_equal(r->hostname, "h1");
	assert_string_equal(r->figure, "latency_kernel");
	assert_string_equal(r->unit, "ns/op");
	assert_false(r->higher_is_better);
	assert_true(r->noisy);
	assert_float_equal(r->mean, 11, 1e-12);
	assert_float_equal(r->cv, 0.01, 1e-12);
	assert_non_null(strstr(r->machine_class, "V 25/1 microcode 0xa"));
	assert_non_null(strstr(r->result_json, "\"map-lookup\""));
	return 0;
}

static int count_runs(struct mb_store *st, const struct mb_store_filter *f)
{
	struct seen s = { 0 };
	char err[256];

	assert_int_equal(mb_store_each(st, f, collect, &s, err, sizeof(err)), 0);
	return s.n;
}

/* Each filter narrows the walk; all of them together too. */
static void test_filters(void **state)
{
	const char *ks4[] = { "key_size=4" }, *ks40[] = { "key_size=40" },
		   *both[] = { "producers=2", "key_size=64" };
	struct mb_store_filter f = { .bench = "map-lookup", .params = ks4, .nparams = 1 };
	struct mb_store *st;
	char err[256];

	(void)state;
	assert_int_equal(mb_store_open_existing(path, &st, err, sizeof(err)), 0);
	assert_int_equal(mb_store_each(st, &f, check_fields, NULL, err, sizeof(err)), 0);
	assert_int_equal(count_runs(st, &f), 1);
	f.params = ks40;
	assert_int_equal(count_runs(st, &f), 0);
	f = (struct mb_store_filter){ .params = both, .nparams = 2 };
	assert_int_equal(count_runs(st, &f), 1);
	f = (struct mb_store_filter){ .bench = "map-lookup" };
	assert_int_equal(count_runs(st, &f), 2);
	f = (struct mb_store_filter){ .kernel = "6.8.0" };
	assert_int_equal(count_runs(st, &f), 1);
	f = (struct mb_store_filter){ .since = "2026-12-02" };
	assert_int_equal(count_runs(st, &f), 2);
	f = (struct mb_store_filter){ .since = "2026-12-02T10:00:01Z" };
	assert_int_equal(count_runs(st, &f), 1);
	f = (struct mb_store_filter){ .since = "yesterday" };
	assert_int_equal(mb_store_each(st, &f, collect, NULL, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "yesterday"));
	mb_store_close(st);
}

/* A walk stops at the callback's first nonzero return and returns it. */
static int stop_at_once(const struct mb_store_run *r, void *arg)
{
	(void)r;
	(*(int *)arg)++;
	return 7;
}

static void test_each_stops(void **state)
{
	struct mb_store *st;
	char err[256];
	int calls = 0;

	(void)state;
	assert_int_equal(mb_store_open_existing(path, &st, err, sizeof(err)), 0);
	assert_int_equal(mb_store_each(st, NULL, stop_at_once, &calls, err, sizeof(err)), 7);
	assert_int_equal(calls, 1);
	mb_store_close(st);
}

static void test_since_parse(void **state)
{
	char out[32];

	(void)state;
	assert_int_equal(mb_store_since_parse("2026-12-01", out, sizeof(out)), 0);
	assert_string_equal(out, "2026-12-01T00:00:00Z");
	assert_int_equal(mb_store_since_parse("2026-12-01T08:30", out, sizeof(out)), 0);
	assert_string_equal(out, "2026-12-01T08:30:00Z");
	assert_int_equal(mb_store_since_parse("2026-12-01T08:30:05Z", out, sizeof(out)), 0);
	assert_string_equal(out, "2026-12-01T08:30:05Z");
	assert_int_equal(mb_store_since_parse("2026-02-30", out, sizeof(out)), -EINVAL);
	assert_int_equal(mb_store_since_parse("2026-13-01", out, sizeof(out)), -EINVAL);
	assert_int_equal(mb_store_since_parse("2026-12-01x", out, sizeof(out)), -EINVAL);
	assert_int_equal(mb_store_since_parse("12/01/2026", out, sizeof(out)), -EINVAL);
	assert_int_equal(mb_store_since_parse("", out, sizeof(out)), -EINVAL);
}

/* Bad places to keep a history: refused with one line, nothing made. */
static void test_open_refused(void **state)
{
	struct mb_store *st = (void *)1;
	char err[256], name[300];
	FILE *f;

	(void)state;
	assert_int_not_equal(mb_store_open("/nonexistent-dir/h.db", &st, err, sizeof(err)), 0);
	assert_null(st);
	snprintf(name, sizeof(name), "%s/missing.db", dir);
	assert_int_equal(mb_store_open_existing(name, &st, err, sizeof(err)), -ENOENT);
	assert_int_not_equal(access(name, F_OK), 0);
	snprintf(name, sizeof(name), "%s/text.db", dir);
	f = fopen(name, "w");
	assert_non_null(f);
	fputs("not a database, but long enough to have a header of one......................\n"
	      "................................................................................\n", f);
	fclose(f);
	assert_int_not_equal(mb_store_open(name, &st, err, sizeof(err)), 0);
	unlink(name);
	assert_true(mb_store_is_postgres("postgresql://u@h/db"));
	assert_true(mb_store_is_postgres("host=/tmp dbname=x"));
	assert_false(mb_store_is_postgres("results.db"));
	assert_false(mb_store_is_postgres("a=b.db"));
}

/* The canonical parameters: sorted by name, producers among them. */
static void test_canonical_params(void **state)
{
	struct mb_json *r = parse("{\"params\": {\"z\": 1, \"a\": \"x\", \"m\": true}, "
				  "\"config\": {\"producers\": 4}}");
	char *p = mb_store_canonical_params(r);

	(void)state;
	assert_string_equal(p, "a=x,m=true,producers=4,z=1");
	free(p);
	mb_json_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_dedupe_each),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_each_stops),
		cmocka_unit_test(test_since_parse),
		cmocka_unit_test(test_open_refused),
		cmocka_unit_test(test_canonical_params),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
