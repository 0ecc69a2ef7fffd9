// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * sys/tcp_pair: the port range's count, pairs that carry data both ways with cookies of
 * their own, and a close that leaves the process's fds as they were.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <unistd.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "sys/tcp_pair.h"

static int nr_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void test_port_range(void **state)
{
	(void)state;
	assert_true(mb_port_range_count("32768\t60999\n") == 28232);
	assert_true(mb_port_range_count("1024 1024") == 1);
	assert_true(mb_port_range_count("1 65535\n") == 65535);
	assert_true(mb_port_range_count("60999 32768") == 0);
	assert_true(mb_port_range_count("0 100") == 0);
	assert_true(mb_port_range_count("100 65536") == 0);
	assert_true(mb_port_range_count("100") == 0);
	assert_true(mb_port_range_count("100 200 x") == 0);
	assert_true(mb_port_range_count("") == 0);
	assert_true(mb_port_range_count(NULL) == 0);
}

static void test_limit(void **state)
{
	struct mb_tcp_limit lim;

	(void)state;
	assert_int_equal(mb_tcp_pairs_limit(10, &lim), 0);
	assert_true(lim.ports > 0 && lim.fds_open > 0);
	assert_true(lim.max_pairs <= lim.ports);
	assert_true(lim.max_pairs * 2 + lim.fds_open + 10 < lim.nofile_hard + 1);
	assert_int_equal(mb_nofile_reserve(8), 0);
	assert_int_equal(mb_nofile_reserve(UINT64_MAX / 4), -EMFILE);
}

static void test_pairs(void **state)
{
	struct mb_tcp_pairs tp = { 0 };
	uint64_t c[6];
	int before = nr_fds();
	char buf[4];

	(void)state;
	mb_tcp_pairs_close(&tp);	/* a zeroed one: nothing to close */
	assert_int_equal(nr_fds(), before);
	assert_int_equal(mb_tcp_pairs_open(&tp, 3), 0);
	assert_int_equal(tp.nr, 3);
	assert_int_equal(nr_fds(), before + 7);
	for (int i = 0; i < 3; i++) {
		/* Each end reaches its own partner, both ways. */
		assert_int_equal(send(tp.fd[2 * i], "ab", 2, 0), 2);
		assert_int_equal(recv(tp.fd[2 * i + 1], buf, sizeof(buf), 0), 2);
		assert_int_equal(send(tp.fd[2 * i + 1], "xyz", 3, 0), 3);
		assert_int_equal(recv(tp.fd[2 * i], buf, sizeof(buf), 0), 3);
	}
	for (int i = 0; i < 6; i++) {
		assert_int_equal(mb_sock_cookie(tp.fd[i], &c[i]), 0);
		assert_true(c[i] != 0);
		for (int j = 0; j < i; j++)
			assert_true(c[i] != c[j]);
	}
	mb_tcp_pairs_close(&tp);
	assert_int_equal(nr_fds(), before);
	mb_tcp_pairs_close(&tp);	/* twice: nothing more */
	assert_int_equal(mb_tcp_pairs_open(&tp, 0), 0);
	assert_int_equal(nr_fds(), before + 1);
	mb_tcp_pairs_close(&tp);
	assert_int_equal(nr_fds(), before);
	assert_int_equal(mb_sock_cookie(-1, &c[0]), -EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_port_range),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_pairs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
