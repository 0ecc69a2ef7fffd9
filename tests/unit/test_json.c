// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/json.h"

static char *dump(const struct mb_json *v, int indent)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	mb_json_write(f, v, indent);
	fclose(f);
	return buf;
}

static struct mb_json *parse(const char *s)
{
	char err[128];
	struct mb_json *v = mb_json_parse(s, strlen(s), err, sizeof(err));

	if (!v)
		fail_msg("parse of '%s' failed: %s", s, err);
	return v;
}

static void expect_parse_error(const char *s, const char *part)
{
	char err[128];
	struct mb_json *v = mb_json_parse(s, strlen(s), err, sizeof(err));

	if (v)
		fail_msg("'%s' parsed but should not", s);
	if (!strstr(err, part))
		fail_msg("error '%s' for '%s' lacks '%s'", err, s, part);
}

static void test_build_and_write(void **state)
{
	struct mb_json *o = mb_json_object(), *a = mb_json_array();
	char *s;

	(void)state;
	mb_json_set_num(o, "n", 42);
	mb_json_set_num(o, "x", 0.1);
	mb_json_set_str(o, "s", "a\"b\\c\n\x01");
	mb_json_set_bool(o, "t", true);
	mb_json_set(o, "z", mb_json_null());
	mb_json_append(a, mb_json_number(1));
	mb_json_append(a, mb_json_number(NAN));
	mb_json_set(o, "a", a);
	mb_json_set_num(o, "n", 43);	/* replaces */
	s = dump(o, 0);
	assert_string_equal(s, "{\"n\":43,\"x\":0.1,\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"t\":true,"
			       "\"z\":null,\"a\":[1,null]}");
	free(s);
	mb_json_free(o);
}

static void test_numbers(void **state)
{
	char buf[64];

	(void)state;
	mb_json_format_number(1e9, buf, sizeof(buf));
	assert_string_equal(buf, "1000000000");
	mb_json_format_number(-3, buf, sizeof(buf));
	assert_string_equal(buf, "-3");
	mb_json_format_number(1.5, buf, sizeof(buf));
	assert_string_equal(buf, "1.5");
	mb_json_format_number(INFINITY, buf, sizeof(buf));
	assert_string_equal(buf, "null");
	mb_json_format_number(1.0 / 3.0, buf, sizeof(buf));
	assert_true(strtod(buf, NULL) == 1.0 / 3.0);
	mb_json_format_number(1e300, buf, sizeof(buf));
	assert_true(strtod(buf, NULL) == 1e300);
}

/* Pretty-printed, a short array of numbers only (a histogram's bucket) takes one line. */
static void test_rows(void **state)
{
	struct mb_json *v = parse("{\"b\":[[1,2,3],[4,\"x\"],[1,2,3,4,5],[]]}");
	char *s;

	(void)state;
	s = dump(v, 2);
	assert_string_equal(s, "{\n  \"b\": [\n    [1, 2, 3],\n    [\n      4,\n      \"x\"\n    ],\n"
			    "    [\n      1,\n      2,\n      3,\n      4,\n      5\n    ],\n    []\n  ]\n}\n");
	free(s);
	s = dump(v, 0);
	assert_string_equal(s, "{\"b\":[[1,2,3],[4,\"x\"],[1,2,3,4,5],[]]}");
	free(s);
	mb_json_free(v);
}

static void test_round_trip(void **state)
{
	const char *text = "{\"a\":[1,2.5,-3e2,true,false,null],\"b\":{\"c\":\"\\u00e9\\ud83d\\ude00\"},\"d\":\"\"}";
	struct mb_json *v = parse(text), *c;
	char *s;

	(void)state;
	assert_int_equal(mb_json_len(mb_json_get(v, "a")), 6);
	assert_float_equal(mb_json_num(mb_json_at(mb_json_get(v, "a"), 2), 0), -300, 0);
	assert_string_equal(mb_json_str(mb_json_get(mb_json_get(v, "b"), "c"), ""),
			    "\xc3\xa9\xf0\x9f\x98\x80");
	c = mb_json_copy(v);
	s = dump(c, 2);
	mb_json_free(c);
	c = parse(s);
	free(s);
	s = dump(c, 0);
	assert_string_equal(s, "{\"a\":[1,2.5,-300,true,false,null],\"b\":{\"c\":\"\xc3\xa9\xf0\x9f\x98\x80\"},\"d\":\"\"}");
	free(s);
	mb_json_free(c);
	mb_json_free(v);
}

