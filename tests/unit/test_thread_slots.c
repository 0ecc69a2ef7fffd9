// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * drivers/thread_slots: a thread registered from user space is found by a program running in
 * that thread, at the slot it registered; another thread is not, until it registers itself; a
 * thread that unregisters is no longer found; slots out of range are refused on both sides.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "drivers/kloop_shared.h"
#include "drivers/thread_slots.h"
#include "sys/probe.h"
#include "util/log.h"
#include "thread_slots_test.skel.h"

/* The slot the program finds for the calling thread: -1 none, -2 the program did not run. */
static int lookup(struct thread_slots_test_bpf *skel)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	skel->data->mb_tst_slot = -2;
	if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.mb_tst_lookup), &opts))
		return -2;
	return skel->data->mb_tst_slot;
}

struct other {
	struct thread_slots_test_bpf *skel;
	int before, after, unregistered;
};

/* Another thread: not found until it registers itself as slot 3. */
static void *other_thread(void *arg)
{
	struct other *o = arg;
	int fd = bpf_map__fd(o->skel->maps.mb_thread_slots);

	o->before = lookup(o->skel);
	if (mb_thread_slot_register(fd, 3))
		return NULL;
	o->after = lookup(o->skel);
	o->unregistered = mb_thread_slot_unregister(fd);
	return NULL;
}

static void test_register(void **state)
{
	struct thread_slots_test_bpf *skel;
	struct other o = { .before = -9, .after = -9, .unregistered = -9 };
	__u32 tid = (__u32)syscall(SYS_gettid), big = MB_MAX_SLOTS;
	pthread_t th;
	char why[512];
	int fd;

	(void)state;
	if (mb_probe_bpf(why, sizeof(why)))
		skip();
	skel = thread_slots_test_bpf__open_and_load();
	assert_non_null(skel);
	fd = bpf_map__fd(skel->maps.mb_thread_slots);
	assert_int_equal(lookup(skel), -1);
	assert_int_equal(mb_thread_slot_register(fd, 7), 0);
	assert_int_equal(lookup(skel), 7);
	/* Again: the slot is replaced. */
	assert_int_equal(mb_thread_slot_register(fd, 9), 0);
	assert_int_equal(lookup(skel), 9);
	assert_int_equal(mb_thread_slot_register(fd, MB_MAX_SLOTS), -EINVAL);
	assert_int_equal(lookup(skel), 9);
	o.skel = skel;
	assert_int_equal(pthread_create(&th, NULL, other_thread, &o), 0);
	pthread_join(th, NULL);
	assert_int_equal(o.before, -1);
	assert_int_equal(o.after, 3);
	assert_int_equal(o.unregistered, 0);
	assert_int_equal(lookup(skel), 9);
	assert_int_equal(mb_thread_slot_unregister(fd), 0);
	assert_int_equal(lookup(skel), -1);
	assert_int_equal(mb_thread_slot_unregister(fd), -ENOENT);
	/* A slot past the programs' arrays, written around the register call: not found. */
	assert_int_equal(bpf_map_update_elem(fd, &tid, &big, BPF_ANY), 0);
	assert_int_equal(lookup(skel), -1);
	thread_slots_test_bpf__destroy(skel);
}

/* Without a map: the error, not a crash. */
static void test_bad_fd(void **state)
{
	(void)state;
	assert_int_equal(mb_thread_slot_register(-1, 0), -EBADF);
	assert_int_equal(mb_thread_slot_unregister(-1), -EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_register),
		cmocka_unit_test(test_bad_fd),
	};

	mb_log_init(true, false, stdout);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
