/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the verbs that read documents or the history do first, written once: parse the command
 * line and answer --help, find the history, check the -o file's name.
 */
#ifndef MB_VERB_H
#define MB_VERB_H

#include <stdio.h>

#include "cli/cli.h"

/*
 * Parse @verb's command line (argv[1] being @verb) into @cli and @args by @opts, set the log
 * level, answer --help with @usage and check the globals against @globals. Returns 0 to go on,
 * 1 when --help was answered (exit 0), -1 after one line saying what is wrong (exit 2). @cli
 * is to be freed by the caller in every case.
 */
int mb_verb_start(int argc, char **argv, struct mb_cli *cli, const struct mb_opt *opts,
		  void *args, const char *verb, const struct mb_cli_global *globals,
		  void (*usage)(FILE *f));

/*
 * -o of @verb: given once, writable, and ending in one of @suffixes (NULL-terminated; @what
 * names the file in messages, e.g. "CHART"). Returns the index of the suffix, or -1 (said).
 */
int mb_verb_output(const struct mb_cli *cli, const char *verb, const char *const *suffixes,
		   const char *what);

/* The chart verbs' (plot, trend) -o, -q and -v, in their tables of globals. */
#define MB_CHART_GLOBALS							\
	{ "output", "The chart: FILE.svg or FILE.png (required)" },		\
	{ "quiet", "Do not say which file was written" },			\
	{ "verbose", "Print the gnuplot script and gnuplot's messages" }

#endif
