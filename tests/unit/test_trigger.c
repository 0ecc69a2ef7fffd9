// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The trigger runner: its attach points and their names, the refusals the tests ask for, the
 * syscall argument both sides agree on, the programs and filter a prepare sets, and (with BPF)
 * runs fired and counted at the attach point that loaded.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <cmocka.h>
#include <bpf/libbpf.h>

#include "core/bench.h"
#include "drivers/trigger.h"
#include "sys/probe.h"
#include "util/log.h"
#include "trigger_test.skel.h"

static void test_attach_names(void **state)
{
	(void)state;
	assert_string_equal(mb_trigger_attach_name(MB_TRIGGER_TP_BTF), "tp_btf/sys_enter");
	assert_string_equal(mb_trigger_attach_name(MB_TRIGGER_RAW_TP), "raw_tp/sys_enter");
	assert_string_equal(mb_trigger_attach_name(MB_TRIGGER_TP), "tp/syscalls/sys_enter_getpgid");
	assert_string_equal(mb_trigger_attach_key(MB_TRIGGER_RAW_TP), "raw_tp");
	assert_string_equal(mb_trigger_attach_suffix(MB_TRIGGER_TP), "_tp");
	assert_null(mb_trigger_attach_name(MB_TRIGGER_NR));
	assert_null(mb_trigger_attach_key((enum mb_trigger_attach)-1));
	assert_null(mb_trigger_attach_suffix(MB_TRIGGER_NR));
	assert_string_equal(mb_trigger_attach_name(MB_TRIGGER_SOCK_RECV), "tp_btf/sock_recv_length");
	assert_string_equal(mb_trigger_attach_key(MB_TRIGGER_SOCK_RECV), "sock_recv");
	assert_int_equal(mb_trigger_attach_kind(MB_TRIGGER_SOCK_RECV), MB_TRIGGER_KIND_SOCKET);
	assert_int_equal(mb_trigger_attach_kind(MB_TRIGGER_RAW_TP), MB_TRIGGER_KIND_SYSCALL);
}

static void test_refused(void **state)
{
	(void)state;
	assert_false(mb_trigger_refused(NULL, MB_TRIGGER_TP_BTF));
	assert_false(mb_trigger_refused("", MB_TRIGGER_TP_BTF));
	/* A key is a whole item: "tp" is not "tp_btf", nor the other way round. */
	assert_false(mb_trigger_refused("tp", MB_TRIGGER_TP_BTF));
	assert_true(mb_trigger_refused("tp", MB_TRIGGER_TP));
	assert_false(mb_trigger_refused("tp_btf", MB_TRIGGER_TP));
	assert_true(mb_trigger_refused("tp_btf,raw_tp", MB_TRIGGER_TP_BTF));
	assert_true(mb_trigger_refused("tp_btf,raw_tp", MB_TRIGGER_RAW_TP));
	assert_false(mb_trigger_refused("tp_btf,raw_tp", MB_TRIGGER_TP));
	assert_true(mb_trigger_refused(",raw_tp,,tp,", MB_TRIGGER_TP));
	assert_false(mb_trigger_refused("raw_tp", MB_TRIGGER_NR));
}

static void test_arg(void **state)
{
	const __u32 ops[] = { 1, 2, 255 }, slots[] = { 0, 1, MB_MAX_SLOTS - 1 };

	(void)state;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		for (size_t k = 0; k < sizeof(slots) / sizeof(slots[0]); k++) {
			__u64 arg = mb_trigger_arg(ops[i], slots[k]);

			assert_int_equal(mb_trigger_arg_slot(arg, ops[i]), (int)slots[k]);
			/* Another op's programs ignore it. */
			assert_int_equal(mb_trigger_arg_slot(arg, ops[i] ^ 4), -1);
		}
	}
	/* A getpgid() of another caller: pid 0, a real pid, a pid with another top byte. */
	assert_int_equal(mb_trigger_arg_slot(0, 1), -1);
	assert_int_equal(mb_trigger_arg_slot((__u64)getpid(), 1), -1);
	assert_int_equal(mb_trigger_arg_slot(mb_trigger_arg(1, 3) ^ 0x01000000u, 1), -1);
	/* Slots past the programs' array. */
	assert_int_equal(mb_trigger_arg_slot(mb_trigger_arg(1, MB_MAX_SLOTS), 1), -1);
	assert_int_equal(mb_trigger_arg_slot(mb_trigger_arg(1, 0xffff), 1), -1);
}

