// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* CPU identity and mitigations, and how two documents' machines differ. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "output/compare_context.h"
#include "sys/cpuinfo.h"
#include "util/json.h"

static void test_parse_first_cpu(void **state)
{
	char text[] = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\n"
		      "model\t\t: 2\nmodel name\t: AMD EPYC 9B45\nstepping\t: 1\n"
		      "microcode\t: 0xb002116\n\nprocessor\t: 1\nvendor_id\t: Other\n";
	struct mb_cpu_info ci;
	FILE *f = fmemopen(text, strlen(text), "r");

	(void)state;
	assert_int_equal(mb_cpu_info_parse(f, &ci), 0);
	fclose(f);
	assert_string_equal(ci.vendor, "AuthenticAMD");
	assert_string_equal(ci.model_name, "AMD EPYC 9B45");
	assert_int_equal(ci.family, 26);
	assert_int_equal(ci.model, 2);	/* "model name" must not be read as "model" */
	assert_int_equal(ci.stepping, 1);
	assert_string_equal(ci.microcode, "0xb002116");
}

static void test_parse_missing_fields(void **state)
{
	char text[] = "processor\t: 0\nBogoMIPS\t: 100\n";
	struct mb_cpu_info ci;
	FILE *f = fmemopen(text, strlen(text), "r");

	(void)state;
	assert_int_equal(mb_cpu_info_parse(f, &ci), 0);
	fclose(f);
	assert_int_equal(ci.family, -1);
	assert_int_equal(ci.model, -1);
	assert_string_equal(ci.microcode, "");
}

static void test_return_thunk_lines(void **state)
{
	(void)state;
	assert_true(mb_cpu_line_is_return_thunk("Vulnerable: Safe RET, no microcode"));
	assert_true(mb_cpu_line_is_return_thunk("Mitigation: Aligned branch/return thunks"));
	assert_true(mb_cpu_line_is_return_thunk("Mitigation: untrained return thunk; SMT enabled"));
	assert_true(mb_cpu_line_is_return_thunk("Mitigation: Stuffing"));
	assert_false(mb_cpu_line_is_return_thunk("Not affected"));
	assert_false(mb_cpu_line_is_return_thunk("Vulnerable"));
	assert_false(mb_cpu_line_is_return_thunk("Mitigation: Retpolines; STIBP: disabled"));
}

static void test_vulnerabilities_dir(void **state)
{
	char dir[] = "/tmp/mb-vuln-XXXXXX", path[600], ev[600];
	struct mb_json *v;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/spec_rstack_overflow", dir);
	f = fopen(path, "w");
	fputs("Vulnerable: Safe RET, no microcode\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/meltdown", dir);
	f = fopen(path, "w");
	fputs("Not affected\n", f);
	fclose(f);
	v = mb_cpu_vulnerabilities(dir);
	assert_int_equal(mb_json_len(v), 2);
	assert_string_equal(mb_json_str(mb_json_get(v, "meltdown"), ""), "Not affected");
	mb_json_free(v);
	assert_true(mb_cpu_return_thunk(dir, ev, sizeof(ev)));
	assert_string_equal(ev, "spec_rstack_overflow: Vulnerable: Safe RET, no microcode");
	unlink(path);
	snprintf(path, sizeof(path), "%s/spec_rstack_overflow", dir);
	unlink(path);
	rmdir(dir);
	/* A missing folder: nothing, no thunk. */
	v = mb_cpu_vulnerabilities(dir);
	assert_int_equal(mb_json_len(v), 0);
	mb_json_free(v);
	assert_false(mb_cpu_return_thunk(dir, ev, sizeof(ev)));
}

static struct mb_json *doc(const char *microcode, const char *srso, const char *extra)
{
	char text[1024];
	struct mb_json *d;

	snprintf(text, sizeof(text),
		 "{\"context\": {\"kernel\": {\"release\": \"6.18\"}, \"cpu_model\": \"X\", \"cpu\": "
		 "{\"vendor\": \"AuthenticAMD\", \"family\": 26, \"model\": 2, \"stepping\": 1, "
		 "\"microcode\": \"%s\", \"vulnerabilities\": {\"spec_rstack_overflow\": \"%s\"%s}}}}",
		 microcode, srso, extra);
	d = mb_json_parse(text, strlen(text), NULL, 0);
	assert_non_null(d);
	return d;
}

static void test_machine_differences(void **state)
{
	struct mb_json *a = doc("0x1", "Not affected", ""), *b = doc("0x1", "Not affected", "");
	struct mb_json *c = doc("0x2", "Vulnerable: Safe RET", ", \"retbleed\": \"Vulnerable\"");
	struct mb_json *d;

	(void)state;
	d = mb_context_differences(a, b);
	assert_int_equal(mb_json_len(d), 0);
	mb_json_free(d);
	d = mb_context_differences(a, c);
	assert_int_equal(mb_json_len(d), 3);
	assert_string_equal(mb_json_str(mb_json_at(d, 0), ""), "CPU microcode 0x1 -> 0x2");
	assert_string_equal(mb_json_str(mb_json_at(d, 1), ""),
			    "mitigation spec_rstack_overflow: Not affected -> Vulnerable: Safe RET");
	assert_string_equal(mb_json_str(mb_json_at(d, 2), ""),
			    "mitigation retbleed: absent -> Vulnerable");
	mb_json_free(d);
	mb_json_free(a);
	mb_json_free(b);
	mb_json_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_first_cpu),
		cmocka_unit_test(test_parse_missing_fields),
		cmocka_unit_test(test_return_thunk_lines),
		cmocka_unit_test(test_vulnerabilities_dir),
		cmocka_unit_test(test_machine_differences),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
