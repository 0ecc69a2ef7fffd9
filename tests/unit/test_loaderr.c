// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Kernel refusals become clear messages: a verifier rejection quotes the verifier's last lines;
 * a missing map type is named.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <bpf/libbpf.h>

#include "util/log.h"
#include "sys/probe.h"
#include "reject.skel.h"

static void test_no_log(void **state)
{
	char buf[256];

	(void)state;
	mb_verifier_log_clear();
	assert_int_equal(mb_verifier_log_tail(buf, sizeof(buf), 3), 0);
	assert_string_equal(buf, "");
	mb_explain_load_error(-EINVAL, "cannot load x", buf, sizeof(buf));
	assert_string_equal(buf, "cannot load x: Invalid argument (-v shows libbpf's messages)");
}

static void test_verifier_rejection(void **state)
{
	struct reject_bpf *skel;
	char why[1024];
	int err;

	(void)state;
	if (mb_probe_bpf(why, sizeof(why)))
		skip();
	mb_log_setup_libbpf();
	skel = reject_bpf__open();
	assert_non_null(skel);
	err = reject_bpf__load(skel);
	reject_bpf__destroy(skel);
	assert_true(err < 0);
	assert_true(mb_verifier_log_tail(why, sizeof(why), 3) > 0);
	mb_explain_load_error(err, "cannot load the BPF programs", why, sizeof(why));
	if (!strstr(why, "cannot load the BPF programs: the verifier rejected a program:") ||
	    !strstr(why, "invalid mem access") || !strstr(why, "-v shows the whole verifier log"))
		fail_msg("unexpected message: %s", why);
	/* Only the last lines, joined on one line. */
	assert_null(strchr(why, '\n'));
}

/* A map type the running kernel lacks: probed, and named in the reason. */
static void test_missing_map_type(void **state)
{
	char why[256];

	(void)state;
	if (mb_probe_bpf(why, sizeof(why)))
		skip();
	assert_int_equal(mb_probe_map_type(BPF_MAP_TYPE_HASH, "hash", why, sizeof(why)), 0);
	/* No kernel has map type 4000. */
	assert_true(mb_probe_map_type(4000, "future", why, sizeof(why)) < 0);
	assert_string_equal(why, "this kernel has no future map type");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_log),
		cmocka_unit_test(test_verifier_rejection),
		cmocka_unit_test(test_missing_map_type),
	};

	mb_log_init(true, false, stdout);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