static void test_prepare(void **state)
{
	const char *const ops[] = { "mb_tt_b", NULL }, *const bad[] = { "mb_tt_c", NULL };
	struct trigger_test_bpf *skel = trigger_test_bpf__open();
	struct bpf_program *prog;

	(void)state;
	assert_non_null(skel);
	assert_int_equal(mb_trigger_prepare(skel->obj, MB_TRIGGER_RAW_TP, ops), 0);
	bpf_object__for_each_program(prog, skel->obj)
		assert_int_equal(bpf_program__autoload(prog),
				 !strcmp(bpf_program__name(prog), "mb_tt_b_raw"));
	assert_int_equal(skel->rodata->mb_trigger_tgid, (__u32)getpid());
	assert_int_equal(skel->rodata->mb_trigger_sysnr, SYS_getpgid);
	assert_int_equal(mb_trigger_prepare(skel->obj, MB_TRIGGER_TP, bad), -ENOENT);
	trigger_test_bpf__destroy(skel);
}

struct loader {
	struct trigger_test_bpf *skel;
	int calls;
	const char *const *ops;		/* NULL: mb_tt_a and mb_tt_b */
	bool children;			/* mb_trigger_allow_children() */
};

static int load_test(struct mb_run *run, struct mb_trigger *t, void *ctx)
{
	const char *const ops[] = { "mb_tt_a", "mb_tt_b", NULL };
	struct loader *l = ctx;
	int err;

	(void)run;
	l->calls++;
	l->skel = trigger_test_bpf__open();
	if (!l->skel)
		return -errno;
	err = mb_trigger_prepare(l->skel->obj, t->attach, l->ops ? l->ops : ops);
	if (!err && l->children)
		err = mb_trigger_allow_children(l->skel->obj);
	if (!err)
		err = trigger_test_bpf__load(l->skel);
	if (!err)
		err = trigger_test_bpf__attach(l->skel);
	if (err) {
		trigger_test_bpf__destroy(l->skel);
		l->skel = NULL;
		return err;
	}
	t->slots = l->skel->bss->mb_slots;
	t->socks = &l->skel->bss->mb_trigger_socks;
	t->threads = l->skel->maps.mb_thread_slots;
	return 0;
}

static const struct mb_bench tt_bench = { .name = "trigger-test" };

/* Every attach point refused: no loader call, and an error that says so. */
static void test_all_refused(void **state)
{
	struct mb_run run = { .bench = &tt_bench };
	struct loader l = { 0 };
	struct mb_trigger t = { 0 };

	(void)state;
	setenv(MB_TRIGGER_REFUSE_ENV, "tp_btf,raw_tp,tp", 1);
	assert_int_equal(mb_trigger_load(&run, &t, load_test, &l), -EOPNOTSUPP);
	unsetenv(MB_TRIGGER_REFUSE_ENV);
	assert_int_equal(l.calls, 0);
	assert_string_equal(run.runner, "trigger");
}

/* With tp_btf refused, raw_tp loads; fired runs count in the firing producer's slot only. */
static void test_fire(void **state)
{
	struct mb_run run = { .bench = &tt_bench };
	struct mb_producer p = { .idx = 3, .cpu = -1 }, q = { .idx = 4, .cpu = -1 };
	struct loader l = { 0 };
	struct mb_counters c;
	struct mb_trigger t = { 0 };
	char why[512];

	(void)state;
	if (mb_probe_bpf(why, sizeof(why)))
		skip();
	setenv(MB_TRIGGER_REFUSE_ENV, "tp_btf", 1);
	assert_int_equal(mb_trigger_load(&run, &t, load_test, &l), 0);
	unsetenv(MB_TRIGGER_REFUSE_ENV);
	assert_int_equal(t.attach, MB_TRIGGER_RAW_TP);
	for (int i = 0; i < 5; i++)
		assert_int_equal(mb_trigger_fire(&run, &p, &t, mb_trigger_arg(2, 3)), 0);
	/* Not a trigger of ours: no run counted. */
	syscall(SYS_getpgid, 0);
	mb_trigger_counters(&t.slots[3], 7, 0, &c);
	assert_int_equal(c.ops, 5);
	assert_int_equal(c.hits, 5);
	assert_int_equal(c.calls, 5);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.excluded_ns, 7);
	assert_int_equal(c.counter[0], 10);	/* op 2 adds 2 to its own counter per run */
	assert_true(c.kernel_ns > 0);
	assert_int_equal(t.slots[0].calls, 0);
	/* An op no program runs: the first fire says so. */
	assert_int_equal(mb_trigger_fire(&run, &q, &t, mb_trigger_arg(9, 4)), -ENOENT);
	trigger_test_bpf__destroy(l.skel);
}

