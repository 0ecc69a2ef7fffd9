// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Measures one JSON implementation against what mapbench needs (docs/architecture.md, "JSON:
 * json.c or a library"). Not part of `make`; scripts/json-eval/run.sh builds and runs all three.
 * Build one by hand (from the repository root, bash), e.g. jansson:
 *   gcc -O2 -static -D_GNU_SOURCE -Isrc/util scripts/json-eval/{eval,be_jansson}.c -ljansson -lm -o je
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"

#define ERRLEN 256

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *parse_str(const char *s, bool strict, char *err)
{
	return be_parse(s, strlen(s), strict, err, ERRLEN);
}

/* Build [v], write it, read it back: the text written and whether the value came back. */
static void test_u64(void)
{
	static const uint64_t vals[] = { 9007199254740993ull, 9223372036854775807ull,
					 18446744073709551615ull };
	char err[ERRLEN];

	for (size_t i = 0; i < sizeof(vals) / sizeof(*vals); i++) {
		void *a = be_arr_u64(vals[i]), *b;
		char *text = a ? be_dump(a, 0) : NULL;
		uint64_t got = 0;

		b = text ? parse_str(text, false, err) : NULL;
		printf("u64 %llu: wrote %s, read back %s\n", (unsigned long long)vals[i],
		       text ? text : "(refused)",
		       !b ? err : be_first_u64(b, &got) ? "not a uint64" :
		       got == vals[i] ? "exact" : "CHANGED");
		if (b && got != vals[i])
			printf("    read %llu\n", (unsigned long long)got);
		free(text);
		be_free(a);
		be_free(b);
	}
}

/* Numbers as users' files or other tools may hold them: what is read, what is written back. */
static void test_number_texts(void)
{
	static const char *const texts[] = {
		"[18446744073709551615]", "[18446744073709551616]", "[-9223372036854775809]",
		"[1.0]", "[0.1]", "[1e2]", "[100000000000000000000]", "[1e400]",
	};
	char err[ERRLEN];

	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
		void *d = parse_str(texts[i], false, err);
		char *out = d ? be_dump(d, 0) : NULL;

		printf("read %-25s -> %s\n", texts[i], d ? out : err);
		free(out);
		be_free(d);
	}
}

static void test_double(void)
{
	static const double vals[] = { 0.1, 1e-300, 5e-324, 1.7976931348623157e308,
				       2.2250738585072014e-308, 0.30000000000000004,
				       1.2345678901234567, 28026885.99591146,
				       35.11436461908707, 1e23, -0.0, 123456789.0 };
	size_t exact = 0, n = sizeof(vals) / sizeof(*vals);
	char err[ERRLEN];

	for (size_t i = 0; i < n; i++) {
		void *a = be_arr_double(vals[i]), *b = NULL;
		char *text = a ? be_dump(a, 0) : NULL;
		double got = NAN;
		bool ok;

		if (text)
			b = parse_str(text, false, err);
		ok = b && !be_first_double(b, &got) && !memcmp(&got, &vals[i], sizeof(got));
		exact += ok;
		printf("double %.17g: wrote %s, %s\n", vals[i], text ? text : "(refused)",
		       ok ? "exact" : "CHANGED");
		free(text);
		be_free(a);
		be_free(b);
	}
	printf("double round trips exact: %zu of %zu\n", exact, n);
}

static void test_nonfinite(void)
{
	static const double vals[] = { NAN, INFINITY, -INFINITY };
	char err[ERRLEN];

	for (size_t i = 0; i < 3; i++) {
		void *a = be_arr_double(vals[i]), *b = NULL;
		char *text = a ? be_dump(a, 0) : NULL;

		if (text)
			b = parse_str(text, true, err);
		printf("non-finite %g: %s%s%s\n", vals[i],
		       a ? "wrote " : "refused at build (NULL)", text ? text : "",
		       !text ? "" : b ? ", strict reader accepts it" :
					", strict reader rejects it");
		free(text);
		be_free(a);
		be_free(b);
	}
}

/* 500 keys in a scrambled order: kept as built, and as read? */
static void test_order(void)
{
	enum { N = 500 };
	static char names[N][16];
	const char *keys[N];
	char err[ERRLEN], *text;
	void *o, *back;
	size_t built = 0, read = 0;

	for (size_t i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "k%zu", (i * 7919) % N);
		keys[i] = names[i];
	}
	o = be_obj_keys(keys, N);
	text = be_dump(o, 0);
	back = parse_str(text, false, err);
	for (size_t i = 0; i < N; i++) {
		const char *k = be_obj_key_at(o, i), *kb = back ? be_obj_key_at(back, i) : NULL;

		built += k && !strcmp(k, keys[i]);
		read += kb && !strcmp(kb, keys[i]);
	}
	printf("key order: built %zu of %d in order, read back %zu of %d in order\n", built, N,
	       read, N);
	free(text);
	be_free(o);
	be_free(back);
}

