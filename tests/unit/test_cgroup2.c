// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The cgroup v2 directory a run joins (sys/cgroup2): where v2 is found over fake cgroup
 * folders, a failed join in a fake hierarchy leaving nothing (and a stale
 * directory of a dead process reaped), and, as root where v2 exists, a real one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fake_tree.h"

#include "sys/cgroup2.h"
#include "sys/memcg.h"

static char tmp[256];

static void put(const char *rel, const char *text)
{
	fake_tree_put(tmp, rel, text);
}

static bool exists(const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	return !access(path, F_OK);
}

static int setup_tmp(void **state)
{
	(void)state;
	assert_int_equal(fake_tree_make(tmp, sizeof(tmp), "mb-cgroup2-test"), 0);
	return 0;
}

static int teardown_tmp(void **state)
{
	(void)state;
	unsetenv(MB_MEMCG_ROOT_ENV);
	assert_int_equal(fake_tree_remove(tmp), 0);
	return 0;
}

static void test_find(void **state)
{
	char mount[PATH_MAX], home[PATH_MAX], want[PATH_MAX * 2], why[512];

	(void)state;
	/* Nothing mounted: one reason naming both places. */
	assert_int_equal(mb_cgroup2_find(tmp, "0::/\n", mount, sizeof(mount), home, sizeof(home),
					 why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "no cgroup v2 hierarchy"));
	/* Hybrid: v2 at root/unified, the process in its root. */
	put("unified/cgroup.controllers", "");
	put("unified/cgroup.procs", "");
	assert_int_equal(mb_cgroup2_find(tmp, "4:memory:/x\n0::/\n", mount, sizeof(mount), home,
					 sizeof(home), why, sizeof(why)), 0);
	snprintf(want, sizeof(want), "%s/unified", tmp);
	assert_string_equal(mount, want);
	assert_string_equal(home, want);
	/* No "0::" line: no v2 cgroup. */
	assert_int_equal(mb_cgroup2_find(tmp, "4:memory:/x\n", mount, sizeof(mount), home,
					 sizeof(home), why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "in no v2 cgroup"));
	/* Unified at the root, the process in a nested cgroup that must exist. */
	put("cgroup.controllers", "memory\n");
	assert_int_equal(mb_cgroup2_find(tmp, "0::/a/b\n", mount, sizeof(mount), home,
					 sizeof(home), why, sizeof(why)), -ENOENT);
	put("a/b/cgroup.procs", "");
	assert_int_equal(mb_cgroup2_find(tmp, "0::/a/b\n", mount, sizeof(mount), home,
					 sizeof(home), why, sizeof(why)), 0);
	assert_string_equal(mount, tmp);
	snprintf(want, sizeof(want), "%s/a/b", tmp);
	assert_string_equal(home, want);
}

/* A fake hierarchy at $MAPBENCH_CGROUP_ROOT, usable only where this process is in v2's root. */
static bool in_v2_root(void)
{
	char self[4096] = "";
	int fd = open("/proc/self/cgroup", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, self, sizeof(self) - 1);

	if (fd >= 0)
		close(fd);
	self[n > 0 ? n : 0] = '\0';
	return strstr(self, "0::/\n") != NULL;
}

static void test_join_failure_leaves_nothing(void **state)
{
	struct mb_cgroup2 cg, zero = { 0 };
	char why[512], path[PATH_MAX * 2], name[64];

	(void)state;
	if (!in_v2_root())
		skip();
	/*
	 * A fake hierarchy: a fresh directory has no cgroup.procs (the kernel makes it), so the
	 * join fails there, and the directory made for it goes again.
	 */
	put("unified/cgroup.controllers", "");
	put("unified/cgroup.procs", "");
	/* A directory left by a killed mapbench (pid 2^22 + 1 is above pid_max): reaped. */
	put("unified/" MB_MEMCG_PREFIX "4194305-1/x", "");
	snprintf(path, sizeof(path), "%s/unified/" MB_MEMCG_PREFIX "4194305-1/x", tmp);
	assert_int_equal(unlink(path), 0);
	setenv(MB_MEMCG_ROOT_ENV, tmp, 1);
	assert_true(mb_cgroup2_enter(&cg, why, sizeof(why)) < 0);
	assert_false(exists("unified/" MB_MEMCG_PREFIX "4194305-1"));
	assert_non_null(strstr(why, "cannot move this process into the cgroup"));
	snprintf(name, sizeof(name), "/" MB_MEMCG_PREFIX "%d-", (int)getpid());
	assert_non_null(strstr(cg.path, name));
	snprintf(path, sizeof(path), "%s", cg.path);
	assert_int_equal(access(path, F_OK), -1);
	assert_false(cg.created || cg.joined || cg.has_fd);
	/* Idempotent, and harmless on a cgroup never entered. */
	assert_int_equal(mb_cgroup2_leave(&cg), 0);
	assert_int_equal(mb_cgroup2_leave(&zero), 0);
}

/* The process's own folder, under the root $MAPBENCH_CGROUP_ROOT names. */
static void test_self(void **state)
{
	char home[PATH_MAX], why[512], want[PATH_MAX * 2];

	(void)state;
	if (!in_v2_root())
		skip();
	setenv(MB_MEMCG_ROOT_ENV, tmp, 1);
	assert_int_equal(mb_cgroup2_self(home, sizeof(home), why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "no cgroup v2 hierarchy"));
	put("unified/cgroup.controllers", "");
	put("unified/cgroup.procs", "");
	assert_int_equal(mb_cgroup2_self(home, sizeof(home), why, sizeof(why)), 0);
	snprintf(want, sizeof(want), "%s/unified", tmp);
	assert_string_equal(home, want);
}

static void test_real_round_trip(void **state)
{
	struct mb_cgroup2 cg;
	char why[512], self[4096] = "";
	ssize_t n;
	int fd;

	(void)state;
	if (geteuid() || mb_cgroup2_enter(&cg, why, sizeof(why)))
		skip();
	fd = open("/proc/self/cgroup", O_RDONLY);
	n = fd < 0 ? -1 : read(fd, self, sizeof(self) - 1);
	if (fd >= 0)
		close(fd);
	self[n > 0 ? n : 0] = '\0';
	/* The process's v2 line now names the fresh directory. */
	assert_non_null(strstr(self, strrchr(cg.path, '/')));
	assert_int_equal(mb_cgroup2_leave(&cg), 0);
	assert_int_equal(access(cg.path, F_OK), -1);
}

/* make: the directory exists and is open, and the process stays where it was. */
static void test_real_make(void **state)
{
	struct mb_cgroup2 cg;
	char why[512], self[4096] = "";
	ssize_t n;
	int fd;

	(void)state;
	if (geteuid() || mb_cgroup2_make(&cg, why, sizeof(why)))
		skip();
	assert_true(cg.has_fd && cg.fd >= 0 && cg.created && !cg.joined);
	assert_int_equal(access(cg.path, F_OK), 0);
	fd = open("/proc/self/cgroup", O_RDONLY);
	n = fd < 0 ? -1 : read(fd, self, sizeof(self) - 1);
	if (fd >= 0)
		close(fd);
	self[n > 0 ? n : 0] = '\0';
	assert_null(strstr(self, strrchr(cg.path, '/')));
	assert_int_equal(mb_cgroup2_leave(&cg), 0);
	assert_int_equal(access(cg.path, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_find, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_join_failure_leaves_nothing, setup_tmp,
						teardown_tmp),
		cmocka_unit_test_setup_teardown(test_self, setup_tmp, teardown_tmp),
		cmocka_unit_test(test_real_round_trip),
		cmocka_unit_test(test_real_make),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
