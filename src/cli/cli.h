/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The command line: global options (the kernel bench's), bench names, and bench options.
 * Pass 1 splits argv and applies the global options; pass 2 applies each bench option to every
 * selected bench that has it, so benches can share option names.
 */
#ifndef MB_CLI_H
#define MB_CLI_H

#include <stdio.h>

#include "core/bench.h"
#include "core/env.h"

struct mb_cli_item {
	const char *name;	/* as typed, without the dashes */
	const char *value;	/* NULL for flags */
	int scope_first;	/* the bench names it follows: first and last index, */
	int scope_last;		/* -1 when it comes before any name (it applies to all) */
	bool used;
};

struct mb_cli {
	struct mb_env env;
	uint64_t given;		/* bit i: mb_global_opts[i] was given */
	const char **names;	/* bench names, in order */
	int nr_names;
	struct mb_cli_item *items;	/* bench options, in order */
	int nr_items;
	int group_first;	/* first bench name of the current group (parsing) */
	const struct mb_opt *cmd_opts;	/* a subcommand's own options (sweep, compare, plot) */
	void *cmd_args;			/* the struct they fill */
	const char *subcommand;	/* "-h VERB": the subcommand whose help to show */
};

/* Pass 1. Returns 0, or -EINVAL after printing a one-line error. */
int mb_cli_parse(int argc, char **argv, struct mb_cli *cli);
/*
 * Pass 1 for a subcommand: as mb_cli_parse, and options of @cmd_opts (looked up after the global
 * options, before the bench options) are applied to @cmd_args, which get their defaults first.
 * @cmd_args must start zeroed: options without a default (lists, strings) are left as they are.
 */
int mb_cli_parse_cmd(int argc, char **argv, struct mb_cli *cli, const struct mb_opt *cmd_opts,
		     void *cmd_args);
void mb_cli_free(struct mb_cli *cli);
bool mb_cli_given(const struct mb_cli *cli, const char *global_name);

/*
 * The format of -o FILE. A suffix that names one (.json, .csv, .md, .txt) sets it when --format
 * is not given, and is refused when it names another than --format (-EINVAL, one line naming
 * -o, the suffix and --format). @fixed: the format -o always gets whatever --format says (a
 * sweep's JSON document), or -1; then a suffix naming another is refused too.
 */
int mb_cli_output_format(struct mb_cli *cli, const char *who, int fixed);
/*
 * -o given again (runs only): each further file must name its format by its suffix (.json,
 * .csv, .txt), checked by mb_cli_output_format. Commands that write one document (sweep,
 * compare, plot) refuse a second -o with this: -EINVAL after one line naming @command.
 */
int mb_cli_one_output(const struct mb_cli *cli, const char *command);

/* Pass 2 for one run: apply the bench options it has. Returns 0 or -EINVAL. */
/*
 * Bench options before the first bench name apply to every run; after bench names, to the
 * consecutive names they follow ("a b --x 1 c --x 2": a and b get 1, c gets 2). @pos is the
 * run's index among the names; -1 for runs that come from no name (the default suite, a
 * preset), which take every option.
 */
int mb_cli_apply(struct mb_cli *cli, struct mb_run *run, int pos);
/*
 * Apply extra words ("--name value" pairs) to a run, e.g. from the default suite or a sweep
 * point; @origin names where they come from in messages.
 */
int mb_cli_apply_words(struct mb_run *run, const char *const *words, const char *origin);
/* After pass 2: an option no selected bench took is an error. */
int mb_cli_check_unused(const struct mb_cli *cli, struct mb_run *runs, int nr);

/* A global option as a subcommand takes it, with the help text of what it does there. */
struct mb_cli_global {
	const char *name;	/* in mb_global_opts */
	const char *help;	/* NULL: the global option's own */
};

/* The help lines of @globals (NULL-terminated), each with its own help text. */
void mb_cli_print_globals(FILE *f, const struct mb_cli_global *globals);
/*
 * -q (fewer lines) and -v (more) together contradict each other: one line naming both
 * (@verb: "sweep: ", or "" for a run), -EINVAL (exit status 2).
 */
int mb_cli_check_quiet(const struct mb_cli *cli, const char *verb);
/*
 * --machine-readable: refused when stdout would carry a document other than text
 * (@stdout_doc; -EINVAL, one line naming @verb, --format and its value, with @doc_hint on where
 * the document can go instead); else it sets quiet, as the kernel's option does, unless -v.
 */
int mb_cli_machine_readable(struct mb_cli *cli, const char *verb, bool stdout_doc,
			    const char *doc_hint);
/*
 * A subcommand takes only @globals of the global options: any other given (or a bench
 * option) is refused with one line naming @verb. Returns 0 or -EINVAL.
 */
int mb_cli_check_globals(const struct mb_cli *cli, const char *verb,
			 const struct mb_cli_global *globals);

/* With bench names: only their options (the names must be benches); else the whole help. */
void mb_cli_help(FILE *f, const char *const *names, int nr_names);
/* --list: one line per bench, grouped by family; @format MB_FORMAT_MD: the docs' tables. */
void mb_cli_list(FILE *f, int format);

#endif
