// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The in-kernel loop's evidence: translated instructions, JIT images, kallsyms, the choice. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>
#include <cmocka.h>

#include "drivers/loop_evidence.h"
#include "drivers/loop_kind.h"

#define LOOP_IMM 0x4eef0

static const struct bpf_insn inlined[] = {
	{ .code = BPF_LD | BPF_DW | BPF_IMM, .src_reg = BPF_PSEUDO_MAP_VALUE },
	{ .code = 0 },
	{ .code = BPF_JMP | BPF_CALL, .imm = 5 },			/* a helper */
	{ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_CALL, .imm = 7 },	/* callback */
	{ .code = BPF_JMP | BPF_EXIT },
};

static void test_inlined_loop(void **state)
{
	struct mb_loop_evidence ev;

	(void)state;
	mb_loop_scan_xlated(inlined, sizeof(inlined), LOOP_IMM, &ev);
	assert_int_equal(ev.helper_calls_to_loop, 0);
	assert_int_equal(ev.subprog_calls, 1);
}

static void test_helper_call_remains(void **state)
{
	struct bpf_insn prog[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = LOOP_IMM },
		/* A 64-bit load whose second half looks like the same call must not count. */
		{ .code = BPF_LD | BPF_DW | BPF_IMM },
		{ .code = BPF_JMP | BPF_CALL, .imm = LOOP_IMM },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct mb_loop_evidence ev;

	(void)state;
	mb_loop_scan_xlated(prog, sizeof(prog), LOOP_IMM, &ev);
	assert_int_equal(ev.helper_calls_to_loop, 1);
	assert_int_equal(ev.subprog_calls, 0);
	/* Without the helper's address the count is unknown, not zero. */
	mb_loop_scan_xlated(prog, sizeof(prog), INT64_MIN, &ev);
	assert_int_equal(ev.helper_calls_to_loop, -1);
}

static void test_private_stack_prologue(void **state)
{
	const uint8_t with[] = { 0x55, 0x48, 0x89, 0xe5, 0x49, 0xb9, 1, 2, 3, 4, 5, 6, 7, 8,
				 0x65, 0x4c, 0x03, 0x0c, 0x25, 0x28, 0xc0, 0xb0, 0x83 };
	const uint8_t without[] = { 0x55, 0x48, 0x89, 0xe5, 0x65, 0x4c, 0x03, 0x0c };

	(void)state;
	assert_int_equal(mb_loop_scan_jited_x86(with, sizeof(with)), 1);
	assert_int_equal(mb_loop_scan_jited_x86(without, sizeof(without)), 0);
	assert_int_equal(mb_loop_scan_jited_x86(with, 0), 0);
}

static void test_helper_imm(void **state)
{
	char text[] = "ffffffff81000000 T _stext\n"
		      "ffffffff814dd650 T __bpf_call_base\n"
		      "ffffffff8152c540 T bpf_loop\n"
		      "ffffffff8152c600 t bpf_loop_extra\n";
	char hidden[] = "0000000000000000 T __bpf_call_base\n0000000000000000 T bpf_loop\n";
	int64_t imm = 0;
	FILE *f;

	(void)state;
	f = fmemopen(text, strlen(text), "r");
	assert_true(mb_loop_helper_imm(f, &imm));
	assert_int_equal(imm, 0xffffffff8152c540ULL - 0xffffffff814dd650ULL);
	fclose(f);
	f = fmemopen(hidden, strlen(hidden), "r");
	assert_false(mb_loop_helper_imm(f, &imm));
	fclose(f);
}

static void test_forced_kinds(void **state)
{
	struct mb_loop_info li;

	(void)state;
	assert_int_equal(mb_loop_kind_pick(MB_LOOP_BPF_LOOP, &li), MB_LOOP_BPF_LOOP);
	assert_int_equal(li.kind, MB_LOOP_BPF_LOOP);
	assert_int_equal(li.requested, MB_LOOP_BPF_LOOP);
	assert_int_equal(li.private_stack, -1);
	assert_non_null(strstr(li.why, "--loop bpf_loop"));
	assert_int_equal(mb_loop_kind_pick(MB_LOOP_MAY_GOTO, &li), MB_LOOP_MAY_GOTO);
	assert_string_equal(mb_loop_kind_names[li.kind], "may_goto");
	/* auto resolves to one of the two, and says why. */
	mb_loop_kind_pick(MB_LOOP_AUTO, &li);
	assert_int_not_equal(li.kind, MB_LOOP_AUTO);
	assert_true(strlen(li.why) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inlined_loop),
		cmocka_unit_test(test_helper_call_remains),
		cmocka_unit_test(test_private_stack_prologue),
		cmocka_unit_test(test_helper_imm),
		cmocka_unit_test(test_forced_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
