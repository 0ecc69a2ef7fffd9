/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Messages to the user: errors, warnings and progress, routed in one place. */
#ifndef MB_LOG_H
#define MB_LOG_H

#include <stdbool.h>
#include <stdio.h>

/* Exit statuses, as documented in docs/usage.md. */
#define MB_EXIT_OK		0
#define MB_EXIT_FAIL		1
#define MB_EXIT_USAGE		2
#define MB_EXIT_SKIP		77
#define MB_EXIT_INTERRUPTED	130

void mb_log_init(bool quiet, bool verbose, FILE *progress);
bool mb_log_quiet(void);
bool mb_log_verbose(void);
/* Where progress lines (Iter ..., Setting up ...) go: stdout, or stderr when stdout is a document. */
FILE *mb_progress_stream(void);
/* Where errors and warnings go (stderr unless changed, e.g. by tests). */
void mb_log_set_error_stream(FILE *f);

/*
 * A transient status line on stderr (a progress bar, drawn only when stderr is a terminal):
 * every other message clears it first and redraws it after. NULL removes it.
 */
void mb_log_status(const char *line);

/* "mapbench: <msg>" on stderr. */
void mb_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "mapbench: warning: <msg>" on stderr. */
void mb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Progress information, unless -q. */
void mb_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Debug information, only with -v. */
void mb_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Route libbpf's messages through mb_* (debug lines only with -v). */
void mb_log_setup_libbpf(void);

/*
 * The last verifier log libbpf reported (a program that failed to load), kept whether or not
 * -v shows it: its last @lines non-empty lines, joined with " / ", into @buf. Returns the
 * number of lines copied (0: no log).
 */
int mb_verifier_log_tail(char *buf, size_t len, int lines);
void mb_verifier_log_clear(void);

#endif
