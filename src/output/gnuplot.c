// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Charts drawn by gnuplot from a script: plot's and trend's. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "gnuplot.h"
#include "util/log.h"
#include "util/outfile.h"

struct gp_ctx {
	const char *script;
	const char *who;
	bool verbose;
	bool reported;		/* run_gnuplot printed why it failed */
};

/* Run gnuplot with the script on stdin and @f (the chart's temporary file) as stdout. */
static int run_gnuplot(FILE *f, void *p)
{
	struct gp_ctx *ctx = p;
	const char *gnuplot = getenv("MAPBENCH_GNUPLOT");
	FILE *in = tmpfile(), *errs = tmpfile();
	char line[512] = "", buf[512];
	struct stat st;
	int status, ret = 0;
	pid_t pid;

	if (!gnuplot || !*gnuplot)
		gnuplot = "gnuplot";
	if (!in || !errs) {
		ret = -errno;
		goto out;
	}
	fputs(ctx->script, in);
	if (fflush(in) || fflush(f) || lseek(fileno(in), 0, SEEK_SET)) {
		ret = -errno;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out;
	}
	if (pid == 0) {
		if (dup2(fileno(in), 0) < 0 || dup2(fileno(f), 1) < 0 || dup2(fileno(errs), 2) < 0)
			_exit(126);
		execlp(gnuplot, gnuplot, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			ret = -errno;
			goto out;
		}
	}
	rewind(errs);
	if (ctx->verbose) {
		while (fgets(line, sizeof(line), errs))
			fprintf(stderr, "gnuplot: %s", line);
		rewind(errs);
	}
	/* gnuplot ends with what went wrong ("line 4: ..."): keep its last non-blank line. */
	line[0] = '\0';
	while (fgets(buf, sizeof(buf), errs)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (buf[strspn(buf, " \t")])
			snprintf(line, sizeof(line), "%s", buf + strspn(buf, " \t"));
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 127) {
		mb_err("%s: cannot run %s: install gnuplot-nox (scripts/install-deps.sh), or set MAPBENCH_GNUPLOT",
		       ctx->who, gnuplot);
		ctx->reported = true;
		ret = -ENOENT;
	} else if (WEXITSTATUS(status)) {
		mb_err("%s: gnuplot failed (exit %d)%s%s", ctx->who, WEXITSTATUS(status),
		       line[0] ? ": " : "", line);
		ctx->reported = true;
		ret = -EIO;
	} else if (fstat(fileno(f), &st) || (S_ISREG(st.st_mode) && st.st_size == 0)) {
		mb_err("%s: gnuplot wrote nothing%s%s", ctx->who, line[0] ? ": " : "", line);
		ctx->reported = true;
		ret = -EIO;
	} else if (S_ISREG(st.st_mode) && fseek(f, 0, SEEK_END)) {
		/* A device or pipe (-o written in place) has no size to check or end to seek to. */
		ret = -errno;
	}
out:
	if (in)
		fclose(in);
	if (errs)
		fclose(errs);
	return ret;
}

int mb_gnuplot_write(const char *out, const char *script, bool verbose, const char *who)
{
	struct gp_ctx ctx = { .script = script, .who = who, .verbose = verbose };
	char err[1024];
	int ret = mb_write_atomic(out, run_gnuplot, &ctx, err, sizeof(err));

	if (ret && !ctx.reported)
		mb_err("%s: -o %s", who, err);
	return ret;
}
