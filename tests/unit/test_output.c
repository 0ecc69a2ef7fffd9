// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The check of an output path before anything runs, and the atomic writer it vouches for. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "output.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/mb-test-output.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* Entries of @d other than . and .. */
static int entries(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	int n = 0;

	assert_non_null(dp);
	while ((e = readdir(dp)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dp);
	return n;
}

static int write_hello(FILE *f, void *ctx)
{
	(void)ctx;
	return fputs("hello\n", f) < 0 ? -EIO : 0;
}

static void test_writable(void **state)
{
	char path[128], why[256] = "";

	(void)state;
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(mb_output_check(path, why, sizeof(why)), 0);
	assert_int_equal(entries(dir), 0);	/* the probe leaves nothing */
	assert_int_equal(mb_write_atomic(path, write_hello, NULL, why, sizeof(why)), 0);
	/* An existing regular file is replaced, so it passes too. */
	assert_int_equal(mb_output_check(path, why, sizeof(why)), 0);
	assert_int_equal(entries(dir), 1);
}

static void test_refused(void **state)
{
	char path[128], file[128], why[256];

	(void)state;
	snprintf(path, sizeof(path), "%s/missing/r.json", dir);
	assert_int_equal(mb_output_check(path, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "missing does not exist"));

	snprintf(file, sizeof(file), "%s/file", dir);
	assert_int_equal(mb_write_atomic(file, write_hello, NULL, why, sizeof(why)), 0);
	snprintf(path, sizeof(path), "%s/file/r.json", dir);
	assert_int_equal(mb_output_check(path, why, sizeof(why)), -ENOTDIR);
	assert_non_null(strstr(why, "/file is not a directory"));

	assert_int_equal(mb_output_check(dir, why, sizeof(why)), -EISDIR);
	assert_string_equal(why, "is a directory");
	snprintf(path, sizeof(path), "%s/new/", dir);
	assert_int_equal(mb_output_check(path, why, sizeof(why)), -EISDIR);
	assert_int_equal(entries(dir), 1);
}

/* Unwritable by mode: only refused where the mode binds (not as root). */
static void test_unwritable(void **state)
{
	char sub[128], path[160], why[256];

	(void)state;
	snprintf(sub, sizeof(sub), "%s/ro", dir);
	assert_int_equal(mkdir(sub, 0555), 0);
	snprintf(path, sizeof(path), "%s/r.json", sub);
	if (geteuid() == 0)
		assert_int_equal(mb_output_check(path, why, sizeof(why)), 0);
	else
		assert_int_equal(mb_output_check(path, why, sizeof(why)), -EACCES);
	assert_int_equal(entries(sub), 0);
	chmod(sub, 0755);
}

/* /dev/null, a pipe (what /dev/stdout often is): not refused, whatever /dev's mode. */
static void test_not_regular(void **state)
{
	char fifo[128], why[256];

	(void)state;
	assert_int_equal(mb_output_check("/dev/null", why, sizeof(why)), 0);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(mb_output_check(fifo, why, sizeof(why)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_writable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwritable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_regular, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