static void test_dups(void)
{
	static const char text[] = "{\"a\": 1, \"a\": 2}";
	char err[ERRLEN];

	for (int strict = 0; strict < 2; strict++) {
		void *d = parse_str(text, strict, err);

		if (d)
			printf("duplicate key (%s): accepted, %zu member(s), a = %g\n",
			       strict ? "strict" : "default", be_obj_len(d), be_obj_num(d, "a"));
		else
			printf("duplicate key (%s): error: %s\n",
			       strict ? "strict" : "default", err);
		be_free(d);
	}
}

/* Parse @depth nested arrays in a child: 0 accepted, 1 rejected, 2 + signal crashed. */
static int nest(int depth, char *err)
{
	char *s = malloc(2 * (size_t)depth + 1);
	int fds[2], status;
	pid_t pid;
	ssize_t n;

	memset(s, '[', (size_t)depth);
	memset(s + depth, ']', (size_t)depth);
	s[2 * depth] = '\0';
	if (pipe(fds))
		exit(1);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		void *d = be_parse(s, 2 * (size_t)depth, false, err, ERRLEN);

		if (!d && write(fds[1], err, strlen(err) + 1) < 0)
			_exit(3);
		_exit(d ? 0 : 1);
	}
	close(fds[1]);
	n = read(fds[0], err, ERRLEN - 1);
	err[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	free(s);
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status)) {
		snprintf(err, ERRLEN, "crashed: %s", strsignal(WTERMSIG(status)));
		return 2;
	}
	return WEXITSTATUS(status);
}

static void test_depth(void)
{
	int lo = 1, hi = 100000, r;
	char err[ERRLEN];

	r = nest(hi, err);
	printf("depth 100000: %s\n", r == 0 ? "accepted" : err);
	if (r == 0)
		return;
	/* The largest depth accepted: limits are monotonic. */
	while (lo < hi) {
		int mid = lo + (hi - lo + 1) / 2;

		if (nest(mid, err) == 0)
			lo = mid;
		else
			hi = mid - 1;
	}
	printf("depth limit: %d nested arrays accepted, %d not (%s)\n", lo, lo + 1,
	       (nest(lo + 1, err), err));
}

static void test_utf8(void)
{
	static const struct {
		const char *what, *text;
	} cases[] = {
		{ "byte 0xff", "[\"a\xff\"]" },
		{ "overlong 0xc0 0xaf", "[\"\xc0\xaf\"]" },
		{ "encoded surrogate", "[\"\xed\xa0\x80\"]" },
		{ "truncated sequence", "[\"\xe2\x82\"]" },
		{ "escaped NUL", "[\"a\\u0000b\"]" },
		{ "valid U+00B1", "[\"\xc2\xb1\"]" },
	};
	char err[ERRLEN];

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		for (int strict = 0; strict < 2; strict++) {
			void *d = parse_str(cases[i].text, strict, err);

			printf("utf-8 %s (%s): %s%s\n", cases[i].what,
			       strict ? "strict" : "default", d ? "accepted" : "error: ",
			       d ? "" : err);
			be_free(d);
		}
	}
}

static void test_errors(void)
{
	static const char *const texts[] = {
		"{\n  \"a\": 1,\n  \"b\": tru\n}\n",
		"{\n  \"a\": [1, 2,, 3]\n}\n",
		"{\n  \"a\": 1\n",
		"{\"a\": 1} x",
	};
	char err[ERRLEN];

	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
		void *d = parse_str(texts[i], false, err);

		printf("bad input %zu: %s\n", i + 1, d ? "ACCEPTED" : err);
		be_free(d);
	}
}

/* How a small document looks written pretty: compare with what mapbench writes today. */
static void test_shape(void)
{
	static const char text[] =
		"{\"a\": [1, 2.5, \"x/y\", null], \"b\": {}, \"c\": [], \"d\": {\"e\": true}}";
	char err[ERRLEN], *out;
	void *d = parse_str(text, false, err);

	out = d ? be_dump(d, 2) : NULL;
	printf("pretty writer:\n%s\n", out ? out : err);
	free(out);
	be_free(d);
}

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void gen_counters(FILE *f, uint64_t *rng, const char *pad)
{
	static const char *const names[] = { "ops", "hits", "misses", "errors", "kernel_ns",
					     "excluded_ns", "calls", "ref_ops", "ref_ns",
					     "cpu_ns", "wait_ns", "covered_ns" };

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		fprintf(f, "%s\"%s\": %llu,\n", pad, names[i],
			(unsigned long long)(rng_next(rng) % 10000000000ull));
}

