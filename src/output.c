// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "output.h"

static int finish_file(FILE *f, int (*write)(FILE *f, void *ctx), void *ctx)
{
	int err = write(f, ctx);

	if (!err && fflush(f))
		err = -errno;
	if (!err && fsync(fileno(f)))
		err = -errno;
	if (!err && ferror(f))
		err = -EIO;
	return err;
}

int mb_write_atomic(const char *path, int (*write)(FILE *f, void *ctx), void *ctx, char *err,
		    size_t errlen)
{
	char *dup = strdup(path), *tmp = NULL, proc[64];
	const char *dir;
	mode_t mask;
	int fd, ret = 0;
	FILE *f;

	if (!dup)
		return -ENOMEM;
	dir = dirname(dup);
	mask = umask(0);
	umask(mask);
	if (asprintf(&tmp, "%s.tmp.%d", path, (int)getpid()) < 0) {
		tmp = NULL;
		ret = -ENOMEM;
		goto out;
	}
	/* An O_TMPFILE file has no name until it is complete. */
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666 & ~mask);
	if (fd >= 0) {
		f = fdopen(fd, "w");
		if (!f) {
			ret = -errno;
			close(fd);
			goto fail;
		}
		ret = finish_file(f, write, ctx);
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		if (!ret && linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW))
			ret = -errno;
		fclose(f);
	} else {
		fd = open(tmp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0666 & ~mask);
		if (fd < 0) {
			ret = -errno;
			goto fail;
		}
		f = fdopen(fd, "w");
		if (!f) {
			ret = -errno;
			close(fd);
			unlink(tmp);
			goto fail;
		}
		ret = finish_file(f, write, ctx);
		fclose(f);
	}
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
fail:
	if (ret)
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
out:
	free(tmp);
	free(dup);
	return ret;
}

/* Create and remove a named file in @dir, as the writer does without O_TMPFILE: 0 or errno. */
static int try_named_file(const char *dir)
{
	char *name;
	int fd, err = 0;

	if (asprintf(&name, "%s/.mapbench-check.%d", dir, (int)getpid()) < 0)
		return ENOMEM;
	fd = open(name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = errno;
	} else {
		close(fd);
		unlink(name);
	}
	free(name);
	return err;
}

int mb_output_check_dir(const char *dir, char *why, size_t len)
{
	struct stat st;
	int fd, err;

	if (stat(dir, &st)) {
		err = errno;
		if (err == ENOENT)
			snprintf(why, len, "directory %s does not exist", dir);
		else
			snprintf(why, len, "directory %s: %s", dir, strerror(err));
		return -err;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s is not a directory", dir);
		return -ENOTDIR;
	}
	/* What the writer will do: an unnamed file, gone when closed. */
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	err = errno;
	/* No O_TMPFILE here: the writer then uses a named temporary file, and so does this. */
	if (err == EOPNOTSUPP || err == EISDIR || err == EINVAL)
		err = try_named_file(dir);
	if (!err)
		return 0;
	snprintf(why, len, "cannot create files in %s: %s", dir, strerror(err));
	return -err;
}

int mb_output_check(const char *path, char *why, size_t len)
{
	size_t n = strlen(path);
	struct stat st;
	char *dup;
	int ret;

	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(why, len, "is a directory");
			return -EISDIR;
		}
		if (!S_ISREG(st.st_mode))
			return 0;
	}
	if (n && path[n - 1] == '/') {
		snprintf(why, len, "ends in '/': names a directory, not a file");
		return -EISDIR;
	}
	dup = strdup(path);
	if (!dup) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	ret = mb_output_check_dir(dirname(dup), why, len);
	free(dup);
	return ret;
}