/* Runs a child process that fires op 1 for slot 6 once, and waits for it. */
static void child_fires(void)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (!pid) {
		syscall(SYS_getpgid, mb_trigger_arg(1, 6));
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && !WEXITSTATUS(status));
}

/* A child's fire counts where children are allowed, at each syscall attach point, else not. */
static void test_children(void **state)
{
	static const char *const refuse[] = { "raw_tp,tp", "tp_btf,tp" };
	struct mb_run run = { .bench = &tt_bench };
	int tested = 0;
	char why[512];

	(void)state;
	if (mb_probe_bpf(why, sizeof(why)))
		skip();
	for (int i = 0; i < 4; i++) {
		struct loader l = { .children = i & 1 };
		struct mb_trigger t = { 0 };
		int err;

		setenv(MB_TRIGGER_REFUSE_ENV, refuse[i / 2], 1);
		err = mb_trigger_load(&run, &t, load_test, &l);
		unsetenv(MB_TRIGGER_REFUSE_ENV);
		if (err)
			continue;	/* an attach point this kernel lacks; the other is tested */
		assert_int_equal(t.attach, i / 2 ? MB_TRIGGER_RAW_TP : MB_TRIGGER_TP_BTF);
		child_fires();
		assert_int_equal(t.slots[6].ops, l.children ? 1 : 0);
		trigger_test_bpf__destroy(l.skel);
		tested++;
	}
	assert_true(tested >= 2);
}

/*
 * The socket kind: its one attach point (refused: nothing else is tried); a registered
 * producer's reads run its program on its socket, an unregistered one's do not.
 */
static void test_sock(void **state)
{
	struct mb_run run = { .bench = &tt_bench };
	struct mb_producer p = { .idx = 2, .cpu = -1 }, q = { .idx = 5, .cpu = -1 };
	struct mb_trigger t = { .kind = MB_TRIGGER_KIND_SOCKET };
	const char *const ops[] = { "mb_tt_s", NULL };
	struct loader l = { .ops = ops };
	struct mb_counters c;
	char why[512];
	int fd;

	(void)state;
	if (mb_probe_bpf(why, sizeof(why)))
		skip();
	setenv(MB_TRIGGER_REFUSE_ENV, "sock_recv", 1);
	assert_int_equal(mb_trigger_load(&run, &t, load_test, &l), -EOPNOTSUPP);
	unsetenv(MB_TRIGGER_REFUSE_ENV);
	assert_int_equal(l.calls, 0);
	assert_int_equal(mb_trigger_load(&run, &t, load_test, &l), 0);
	assert_int_equal(t.attach, MB_TRIGGER_SOCK_RECV);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	assert_true(fd >= 0);
	/* Not registered yet: the program ignores the read. */
	assert_int_equal(mb_trigger_sock_fire(&run, &p, &t, fd), -ENOENT);
	assert_int_equal(mb_trigger_sock_register(&p, &t, 3), 0);
	assert_int_equal(t.socks->op[2], 3);
	for (int i = 0; i < 4; i++)
		assert_int_equal(mb_trigger_sock_fire(&run, &p, &t, fd), 0);
	mb_trigger_counters(&t.slots[2], 0, 0, &c);
	assert_int_equal(c.ops, 4);
	assert_int_equal(c.counter[0], 4 * AF_INET);
	/* The thread registered again as another producer: its reads count there now. */
	assert_int_equal(mb_trigger_sock_register(&q, &t, 3), 0);
	assert_int_equal(mb_trigger_sock_fire(&run, &q, &t, fd), 0);
	assert_int_equal(t.slots[5].ops, 1);
	assert_int_equal(t.slots[2].ops, 4);
	/* Asking for an op no program runs: its reads count nowhere. */
	assert_int_equal(mb_trigger_sock_register(&p, &t, 4), 0);
	assert_int_equal(mb_trigger_sock_fire(&run, &p, &t, fd), 0);
	assert_int_equal(t.slots[2].ops, 4);
	assert_int_equal(t.slots[5].ops, 1);
	/* Without the loader's thread map: refused. */
	t.threads = NULL;
	assert_int_equal(mb_trigger_sock_register(&p, &t, 3), -EINVAL);
	close(fd);
	trigger_test_bpf__destroy(l.skel);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attach_names),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_arg),
		cmocka_unit_test(test_prepare),
		cmocka_unit_test(test_all_refused),
		cmocka_unit_test(test_fire),
		cmocka_unit_test(test_children),
		cmocka_unit_test(test_sock),
	};

	mb_log_init(true, false, stdout);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