/* One sample shaped like mapbench's (docs/output.md), with two producers: about 1.2 KB. */
static void gen_sample(FILE *f, uint64_t *rng, int iter)
{
	fprintf(f, "        {\n          \"iter\": %d,\n          \"warmup\": false,\n", iter);
	gen_counters(f, rng, "          ");
	fprintf(f, "          \"throughput\": %.17g,\n", (double)(rng_next(rng) >> 11) / 1e8);
	fprintf(f, "          \"latency_kernel\": %.17g,\n", (double)(rng_next(rng) >> 11) / 1e14);
	fprintf(f, "          \"flags\": [],\n          \"reference_ns\": null,\n");
	fprintf(f, "          \"producers\": [\n");
	for (int p = 0; p < 2; p++) {
		fprintf(f, "            {\n");
		gen_counters(f, rng, "              ");
		fprintf(f, "              \"cpu\": %d\n            }%s\n", p, p ? "" : ",");
	}
	fprintf(f, "          ]\n        }");
}

/* A long sweep's document: results of 1000 samples each until @bytes. */
static char *gen_doc(size_t bytes, size_t *len)
{
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	fprintf(f, "{\n  \"schema_version\": 1,\n  \"context\": {\n    \"tool\": \"mapbench\"\n");
	fprintf(f, "  },\n  \"results\": [");
	for (int r = 0; ftell(f) < (long)bytes; r++) {
		fprintf(f, "%s\n    {\n      \"bench\": \"map-perf\",\n", r ? "," : "");
		fprintf(f, "      \"params\": {\n        \"seed\": %d,\n", r);
		fprintf(f, "        \"nr_entries\": 10000\n      },\n      \"samples\": [\n");
		for (int i = 0; i < 1000; i++) {
			gen_sample(f, &rng, i);
			fputs(i < 999 ? ",\n" : "\n", f);
		}
		fprintf(f, "      ],\n      \"summary\": {\n        \"throughput\": %.17g\n",
			(double)(rng_next(&rng) >> 11) / 1e8);
		fprintf(f, "      }\n    }");
	}
	fprintf(f, "\n  ]\n}\n");
	fclose(f);
	return buf;
}

static long rss_kib(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "re");

	if (f && fscanf(f, "%ld %ld", &pages, &rss) != 2)
		rss = 0;
	if (f)
		fclose(f);
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

static void test_speed(size_t mib)
{
	double best_p = 1e9, best_w = 1e9, t;
	FILE *null = fopen("/dev/null", "we");
	char err[ERRLEN], *c1, *c2;
	size_t len;
	char *text = gen_doc(mib << 20, &len);
	long rss0 = rss_kib(), rss1 = 0;
	void *d = NULL, *d2;
	struct rusage ru;

	for (int i = 0; i < 3; i++) {
		be_free(d);
		t = now_s();
		d = be_parse(text, len, false, err, ERRLEN);
		t = now_s() - t;
		if (!d) {
			printf("big document: parse failed: %s\n", err);
			return;
		}
		best_p = t < best_p ? t : best_p;
		rss1 = rss_kib();
	}
	for (int i = 0; i < 3; i++) {
		t = now_s();
		if (be_write(d, null) || fflush(null))
			printf("big document: write failed\n");
		t = now_s() - t;
		best_w = t < best_w ? t : best_w;
	}
	getrusage(RUSAGE_SELF, &ru);
	/* What it writes it reads back to the same text (the fuzz target's property). */
	c1 = be_dump(d, 0);
	d2 = be_parse(c1, strlen(c1), false, err, ERRLEN);
	c2 = d2 ? be_dump(d2, 0) : NULL;
	printf("big document: %.1f MB; parse %.3f s (%.0f MB/s), tree %ld MiB RSS; ",
	       (double)len / 1e6, best_p, (double)len / 1e6 / best_p, (rss1 - rss0) >> 10);
	printf("write pretty %.3f s (%.0f MB/s); peak RSS %ld MiB; write-read-write %s\n",
	       best_w, (double)len / 1e6 / best_w, ru.ru_maxrss >> 10,
	       c2 && !strcmp(c1, c2) ? "identical" : "DIFFERS");
	free(c1);
	free(c2);
	be_free(d);
	be_free(d2);
	free(text);
	fclose(null);
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 50;

	printf("== %s\n", be_name);
	test_u64();
	test_number_texts();
	test_double();
	test_nonfinite();
	test_order();
	test_dups();
	test_depth();
	test_utf8();
	test_errors();
	test_shape();
	if (mib)
		test_speed(mib);
	return 0;
}
