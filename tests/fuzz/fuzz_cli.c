// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The command line: newline-separated words become argv; global and bench options are parsed
 * and applied to every named bench (nothing is run). Any input is accepted or refused cleanly.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/log.h"
#include "families/registry.h"
#include "core/runner.h"

#define MAX_WORDS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;
	char *text = malloc(size + 1), *argv[MAX_WORDS + 2];
	struct mb_run runs[4];
	int argc = 1, nr = 0;
	struct mb_cli cli;

	if (!text)
		return 0;
	if (!init) {
		mb_log_init(true, false, fopen("/dev/null", "w"));
		mb_log_set_error_stream(fopen("/dev/null", "w"));
		init = true;
	}
	memcpy(text, data, size);
	text[size] = '\0';
	argv[0] = "mapbench";
	for (char *w = strtok(text, "\n"); w && argc <= MAX_WORDS; w = strtok(NULL, "\n"))
		argv[argc++] = w;
	argv[argc] = NULL;
	if (!mb_cli_parse(argc, argv, &cli)) {
		mb_cpuset_online(&cli.env.online);
		for (int i = 0; i < cli.nr_names && nr < 4; i++) {
			const struct mb_bench *b = mb_bench_find(cli.names[i]);

			if (!b)
				continue;
			if (mb_run_init(&runs[nr], b, &cli.env))
				abort();
			nr++;
			if (mb_cli_apply(&cli, &runs[nr - 1], i))
				break;
		}
		mb_cli_check_unused(&cli, runs, nr);
		for (int i = 0; i < nr; i++)
			mb_run_free(&runs[i]);
	}
	mb_cli_free(&cli);
	free(text);
	return 0;
}
