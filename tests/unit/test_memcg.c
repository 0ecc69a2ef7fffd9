// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Memory cgroup module: file parsing and the v1/v2 choice over fake cgroup folders, and (as
 * root, where a memory cgroup exists) one real enter/read/leave round trip.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fake_tree.h"

#include "sys/memcg.h"

static char tmp[256];

static void put(const char *rel, const char *text)
{
	fake_tree_put(tmp, rel, text);
}

static void mkdirs(const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s/.keep", tmp, rel);
	put(path + strlen(tmp) + 1, "");
}

static int setup_tmp(void **state)
{
	(void)state;
	assert_int_equal(fake_tree_make(tmp, sizeof(tmp), "mb-memcg-test"), 0);
	return 0;
}

static int teardown_tmp(void **state)
{
	(void)state;
	assert_int_equal(fake_tree_remove(tmp), 0);
	return 0;
}

static void test_parse_u64(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(mb_memcg_parse_u64("123\n", &v), 0);
	assert_int_equal(v, 123);
	assert_int_equal(mb_memcg_parse_u64("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(mb_memcg_parse_u64("max\n", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(mb_memcg_parse_u64("9223372036854771712\n", &v), 0);
	assert_true(v == 9223372036854771712ULL);
	assert_int_equal(mb_memcg_parse_u64("18446744073709551616", &v), -EINVAL);
	assert_int_equal(mb_memcg_parse_u64("", &v), -EINVAL);
	assert_int_equal(mb_memcg_parse_u64("-1", &v), -EINVAL);
	assert_int_equal(mb_memcg_parse_u64("12 34", &v), -EINVAL);
	assert_int_equal(mb_memcg_parse_u64("12x", &v), -EINVAL);
}

static void test_parse_stat(void **state)
{
	const char *stat = "anon 4096\nfile 0\nkernel_stack 16384\nkernel 123456\nslab 99\n";
	uint64_t v;

	(void)state;
	/* "kernel" must not match "kernel_stack". */
	assert_int_equal(mb_memcg_parse_stat(stat, "kernel", &v), 0);
	assert_int_equal(v, 123456);
	assert_int_equal(mb_memcg_parse_stat(stat, "anon", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(mb_memcg_parse_stat(stat, "slab", &v), 0);
	assert_int_equal(v, 99);
	assert_int_equal(mb_memcg_parse_stat(stat, "percpu", &v), -ENOENT);
	assert_int_equal(mb_memcg_parse_stat("kernel x\n", "kernel", &v), -EINVAL);
	assert_int_equal(mb_memcg_parse_stat("", "kernel", &v), -ENOENT);
}

static void test_list_has(void **state)
{
	(void)state;
	assert_true(mb_memcg_list_has("cpuset cpu io memory pids\n", "memory"));
	assert_true(mb_memcg_list_has("memory", "memory"));
	assert_false(mb_memcg_list_has("cpu memoryx hugetlb\n", "memory"));
	assert_false(mb_memcg_list_has("hugetlb\n", "memory"));
	assert_false(mb_memcg_list_has("", "memory"));
}

static void test_parse_self(void **state)
{
	char v1[256], v2[256];

	(void)state;
	assert_int_equal(mb_memcg_parse_self("9:name=systemd:/\n4:memory:/process_api/abc\n"
					     "3:cpuset:/\n0::/\n", v1, sizeof(v1), v2, sizeof(v2)),
			 3);
	assert_string_equal(v1, "/process_api/abc");
	assert_string_equal(v2, "/");
	/* Controllers joined with commas; paths may contain ':' */
	assert_int_equal(mb_memcg_parse_self("5:cpu,memory,pids:/a:b\n", v1, sizeof(v1), v2,
					     sizeof(v2)), 1);
	assert_string_equal(v1, "/a:b");
	assert_int_equal(mb_memcg_parse_self("0::/user.slice/x.scope\n", v1, sizeof(v1), v2,
					     sizeof(v2)), 2);
	assert_string_equal(v2, "/user.slice/x.scope");
	assert_int_equal(mb_memcg_parse_self("2:cpu:/\n", v1, sizeof(v1), v2, sizeof(v2)), 0);
	assert_int_equal(mb_memcg_parse_self("", v1, sizeof(v1), v2, sizeof(v2)), 0);
	assert_int_equal(mb_memcg_parse_self("garbage\n", v1, sizeof(v1), v2, sizeof(v2)), 0);
}

static void test_name_parse(void **state)
{
	pid_t pid = 0;

	(void)state;
	assert_true(mb_memcg_name_parse("mapbench-1234-1", &pid));
	assert_int_equal(pid, 1234);
	assert_false(mb_memcg_name_parse("mapbench-1234", &pid));
	assert_false(mb_memcg_name_parse("mapbench--1", &pid));
	assert_false(mb_memcg_name_parse("mapbench-0-1", &pid));
	assert_false(mb_memcg_name_parse("mapbench-12-1x", &pid));
	assert_false(mb_memcg_name_parse("other-12-1", &pid));
	assert_false(mb_memcg_name_parse("mapbench-0617-17", &pid));
	assert_false(mb_memcg_name_parse("mapbench-617-07", &pid));
	/* Larger than any pid (found by fuzz_memcg). */
	assert_false(mb_memcg_name_parse("mapbench-2244444444-4", &pid));
	assert_true(mb_memcg_name_parse("mapbench-2147483647-4", &pid));
}

static void expect_site(const char *self, int version, const char *parent, const char *home)
{
	struct mb_memcg_site site;
	char why[512] = "", want[PATH_MAX * 2];

	assert_int_equal(mb_memcg_detect(tmp, self, &site, why, sizeof(why)), 0);
	assert_int_equal(site.version, version);
	snprintf(want, sizeof(want), "%s%s", tmp, parent);
	assert_string_equal(site.parent, want);
	snprintf(want, sizeof(want), "%s%s", tmp, home);
	assert_string_equal(site.home, want);
}

static void expect_none(const char *self, const char *part)
{
	struct mb_memcg_site site;
	char why[1024] = "";

	assert_int_equal(mb_memcg_detect(tmp, self, &site, why, sizeof(why)), -ENOENT);
	assert_int_equal(site.version, MB_MEMCG_NONE);
	if (!strstr(why, part))
		fail_msg("reason '%s' lacks '%s'", why, part);
}

/* This machine's layout: hybrid, v2 without memory, v1 memory with nested cgroups. */
/* Only mapbench-<pid>-<n> folders of dead processes go. */
static void test_reap_stale(void **state)
{
	char name[64], path[PATH_MAX * 2];
	pid_t dead = fork();
	int failed;

	(void)state;
	if (dead == 0)
		_exit(0);
	assert_true(dead > 0);
	assert_int_equal(waitpid(dead, NULL, 0), dead);
	snprintf(name, sizeof(name), "mapbench-%d-2", (int)dead);
	mkdirs(name);
	snprintf(name, sizeof(name), "mapbench-%d-3", (int)getpid());
	mkdirs(name);
	mkdirs("mapbench-1-1");		/* init is alive */
	mkdirs("mapbench-12x");		/* not our name */
	mkdirs("other");
	/* mkdirs leaves a .keep file; the reaper must only remove empty folders. */
	snprintf(path, sizeof(path), "%s/mapbench-%d-2/.keep", tmp, (int)dead);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mb_memcg_reap_stale(tmp, &failed), 1);
	assert_int_equal(failed, 0);
	snprintf(path, sizeof(path), "%s/mapbench-%d-2", tmp, (int)dead);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/mapbench-%d-3", tmp, (int)getpid());
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/mapbench-1-1", tmp);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/mapbench-12x", tmp);
	assert_int_equal(access(path, F_OK), 0);
	/* The cgroups a dead run made below its own go with it, depth first. */
	snprintf(name, sizeof(name), "mapbench-%d-4/o0/inner", (int)dead);
	mkdirs(name);
	snprintf(path, sizeof(path), "%s/%s/.keep", tmp, name);
	assert_int_equal(unlink(path), 0);
	snprintf(name, sizeof(name), "mapbench-%d-4/o1", (int)dead);
	mkdirs(name);
	snprintf(path, sizeof(path), "%s/%s/.keep", tmp, name);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mb_memcg_reap_stale(tmp, &failed), 1);
	assert_int_equal(failed, 0);
	snprintf(path, sizeof(path), "%s/mapbench-%d-4", tmp, (int)dead);
	assert_int_equal(access(path, F_OK), -1);
	/* A folder that cannot be removed is counted, not fatal. */
	snprintf(name, sizeof(name), "mapbench-%d-1", (int)dead);
	mkdirs(name);
	assert_int_equal(mb_memcg_reap_stale(tmp, &failed), 0);
	assert_int_equal(failed, 1);
	assert_int_equal(mb_memcg_reap_stale("/nonexistent", &failed), 0);
}

static void test_detect_hybrid_v1(void **state)
{
	(void)state;
	put("unified/cgroup.controllers", "hugetlb\n");
	put("unified/cgroup.subtree_control", "\n");
	put("memory/memory.usage_in_bytes", "44261376\n");
	put("memory/memory.kmem.usage_in_bytes", "1000\n");
	put("memory/process_api/abc/memory.usage_in_bytes", "100\n");
	expect_site("4:memory:/process_api/abc\n0::/\n", MB_MEMCG_V1, "/memory/process_api/abc",
		    "/memory/process_api/abc");
	/* Own cgroup not visible (another namespace): the v1 root. */
	expect_site("4:memory:/elsewhere\n0::/\n", MB_MEMCG_V1, "/memory", "/memory");
	expect_site("", MB_MEMCG_V1, "/memory", "/memory");
	{
		struct mb_memcg_site site;
		char why[256];

		assert_int_equal(mb_memcg_detect(tmp, "", &site, why, sizeof(why)), 0);
		assert_true(site.kmem);
	}
}

static void test_detect_v2_root(void **state)
{
	(void)state;
	put("cgroup.controllers", "cpuset cpu io memory pids\n");
	put("cgroup.subtree_control", "cpu memory pids\n");
	put("user.slice/x.scope/cgroup.controllers", "cpu memory pids\n");
	put("user.slice/x.scope/cgroup.subtree_control", "\n");
	/* Children of the root; the process returns to its own cgroup. */
	expect_site("0::/user.slice/x.scope\n", MB_MEMCG_V2, "", "/user.slice/x.scope");
	/* In the root cgroup itself. */
	expect_site("0::/\n", MB_MEMCG_V2, "", "");
	/* v2 wins over v1 where its memory controller is on. */
	put("memory/memory.usage_in_bytes", "1\n");
	expect_site("0::/user.slice/x.scope\n4:memory:/\n", MB_MEMCG_V2, "",
		    "/user.slice/x.scope");
}

static void test_detect_v2_own(void **state)
{
	(void)state;
	put("cgroup.controllers", "cpu memory\n");
	put("cgroup.subtree_control", "cpu\n");
	put("deleg/cgroup.controllers", "memory\n");
	put("deleg/cgroup.subtree_control", "memory\n");
	/* A delegated cgroup with memory enabled for its children: nest there. */
	expect_site("0::/deleg\n", MB_MEMCG_V2, "/deleg", "/deleg");
}

static void test_detect_v2_without_memory(void **state)
{
	(void)state;
	put("cgroup.controllers", "cpu io pids\n");
	put("cgroup.subtree_control", "cpu\n");
	mkdirs("a");
	expect_none("0::/a\n", "has no memory controller enabled");
	expect_none("0::/a\n", "no cgroup v1 memory hierarchy at");
	/* Falls back to v1 where it is mounted beside. */
	put("memory/memory.usage_in_bytes", "1\n");
	expect_site("0::/a\n", MB_MEMCG_V1, "/memory", "/memory");
}

static void test_detect_nothing(void **state)
{
	(void)state;
	expect_none("0::/\n", "no memory cgroup");
	put("unified/cgroup.controllers", "memory\n");
	put("unified/cgroup.subtree_control", "memory\n");
	expect_none("", "this process is in no v2 cgroup");
}

static void test_read_v1(void **state)
{
	struct mb_memcg cg = { .version = MB_MEMCG_V1, .kmem = true };
	struct mb_memcg_usage u;

	(void)state;
	put("memory/x/memory.usage_in_bytes", "1048576\n");
	put("memory/x/memory.max_usage_in_bytes", "2097152\n");
	put("memory/x/memory.kmem.usage_in_bytes", "933888\n");
	put("memory/x/memory.kmem.max_usage_in_bytes", "940000\n");
	snprintf(cg.path, sizeof(cg.path), "%s/memory/x", tmp);
	assert_int_equal(mb_memcg_read(&cg, &u), 0);
	assert_int_equal(u.usage, 1048576);
	assert_true(u.has_peak && u.peak == 2097152);
	assert_true(u.has_kmem && u.kmem == 933888);
	assert_true(u.has_kmem_peak && u.kmem_peak == 940000);
	/* v1: kernel memory is the charged figure. */
	assert_int_equal(u.charged, 933888);
	assert_string_equal(mb_memcg_charged_name(&cg), "memory.kmem.usage_in_bytes");
	/* A peak reset writes 0 to the max_usage files. */
	assert_int_equal(mb_memcg_reset_peak(&cg), 0);
	assert_true(cg.peak_reset);
	assert_int_equal(mb_memcg_read(&cg, &u), 0);
	assert_true(u.peak == 0 && u.kmem_peak == 0);
	cg.kmem = false;
	assert_int_equal(mb_memcg_read(&cg, &u), 0);
	assert_int_equal(u.charged, 1048576);
	put("memory/x/memory.usage_in_bytes", "garbage\n");
	assert_int_equal(mb_memcg_read(&cg, &u), -EINVAL);
	snprintf(cg.path, sizeof(cg.path), "%s/memory/missing", tmp);
	assert_int_equal(mb_memcg_read(&cg, &u), -ENOENT);
}

static void test_read_v2(void **state)
{
	struct mb_memcg cg = { .version = MB_MEMCG_V2 };
	struct mb_memcg_usage u;

	(void)state;
	put("cg/memory.current", "4194304\n");
	put("cg/memory.stat", "anon 0\nkernel_stack 0\nkernel 3000000\n");
	snprintf(cg.path, sizeof(cg.path), "%s/cg", tmp);
	/* Before 5.19 there is no memory.peak. */
	assert_int_equal(mb_memcg_read(&cg, &u), 0);
	assert_int_equal(u.usage, 4194304);
	assert_false(u.has_peak);
	assert_true(u.has_kmem && u.kmem == 3000000);
	assert_false(u.has_kmem_peak);
	assert_int_equal(u.charged, 4194304);
	assert_string_equal(mb_memcg_charged_name(&cg), "memory.current");
	put("cg/memory.peak", "5000000\n");
	assert_int_equal(mb_memcg_read(&cg, &u), 0);
	assert_true(u.has_peak && u.peak == 5000000);
	/* The reset keeps memory.peak open: reads go through that descriptor. */
	assert_int_equal(mb_memcg_reset_peak(&cg), 0);
	assert_true(cg.has_peak_fd && cg.peak_reset);
	put("cg/memory.peak", "42\n");
	assert_int_equal(mb_memcg_read(&cg, &u), 0);
	assert_true(u.has_peak && u.peak == 42);
	cg.created = false;
	assert_int_equal(mb_memcg_leave(&cg), 0);
	assert_false(cg.has_peak_fd);
}

static void test_wait_release(void **state)
{
	struct mb_memcg cg = { .version = MB_MEMCG_V2 };
	struct mb_memcg_wait w;

	(void)state;
	put("cg/memory.current", "1000\n");
	snprintf(cg.path, sizeof(cg.path), "%s/cg", tmp);
	/* Already at the target. */
	assert_int_equal(mb_memcg_wait_release(&cg, 1000, 50, 1000, NULL, &w), 0);
	assert_true(w.reached);
	assert_int_equal(w.release_ms, 0);
	/* Never falls: settles after the settle time, well before the timeout. */
	assert_int_equal(mb_memcg_wait_release(&cg, 10, 30, 5000, NULL, &w), 0);
	assert_false(w.reached);
	assert_true(w.settled);
	assert_true(w.waited_ms >= 30 && w.waited_ms < 5000);
	/* Timeout first. */
	assert_int_equal(mb_memcg_wait_release(&cg, 10, 5000, 30, NULL, &w), 0);
	assert_false(w.reached || w.settled);
	assert_int_equal(w.end_bytes, 1000);
}

static void test_enter_failure_leaves_nothing(void **state)
{
	struct mb_memcg_site site = { .version = MB_MEMCG_V1 };
	struct mb_memcg cg;
	char why[512] = "", path[PATH_MAX * 2];

	(void)state;
	/* A plain folder: mkdir works, joining fails (no cgroup.procs), the folder goes. */
	mkdirs("memory/home");
	snprintf(site.parent, sizeof(site.parent), "%s/memory/home", tmp);
	snprintf(site.home, sizeof(site.home), "%s/memory/home", tmp);
	assert_int_equal(mb_memcg_enter(&site, &cg, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "cannot move this process into the memory cgroup"));
	assert_false(cg.created || cg.joined);
	snprintf(path, sizeof(path), "%s", cg.path);
	assert_int_equal(access(path, F_OK), -1);
	/* v2 without memory.current in the child: refused, removed. */
	site.version = MB_MEMCG_V2;
	assert_int_equal(mb_memcg_enter(&site, &cg, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "has no memory.current"));
	assert_int_equal(access(cg.path, F_OK), -1);
	/* No writable parent. */
	snprintf(site.parent, sizeof(site.parent), "%s/no/such/dir", tmp);
	assert_int_equal(mb_memcg_enter(&site, &cg, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "cannot create the memory cgroup"));
	site.version = MB_MEMCG_NONE;
	assert_int_equal(mb_memcg_enter(&site, &cg, why, sizeof(why)), -ENOENT);
}

/* The real thing, where this machine has a memory cgroup and we may use it. */
static void test_real_round_trip(void **state)
{
	struct mb_memcg_usage u;
	struct mb_memcg cg;
	char why[1024], path[PATH_MAX];
	const char *name;
	pid_t pid = 0;

	(void)state;
	if (geteuid() != 0 || getenv(MB_MEMCG_ROOT_ENV)) {
		skip();
		return;
	}
	if (mb_memcg_enter_self(&cg, why, sizeof(why))) {
		print_message("no memory cgroup here: %s\n", why);
		skip();
		return;
	}
	snprintf(path, sizeof(path), "%s", cg.path);
	name = strrchr(path, '/') + 1;
	assert_true(mb_memcg_name_parse(name, &pid));
	assert_int_equal(pid, getpid());
	assert_true(cg.joined && cg.created);
	assert_int_equal(mb_memcg_read(&cg, &u), 0);
	assert_true(u.has_peak);
	assert_int_equal(mb_memcg_reset_peak(&cg), 0);
	assert_int_equal(mb_memcg_leave(&cg), 0);
	assert_false(cg.joined || cg.created);
	assert_int_equal(access(path, F_OK), -1);
	/* Idempotent. */
	assert_int_equal(mb_memcg_leave(&cg), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_list_has),
		cmocka_unit_test(test_parse_self),
		cmocka_unit_test(test_name_parse),
		cmocka_unit_test_setup_teardown(test_reap_stale, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_detect_hybrid_v1, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_detect_v2_root, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_detect_v2_own, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_detect_v2_without_memory, setup_tmp,
						teardown_tmp),
		cmocka_unit_test_setup_teardown(test_detect_nothing, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_read_v1, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_read_v2, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_wait_release, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_enter_failure_leaves_nothing, setup_tmp,
						teardown_tmp),
		cmocka_unit_test(test_real_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
