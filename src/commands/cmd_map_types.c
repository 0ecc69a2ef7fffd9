// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * mapbench --map-types: every map type of the running kernel (and the newer ones mapbench
 * knows), probed, with the benches that measure it (families/coverage.c), as a table or a
 * JSON document, to stdout or -o FILE.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "commands.h"
#include "families/coverage.h"
#include "families/registry.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"
#include "util/outfile.h"

struct mt_out {
	const struct mb_coverage_row *rows;
	int n;
	int format;
	struct mb_json *doc;
};

static int write_out(FILE *f, void *p)
{
	struct mt_out *o = p;

	if (o->format == MB_FORMAT_JSON)
		return mb_json_write(f, o->doc, 2);
	mb_coverage_print(f, o->rows, o->n);
	return ferror(f) ? -EIO : 0;
}

static int check_args(const struct mb_cli *cli)
{
	const struct mb_env *env = &cli->env;
	char err[1024];

	if (env->format != MB_FORMAT_TEXT && env->format != MB_FORMAT_JSON) {
		mb_err("--map-types: --format %s: must be text or json",
		       env->format == MB_FORMAT_CSV ? "csv" : "md");
		return -EINVAL;
	}
	if (cli->nr_names) {
		mb_err("--map-types: %s: takes no bench names (it lists every bench's map types)",
		       cli->names[0]);
		return -EINVAL;
	}
	if (mb_cli_one_output(cli, "--map-types"))
		return -EINVAL;
	if (env->output && mb_output_check(env->output, err, sizeof(err))) {
		mb_err("--map-types: -o/--output %s: %s", env->output, err);
		return -EINVAL;
	}
	return 0;
}

int mb_cmd_map_types(const struct mb_cli *cli)
{
	struct mt_out o = { .format = cli->env.format };
	struct mb_coverage_row *rows = NULL;
	struct mb_map_probe *p = NULL;
	int n, err, status = MB_EXIT_OK;
	char why[1024];

	if (check_args(cli))
		return MB_EXIT_USAGE;
	err = mb_map_probe_all(&p, &n);
	if (err) {
		mb_err("--map-types: cannot read the kernel's map types from /sys/kernel/btf/vmlinux: %s",
		       strerror(-err));
		return MB_EXIT_SKIP;
	}
	if (mb_coverage_rows(p, n, mb_benches, &rows)) {
		free(p);
		mb_err("--map-types: out of memory");
		return MB_EXIT_FAIL;
	}
	o.rows = rows;
	o.n = n;
	if (o.format == MB_FORMAT_JSON)
		o.doc = mb_coverage_json(rows, n, mb_report_context(&cli->env));
	if (cli->env.output) {
		if (mb_write_atomic(cli->env.output, write_out, &o, why, sizeof(why))) {
			mb_err("--map-types: -o/--output %s", why);
			status = MB_EXIT_FAIL;
		}
	} else if (write_out(stdout, &o) || fflush(stdout)) {
		mb_err("--map-types: cannot write the output: %s", strerror(errno));
		status = MB_EXIT_FAIL;
	}
	mb_json_free(o.doc);
	mb_coverage_free(rows, n);
	free(p);
	return status;
}
