// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "log.h"

static struct {
	bool quiet;
	bool verbose;
	FILE *progress;
	FILE *errors;
	char status[512];	/* the status line now on stderr, or "" */
} log_cfg;

void mb_log_init(bool quiet, bool verbose, FILE *progress)
{
	log_cfg.quiet = quiet;
	log_cfg.verbose = verbose;
	log_cfg.progress = progress;
}

bool mb_log_quiet(void)
{
	return log_cfg.quiet;
}

bool mb_log_verbose(void)
{
	return log_cfg.verbose;
}

void mb_log_set_error_stream(FILE *f)
{
	log_cfg.errors = f;
}

static FILE *error_stream(void)
{
	return log_cfg.errors ? log_cfg.errors : stderr;
}

FILE *mb_progress_stream(void)
{
	return log_cfg.progress ? log_cfg.progress : stdout;
}

void mb_log_status(const char *line)
{
	if (!line && !log_cfg.status[0])
		return;
	snprintf(log_cfg.status, sizeof(log_cfg.status), "%s", line ? line : "");
	/* Carriage return and "erase to end of line": the line is redrawn in place. */
	fprintf(stderr, "\r\033[K%s", log_cfg.status);
	fflush(stderr);
}

static void vprint(FILE *f, const char *prefix, const char *fmt, va_list ap)
{
	bool status = log_cfg.status[0];

	fflush(stdout);
	if (status)
		fputs("\r\033[K", stderr);
	fputs(prefix, f);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	fflush(f);
	if (status) {
		fputs(log_cfg.status, stderr);
		fflush(stderr);
	}
}

void mb_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint(error_stream(), "mapbench: ", fmt, ap);
	va_end(ap);
}

void mb_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint(error_stream(), "mapbench: warning: ", fmt, ap);
	va_end(ap);
}

void mb_info(const char *fmt, ...)
{
	va_list ap;

	if (log_cfg.quiet)
		return;
	va_start(ap, fmt);
	vprint(mb_progress_stream(), "", fmt, ap);
	va_end(ap);
}

void mb_debug(const char *fmt, ...)
{
	va_list ap;

	if (!log_cfg.verbose)
		return;
	va_start(ap, fmt);
	vprint(stderr, "mapbench: debug: ", fmt, ap);
	va_end(ap);
}

static char *verifier_log;

void mb_verifier_log_clear(void)
{
	free(verifier_log);
	verifier_log = NULL;
}

int mb_verifier_log_tail(char *buf, size_t len, int lines)
{
	const char *begin, *end, *line_end, *p;
	int found = 0;
	size_t n = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	if (!verifier_log)
		return 0;
	/* libbpf wraps the log in "-- BEGIN PROG LOAD LOG --" ... "-- END PROG LOAD LOG --". */
	begin = strstr(verifier_log, "BEGIN PROG LOAD LOG --");
	begin = begin ? strchr(begin, '\n') : verifier_log;
	if (!begin)
		return 0;
	end = strstr(begin, "-- END PROG LOAD LOG --");
	if (!end)
		end = begin + strlen(begin);
	/* Find where the last @lines non-empty lines start. */
	for (p = end; p > begin && found < lines; found++) {
		while (p > begin && p[-1] == '\n')
			p--;
		if (p == begin)
			break;
		while (p > begin && p[-1] != '\n')
			p--;
	}
	/* Copy them, one " / " between lines. */
	for (; p < end && n + 1 < len; p = line_end + 1) {
		line_end = memchr(p, '\n', (size_t)(end - p));
		if (!line_end)
			line_end = end;
		if (line_end > p)
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? " / " : "",
					      (int)(line_end - p), p);
	}
	return found;
}

/*
 * libbpf prints hints that mislead on modern kernels (RLIMIT_MEMLOCK, "make sure your kernel
 * supports BPF"): mapbench probes privileges itself and says what is missing, so without -v
 * only libbpf's warnings that are not such hints get through.
 */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && !log_cfg.verbose)
		return 0;
	if (!log_cfg.verbose && (strstr(fmt, "RLIMIT_MEMLOCK") || strstr(fmt, "Couldn't load") ||
				 strstr(fmt, "ulimit -l")))
		return 0;
	/* A failed load ends in mapbench's own message, which says more than these lines. */
	if (!log_cfg.verbose && (strstr(fmt, "failed to load") || strstr(fmt, "load failed")))
		return 0;
	/* The verifier log is long: kept for the error message, shown in full with -v. */
	if (strstr(fmt, "BEGIN PROG LOAD LOG")) {
		va_list copy;
		char *text;

		va_copy(copy, ap);
		if (vasprintf(&text, fmt, copy) >= 0) {
			free(verifier_log);
			verifier_log = text;
		}
		va_end(copy);
		if (!log_cfg.verbose)
			return 0;
	}
	return vfprintf(stderr, fmt, ap);
}

void mb_log_setup_libbpf(void)
{
	libbpf_set_print(libbpf_print);
}
