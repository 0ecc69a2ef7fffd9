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