/* Seeds are 64-bit: beyond 2^53 a double would record another seed than the one that ran. */
static void test_exact_integers(void **state)
{
	struct mb_json *a = mb_json_array(), *b;
	char *s;

	(void)state;
	mb_json_append(a, mb_json_uint(UINT64_MAX));
	mb_json_append(a, mb_json_uint((1ULL << 53) + 1));
	mb_json_append(a, mb_json_uint(7));
	s = dump(a, 0);
	assert_string_equal(s, "[18446744073709551615,9007199254740993,7]");
	b = parse(s);
	free(s);
	s = dump(b, 0);
	assert_string_equal(s, "[18446744073709551615,9007199254740993,7]");
	free(s);
	mb_json_free(b);
	/* What does not fit a u64 stays a double. */
	b = parse("[18446744073709551616,-9007199254740993,1e20]");
	s = dump(b, 0);
	assert_string_equal(s, "[1.8446744073709552e+19,-9007199254740992,1e+20]");
	free(s);
	mb_json_free(b);
	mb_json_free(a);
}

/* Arguments and file names need not be UTF-8; the document must be. */
static void test_invalid_utf8_written_as_replacement(void **state)
{
	struct mb_json *a = mb_json_array();
	char *s;

	(void)state;
	mb_json_append(a, mb_json_string("ok \xc3\xa9 \xf0\x9f\x98\x80"));
	mb_json_append(a, mb_json_string("a\xff b\xc0\xaf c\xed\xa0\x80 d\xe2\x82"));
	s = dump(a, 0);
	assert_string_equal(s, "[\"ok \xc3\xa9 \xf0\x9f\x98\x80\","
			       "\"a\xef\xbf\xbd b\xef\xbf\xbd\xef\xbf\xbd c\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd d\xef\xbf\xbd\xef\xbf\xbd\"]");
	free(s);
	mb_json_free(a);
}

static void test_parse_errors(void **state)
{
	char deep[600];

	(void)state;
	/* Strings must be UTF-8: what is read then writes back unchanged. */
	expect_parse_error("[\"a\xff\"]", "invalid UTF-8");
	expect_parse_error("[\"\xc0\xaf\"]", "invalid UTF-8");
	expect_parse_error("[\"\xe2\x82\"]", "invalid UTF-8");
	expect_parse_error("", "unexpected end");
	expect_parse_error("{", "expected a string key");
	expect_parse_error("[1,]", "unexpected character");
	expect_parse_error("[1 2]", "expected ',' or ']'");
	expect_parse_error("{\"a\" 1}", "expected ':'");
	expect_parse_error("{\"a\":1,\"a\":2}", "duplicate key");
	expect_parse_error("01", "trailing");
	expect_parse_error("1.", "invalid number");
	expect_parse_error("-", "invalid number");
	expect_parse_error("1e", "invalid number");
	expect_parse_error("\"abc", "unterminated");
	expect_parse_error("\"a\\x\"", "bad escape");
	expect_parse_error("\"\\u12\"", "bad \\u escape");
	expect_parse_error("\"\\ud800\"", "unpaired surrogate");
	expect_parse_error("\"\\udc00\"", "unpaired surrogate");
	expect_parse_error("\"\\u0000\"", "NUL");
	expect_parse_error("\"a\nb\"", "control character");
	expect_parse_error("tru", "invalid literal");
	expect_parse_error("nul", "invalid literal");
	expect_parse_error("[1] x", "trailing");
	expect_parse_error("\"\\", "unterminated");
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	expect_parse_error(deep, "nested too deeply");
	expect_parse_error("{\n  \"a\": x}", "line 2, column 8");
}

static void test_accessors(void **state)
{
	struct mb_json *v = parse("{\"n\":1,\"s\":\"x\",\"o\":{}}");

	(void)state;
	assert_null(mb_json_get(v, "missing"));
	assert_null(mb_json_get(mb_json_get(v, "n"), "x"));
	assert_float_equal(mb_json_num(mb_json_get(v, "s"), -1), -1, 0);
	assert_string_equal(mb_json_str(mb_json_get(v, "n"), "def"), "def");
	assert_string_equal(mb_json_key_at(v, 1), "s");
	assert_null(mb_json_key_at(v, 3));
	assert_null(mb_json_at(v, 5));
	assert_non_null(mb_json_child(v, "o"));
	assert_non_null(mb_json_child(v, "new"));
	assert_int_equal(mb_json_len(v), 4);
	assert_true(mb_json_truthy(mb_json_get(v, "n")));
	assert_false(mb_json_truthy(mb_json_get(v, "o")));
	/* NULL containers are no-ops that still free the value. */
	assert_int_equal(mb_json_set(NULL, "a", mb_json_number(1)), 0);
	assert_int_equal(mb_json_append(NULL, mb_json_number(1)), 0);
	assert_int_equal(mb_json_set(v, "a", NULL), -ENOMEM);
	mb_json_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_and_write),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_exact_integers),
		cmocka_unit_test(test_invalid_utf8_written_as_replacement),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_accessors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
