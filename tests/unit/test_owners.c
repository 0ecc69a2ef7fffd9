// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * drivers/owners: the cgroup2 mount from mountinfo text, and 100 owners of each kind made,
 * keyed by a second fd, each with an id of its own, and destroyed with no fd, thread, cgroup
 * directory or file left.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "drivers/owners.h"

#define NR_OWNERS 100

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* Make and destroy NR_OWNERS of @kind; each one's second fd must name a live owner. */
static void make_destroy(enum mb_owner_kind kind)
{
	static struct mb_owner o[NR_OWNERS];
	static unsigned long long id[NR_OWNERS];
	int fds = count_entries("/proc/self/fd"), threads = count_entries("/proc/self/task");
	struct mb_owner_site s;
	char why[256], dir[PATH_MAX];
	struct stat st;

	if (mb_owner_site_open(&s, kind, why, sizeof(why))) {
		print_message("no %s owners here: %s\n", mb_owner_kind_name(kind), why);
		skip();
	}
	strcpy(dir, s.dir);
	for (int i = 0; i < NR_OWNERS; i++) {
		int fd;

		assert_int_equal(mb_owner_make(&s, &o[i]), 0);
		assert_true(o[i].fd >= 0);
		assert_non_null(o[i].how);
		fd = mb_owner_reopen(&o[i]);
		assert_true(fd >= 0);
		close(fd);
		/* Ids are distinct and not 0: a hash map keyed by them holds one entry each. */
		assert_int_equal(mb_owner_id(&o[i], &id[i]), 0);
		assert_true(id[i] != 0);
		for (int j = 0; j < i; j++)
			assert_true(id[j] != id[i]);
	}
	assert_non_null(mb_owner_id_name(kind));
	if (kind == MB_OWNER_TASK)
		assert_int_equal(count_entries("/proc/self/task"), threads + NR_OWNERS);
	if (dir[0])
		assert_int_equal(count_entries(dir) >= NR_OWNERS, 1);
	/* Half destroyed one by one, the rest by closing the site (its directory whole). */
	for (int i = 0; i < NR_OWNERS; i++)
		if (i % 2 || !dir[0])
			mb_owner_destroy(&o[i]);
		else if (o[i].fd >= 0)
			close(o[i].fd);
	mb_owner_site_close(&s);
	mb_owner_site_close(&s);
	assert_int_equal(count_entries("/proc/self/fd"), fds);
	assert_int_equal(count_entries("/proc/self/task"), threads);
	if (dir[0])
		assert_int_equal(stat(dir, &st), -1);
}

static void test_tasks(void **state)
{
	(void)state;
	make_destroy(MB_OWNER_TASK);
}

static void test_sockets(void **state)
{
	(void)state;
	make_destroy(MB_OWNER_SOCK);
}

static void test_cgroups(void **state)
{
	(void)state;
	make_destroy(MB_OWNER_CGRP);
}

static void test_files(void **state)
{
	(void)state;
	make_destroy(MB_OWNER_INODE);
}

static void test_self(void **state)
{
	struct mb_owner o;
	int fd;

	(void)state;
	assert_int_equal(mb_owner_self(&o), 0);
	fd = mb_owner_reopen(&o);
	assert_true(fd >= 0);
	close(fd);
	mb_owner_destroy(&o);
	assert_int_equal(o.fd, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tasks),
		cmocka_unit_test(test_sockets),
		cmocka_unit_test(test_cgroups),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_self),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
