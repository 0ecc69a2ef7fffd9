// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "outfile.h"

/*
 * Where a write to @path lands. A regular file is replaced whole: a temporary file beside it,
 * then rename(). A symbolic link is followed to the regular file it names, so the temporary
 * file goes into the target's directory and the rename replaces the target, not the link.
 * Anything else that exists (a character device, a FIFO, /dev/stdout on a pipe or terminal)
 * is written in place: renaming over it would put a regular file where the node was.
 */
struct target {
	char *path;	/* the file written: @path, or the regular file its links name */
	bool in_place;	/* not a regular file: opened and written, never renamed over */
};

/*
 * A link that names nothing is refused, as GNU cp does: writing through it would create a file
 * where the user did not name one.
 */
static int dangling(const char *path, int err, char *why, size_t len)
{
	char to[4096];
	ssize_t n = readlink(path, to, sizeof(to) - 1);

	to[n > 0 ? n : 0] = '\0';
	if (err == ENOENT)
		snprintf(why, len, "symbolic link to %s, which does not exist (%s)", to,
			 "not written through: create it or remove the link");
	else
		snprintf(why, len, "symbolic link to %s: %s", to, strerror(err));
	return -err;
}

static int resolve(const char *path, struct target *t, char *why, size_t len)
{
	struct stat lst, st, rst;

	t->in_place = false;
	t->path = NULL;
	if (lstat(path, &lst)) {
		/* A new file (or a parent that is wrong: the directory check says which). */
		t->path = strdup(path);
		goto done;
	}
	if (stat(path, &st))
		return dangling(path, errno, why, len);
	if (S_ISDIR(st.st_mode)) {
		snprintf(why, len, "is a directory");
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode) || !S_ISLNK(lst.st_mode)) {
		t->in_place = !S_ISREG(st.st_mode);
		t->path = strdup(path);
		goto done;
	}
	t->path = realpath(path, NULL);
	if (!t->path) {
		int err = errno;

		snprintf(why, len, "symbolic link: %s", strerror(err));
		return -err;
	}
	/* /dev/stdout on a file that was removed names "/x (deleted)": not that file. */
	if (stat(t->path, &rst) || rst.st_dev != st.st_dev || rst.st_ino != st.st_ino) {
		snprintf(why, len, "symbolic link to a file that has no name (%s)", t->path);
		free(t->path);
		t->path = NULL;
		return -ENOENT;
	}
done:
	if (!t->path) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

static int finish_file(FILE *f, int (*write)(FILE *f, void *ctx), void *ctx)
{
	int err = write(f, ctx);

	if (fflush(f) && (!err || err == -EIO))
		err = -errno;
	if (!err && fsync(fileno(f)))
		err = -errno;
	if (!err && ferror(f))
		err = -EIO;
	return err;
}

/*
 * Devices and pipes: written where they are, and a write error (ENOSPC from /dev/full) is the
 * result. No fsync: it means nothing on them (EINVAL).
 */
static int write_in_place(const char *path, int (*write)(FILE *f, void *ctx), void *ctx)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC), ret;
	FILE *f;

	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	/* A writer that saw the stream fail says -EIO: the flush says why (ENOSPC). */
	ret = write(f, ctx);
	if (fflush(f) && (!ret || ret == -EIO))
		ret = -errno;
	if (!ret && ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static int replace_file(const char *path, int (*write)(FILE *f, void *ctx), void *ctx)
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
			goto out;
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
			goto out;
		}
		f = fdopen(fd, "w");
		if (!f) {
			ret = -errno;
			close(fd);
			unlink(tmp);
			goto out;
		}
		ret = finish_file(f, write, ctx);
		fclose(f);
	}
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
out:
	free(tmp);
	free(dup);
	return ret;
}

int mb_write_atomic(const char *path, int (*write)(FILE *f, void *ctx), void *ctx, char *err,
		    size_t errlen)
{
	struct target t;
	char why[512];
	int ret = resolve(path, &t, why, sizeof(why));

	if (ret) {
		snprintf(err, errlen, "%s: %s", path, why);
		return ret;
	}
	ret = t.in_place ? write_in_place(t.path, write, ctx) : replace_file(t.path, write, ctx);
	if (ret)
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	free(t.path);
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
	struct target t;
	char *dup;
	int ret;

	if (n && path[n - 1] == '/' && access(path, F_OK)) {
		snprintf(why, len, "ends in '/': names a directory, not a file");
		return -EISDIR;
	}
	ret = resolve(path, &t, why, len);
	if (ret || t.in_place)
		goto out;
	/* The directory the temporary file goes into: the link target's, for a link. */
	dup = strdup(t.path);
	if (!dup) {
		snprintf(why, len, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	ret = mb_output_check_dir(dirname(dup), why, len);
	free(dup);
out:
	free(t.path);
	return ret;
}
