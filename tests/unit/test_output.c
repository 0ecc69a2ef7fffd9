// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The check of an output path before anything runs, and the atomic writer it vouches for. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <cmocka.h>

#include "util/outfile.h"

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

static int write_bye(FILE *f, void *ctx)
{
	(void)ctx;
	return fputs("bye\n", f) < 0 ? -EIO : 0;
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

static void read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* A link stays a link; the file it names (in another directory) gets the content. */
static void test_symlink(void **state)
{
	char sub[128], real[160], link[128], got[64], why[256];
	struct stat st;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	snprintf(real, sizeof(real), "%s/real.json", sub);
	snprintf(link, sizeof(link), "%s/link.json", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(mb_write_atomic(real, write_bye, NULL, why, sizeof(why)), 0);
	assert_int_equal(symlink("sub/real.json", link), 0);
	assert_int_equal(mb_output_check(link, why, sizeof(why)), 0);
	assert_int_equal(mb_write_atomic(link, write_hello, NULL, why, sizeof(why)), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	read_file(real, got, sizeof(got));
	assert_string_equal(got, "hello\n");
	assert_int_equal(entries(dir), 2);	/* sub and the link: no temporary file */
	assert_int_equal(entries(sub), 1);
}

/* A link to nothing is refused by the check and the writer, and nothing is made. */
static void test_dangling(void **state)
{
	char link[128], why[256];

	(void)state;
	snprintf(link, sizeof(link), "%s/link.json", dir);
	assert_int_equal(symlink("nothere.json", link), 0);
	assert_int_equal(mb_output_check(link, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "symbolic link to nothere.json, which does not exist"));
	assert_int_equal(mb_write_atomic(link, write_hello, NULL, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "link.json: symbolic link to nothere.json"));
	assert_int_equal(entries(dir), 1);
}

/* A FIFO is written into, not renamed over: the reader opened first gets the content. */
static void test_fifo(void **state)
{
	char fifo[128], got[64] = "", why[256];
	struct stat st;
	int rd;

	(void)state;
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	rd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	assert_true(rd >= 0);
	assert_int_equal(mb_write_atomic(fifo, write_hello, NULL, why, sizeof(why)), 0);
	assert_int_equal(read(rd, got, sizeof(got) - 1), 6);
	assert_string_equal(got, "hello\n");
	close(rd);
	assert_int_equal(stat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(entries(dir), 1);
}

/* Character devices made here (root only): null takes the write, full fails it (ENOSPC). */
static void test_chardev(void **state)
{
	char null[128], full[128], why[256];
	struct stat st;

	(void)state;
	snprintf(null, sizeof(null), "%s/null", dir);
	snprintf(full, sizeof(full), "%s/full", dir);
	if (mknod(null, S_IFCHR | 0600, makedev(1, 3)) || mknod(full, S_IFCHR | 0600, makedev(1, 7)))
		skip();
	assert_int_equal(mb_output_check(full, why, sizeof(why)), 0);
	assert_int_equal(mb_write_atomic(null, write_hello, NULL, why, sizeof(why)), 0);
	assert_int_equal(mb_write_atomic(full, write_hello, NULL, why, sizeof(why)), -ENOSPC);
	assert_non_null(strstr(why, "/full: No space left on device"));
	assert_int_equal(stat(null, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(stat(full, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(entries(dir), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_writable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwritable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_regular, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dangling, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_chardev, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
