// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* /proc/interrupts rows by their description, in x86's and arm64's layouts. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sys/interrupts.h"

static const char x86[] =
	"            CPU0       CPU1       \n"
	"   0:         45          0   IO-APIC    2-edge      timer\n"
	" LOC:    1234567    7654321   Local timer interrupts\n"
	" IWI:    7177473   16316504   IRQ work interrupts\n"
	" RTR:          0          0   APIC ICR read retries\n"
	" ERR:          0\n";

static const char arm64[] =
	"           CPU0       CPU1       CPU2       CPU3\n"
	"IPI4:          0          0          0          0       Timer broadcast interrupts\n"
	"IPI5:         10         20         30         40       IRQ work interrupts\n";

static void test_irq_work_row(void **state)
{
	uint64_t n = 0;

	(void)state;
	assert_int_equal(mb_interrupts_parse(x86, MB_IRQ_WORK, &n), 0);
	assert_int_equal(n, 7177473ULL + 16316504ULL);
	assert_int_equal(mb_interrupts_parse(arm64, MB_IRQ_WORK, &n), 0);
	assert_int_equal(n, 100);
}

static void test_missing_or_empty(void **state)
{
	uint64_t n;

	(void)state;
	assert_int_equal(mb_interrupts_parse(x86, "Machine check polls", &n), -ENOENT);
	/* A description that only ends another's does not match ("work interrupts"). */
	assert_int_equal(mb_interrupts_parse(x86, "work interrupts", &n), -ENOENT);
	assert_int_equal(mb_interrupts_parse("", MB_IRQ_WORK, &n), -ENOENT);
	assert_int_equal(mb_interrupts_parse(" IWI: IRQ work interrupts\n", MB_IRQ_WORK, &n),
			 -EINVAL);
}

static void test_this_machine(void **state)
{
	uint64_t a, b;

	(void)state;
	/* Where the row exists it only grows. */
	if (mb_interrupts_read(MB_IRQ_WORK, &a))
		skip();
	assert_int_equal(mb_interrupts_read(MB_IRQ_WORK, &b), 0);
	assert_true(b >= a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_irq_work_row),
		cmocka_unit_test(test_missing_or_empty),
		cmocka_unit_test(test_this_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
