// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The first steps every document or history verb takes (verb.h). */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "util/log.h"
#include "util/outfile.h"
#include "verb.h"

int mb_verb_start(int argc, char **argv, struct mb_cli *cli, const struct mb_opt *opts,
		  void *args, const char *verb, const struct mb_cli_global *globals,
		  void (*usage)(FILE *f))
{
	if (mb_cli_parse_cmd(argc - 1, argv + 1, cli, opts, args))
		return -1;
	mb_log_init(cli->env.quiet, cli->env.verbose, stderr);
	if (cli->env.help) {
		usage(stdout);
		return 1;
	}
	return mb_cli_check_globals(cli, verb, globals) ? -1 : 0;
}

/* "-o CHART.svg or -o CHART.png" from @suffixes, for the message of a missing -o. */
static void say_missing(const char *verb, const char *const *suffixes, const char *what)
{
	char list[256] = "";
	size_t len = 0;

	for (int i = 0; suffixes[i] && len < sizeof(list); i++)
		len += snprintf(list + len, sizeof(list) - len, "%s-o %s%s", i ? " or " : "", what,
				suffixes[i]);
	mb_err("%s: %s is required", verb, list);
}

int mb_verb_output(const struct mb_cli *cli, const char *verb, const char *const *suffixes,
		   const char *what)
{
	const char *out = cli->env.output, *dot;
	char err[1024];

	if (mb_cli_one_output(cli, verb))
		return -1;
	if (!out) {
		say_missing(verb, suffixes, what);
		return -1;
	}
	dot = strrchr(out, '.');
	for (int i = 0; dot && suffixes[i]; i++) {
		if (strcmp(dot, suffixes[i]))
			continue;
		if (mb_output_check(out, err, sizeof(err))) {
			mb_err("%s: -o %s: %s", verb, out, err);
			return -1;
		}
		return i;
	}
	mb_err("%s: -o %s: must end in %s%s%s", verb, out, suffixes[0], suffixes[1] ? " or " : "",
	       suffixes[1] ? suffixes[1] : "");
	return -1;
}

const char *mb_cmd_db(const struct mb_cli *cli, const char *verb)
{
	const char *db = cli->env.db ? cli->env.db : getenv("MAPBENCH_DB");

	if (!db || !*db) {
		mb_err("%s: --db FILE|URL (or MAPBENCH_DB) names the history", verb);
		return NULL;
	}
	return db;
}
