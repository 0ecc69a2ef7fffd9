// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The op loop's per-call value (MB_LOOP_PROG_PRE): in both loop kinds every op sees the value
 * computed before the loop (the calling thread's task), and the may_goto loop's translated
 * program calls the helper that computes it at most once, where the control that calls it in
 * every op shows a call per unrolled op.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/libbpf.h>

#include "drivers/kloop.h"
#include "drivers/loop_evidence.h"
#include "drivers/loop_kind.h"
#include "sys/probe.h"
#include "util/log.h"
#include "kloop_pre_test.skel.h"

#define ITERS		1000
#define TASK_HELPER	"bpf_get_current_task_btf"

static struct kloop_pre_test_bpf *load(enum mb_loop_kind kind)
{
	struct kloop_pre_test_bpf *skel = kloop_pre_test_bpf__open();
	struct mb_loop_info loop = { .kind = kind };

	assert_non_null(skel);
	mb_loop_prepare(skel->skeleton, &loop);
	assert_int_equal(kloop_pre_test_bpf__load(skel), 0);
	return skel;
}

/* Runs @prog for slot 0 with the calling thread's id as the expected pid. */
static void run_ops(struct kloop_pre_test_bpf *skel, struct bpf_program *prog)
{
	struct mb_slot *s = &skel->bss->mb_slots[0];

	*s = (struct mb_slot){ .arg = (uint64_t)gettid() };
	assert_int_equal(mb_kloop_call(bpf_program__fd(prog), 0, ITERS, -1), MB_RET_OK);
	assert_int_equal(s->ops, ITERS);
	assert_int_equal(s->hits, ITERS);
	assert_int_equal(s->errors, 0);
	/* Another thread's id: every op must see a task that is not it. */
	*s = (struct mb_slot){ .arg = (uint64_t)gettid() + 1 };
	assert_int_equal(mb_kloop_call(bpf_program__fd(prog), 0, ITERS, -1), MB_RET_OK);
	assert_int_equal(s->hits, 0);
	assert_int_equal(s->errors, ITERS);
}

static void test_kind(enum mb_loop_kind kind)
{
	struct kloop_pre_test_bpf *skel;
	char why[512];

	if (mb_probe_bpf(why, sizeof(why)) || mb_probe_kernel_loop(why, sizeof(why)))
		skip();
	if (kind == MB_LOOP_MAY_GOTO && !mb_loop_may_goto_supported())
		skip();
	skel = load(kind);
	run_ops(skel, skel->progs.mb_kpre_task);
	run_ops(skel, skel->progs.mb_kpre_each);
	kloop_pre_test_bpf__destroy(skel);
}

static void test_may_goto(void **state)
{
	(void)state;
	test_kind(MB_LOOP_MAY_GOTO);
}

static void test_bpf_loop(void **state)
{
	(void)state;
	test_kind(MB_LOOP_BPF_LOOP);
}

/* The helper call stays out of the loop body. */
static void test_helper_outside_loop(void **state)
{
	struct kloop_pre_test_bpf *skel;
	int pre, each;
	char why[512];

	(void)state;
	if (mb_probe_bpf(why, sizeof(why)) || !mb_loop_may_goto_supported())
		skip();
	skel = load(MB_LOOP_MAY_GOTO);
	pre = mb_loop_helper_calls(bpf_program__fd(skel->progs.mb_kpre_task), TASK_HELPER);
	each = mb_loop_helper_calls(bpf_program__fd(skel->progs.mb_kpre_each), TASK_HELPER);
	kloop_pre_test_bpf__destroy(skel);
	/* kallsyms hidden, or the verifier inlines the helper: the calls cannot be counted. */
	if (pre < 0 || each <= 0)
		skip();
	assert_true(pre <= 1);
	/* The control's loop has four unrolled ops and a fifth for the rest. */
	assert_true(each >= 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_may_goto),
		cmocka_unit_test(test_bpf_loop),
		cmocka_unit_test(test_helper_outside_loop),
	};

	mb_log_init(true, false, stdout);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
