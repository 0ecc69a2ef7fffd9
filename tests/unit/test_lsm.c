// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* sys/lsm: LSM lists from sample texts, and the sentence on this machine. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "sys/lsm.h"

static void test_list_has(void **state)
{
	(void)state;
	assert_true(mb_lsm_list_has("lockdown,capability,landlock,bpf", "bpf"));
	assert_true(mb_lsm_list_has("bpf,landlock", "bpf"));
	assert_true(mb_lsm_list_has("capability,bpf\n", "bpf"));
	/* A whole item only. */
	assert_false(mb_lsm_list_has("lockdown,bpfx,xbpf", "bpf"));
	assert_false(mb_lsm_list_has("", "bpf"));
	assert_false(mb_lsm_list_has(NULL, "bpf"));
}

static void test_cmdline(void **state)
{
	char list[64];

	(void)state;
	assert_int_equal(mb_lsm_from_cmdline("quiet lsm=landlock,bpf panic=1\n", list,
					     sizeof(list)), 0);
	assert_string_equal(list, "landlock,bpf");
	/* The kernel takes the last one; another parameter ending in lsm= is not it. */
	assert_int_equal(mb_lsm_from_cmdline("lsm=a apparmor.lsm=x lsm=b,bpf", list,
					     sizeof(list)), 0);
	assert_string_equal(list, "b,bpf");
	assert_int_equal(mb_lsm_from_cmdline("quiet foo_lsm=x", list, sizeof(list)), -ENOENT);
	assert_int_equal(mb_lsm_from_cmdline("lsm= quiet", list, sizeof(list)), -ENOENT);
	assert_int_equal(mb_lsm_from_cmdline("lsm=abcdef", list, 4), -ENOENT);
}

static void test_config(void **state)
{
	char list[128];

	(void)state;
	assert_int_equal(mb_lsm_from_config("CONFIG_X=y\nCONFIG_LSM=\"landlock,lockdown,bpf\"\n",
					    list, sizeof(list)), 0);
	assert_string_equal(list, "landlock,lockdown,bpf");
	assert_int_equal(mb_lsm_from_config("CONFIG_LSM=\"yama\"", list, sizeof(list)), 0);
	assert_string_equal(list, "yama");
	assert_int_equal(mb_lsm_from_config("CONFIG_X=y\n# CONFIG_LSM is not set\n", list,
					    sizeof(list)), -ENOENT);
}

/* Whatever this machine has, the sentence says how to enable the BPF LSM or that it is on. */
static void test_explain(void **state)
{
	char buf[1024];

	(void)state;
	mb_explain_bpf_lsm(buf, sizeof(buf));
	assert_true(strstr(buf, "BPF LSM") != NULL);
	assert_true(strstr(buf, "LSM program") != NULL);
	assert_true(strstr(buf, "lsm=") != NULL || strstr(buf, "is active") != NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_has),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_explain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
