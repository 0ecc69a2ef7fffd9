// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * A network namespace of the run's own and devices made in it (sys/netns, sys/veth): the
 * namespace differs from the thread's own and holds only lo; a veth pair made inside is
 * there and set up, unseen from home; a veth removed takes its peer; the thread returns home
 * each time; a closed namespace's fd is gone. As root only (skipped otherwise). A bad name
 * is refused without a kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <setjmp.h>
#include <cmocka.h>

#include "sys/netns.h"
#include "sys/veth.h"

static unsigned long self_inode(void)
{
	struct stat sb;

	return stat("/proc/thread-self/ns/net", &sb) ? 0 : (unsigned long)sb.st_ino;
}

static bool is_up(const char *name)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	bool up;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	up = fd >= 0 && !ioctl(fd, SIOCGIFFLAGS, &ifr) && (ifr.ifr_flags & IFF_UP);
	if (fd >= 0)
		close(fd);
	return up;
}

static void test_bad_names(void **state)
{
	(void)state;
	assert_int_equal(mb_veth_add("a_name_longer_than_15", "b"), -ENAMETOOLONG);
	assert_int_equal(mb_veth_add("a", "a_name_longer_than_15"), -ENAMETOOLONG);
}

static void test_veth_in_netns(void **state)
{
	unsigned long home_ino = self_inode();
	struct mb_netns ns;
	char why[256];
	int home = -1, a, b;

	(void)state;
	if (geteuid())
		skip();
	assert_int_equal(mb_netns_make(&ns, why, sizeof(why)), 0);
	assert_true(ns.fd >= 0);
	assert_true(ns.inode && ns.inode != home_ino);
	assert_int_equal(self_inode(), home_ino);

	assert_int_equal(mb_netns_enter(&ns, &home), 0);
	assert_int_equal(self_inode(), ns.inode);
	assert_int_equal(if_nametoindex("lo"), 1);
	assert_int_equal(mb_veth_add("mb_tveth0", "mb_tveth1"), 0);
	assert_int_equal(mb_veth_add("mb_tveth0", "mb_tveth2"), -EEXIST);
	a = (int)if_nametoindex("mb_tveth0");
	b = (int)if_nametoindex("mb_tveth1");
	assert_true(a > 1 && b > 1 && a != b);
	assert_false(is_up("mb_tveth0"));
	assert_int_equal(mb_link_set_up(a), 0);
	assert_true(is_up("mb_tveth0"));
	assert_int_equal(mb_link_set_up(1), 0);
	assert_true(is_up("lo"));
	assert_int_equal(mb_netns_leave(&home), 0);
	assert_int_equal(home, -1);
	assert_int_equal(self_inode(), home_ino);
	/* Made inside, unseen from home (the name is the test's own). */
	assert_int_equal(if_nametoindex("mb_tveth1"), 0);

	assert_int_equal(mb_netns_enter(&ns, &home), 0);
	assert_int_equal(mb_link_del(a), 0);
	assert_int_equal(if_nametoindex("mb_tveth0"), 0);
	assert_int_equal(if_nametoindex("mb_tveth1"), 0);
	assert_int_equal(mb_link_del(a), -ENODEV);
	assert_int_equal(mb_netns_leave(&home), 0);
	mb_netns_close(&ns);
	assert_int_equal(ns.fd, -1);
	mb_netns_close(&ns);	/* twice: nothing to do */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_veth_in_netns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
