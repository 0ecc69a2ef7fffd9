// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util/json.h"
#include "util/log.h"
#include "families/registry.h"

bool mb_cli_given(const struct mb_cli *cli, const char *global_name)
{
	int i = mb_opt_find(mb_global_opts, global_name);

	return i >= 0 && (cli->given & (1ULL << i));
}

static const struct {
	const char *suffix, *name, *label;
	enum mb_format format;
} suffixes[] = {
	{ ".json", "json", "JSON", MB_FORMAT_JSON },
	{ ".csv", "csv", "CSV", MB_FORMAT_CSV },
	{ ".md", "md", "Markdown", MB_FORMAT_MD },
	{ ".txt", "text", "text", MB_FORMAT_TEXT },
};

static int suffix_of(int format)
{
	for (int i = 0; i < (int)(sizeof(suffixes) / sizeof(*suffixes)); i++)
		if ((int)suffixes[i].format == format)
			return i;
	return 0;
}

/* The index in suffixes[] of @file's suffix, or -1 when it names no format. */
static int suffix_index(const char *file)
{
	const char *dot = file ? strrchr(file, '.') : NULL;

	for (int i = 0; dot && !strchr(dot, '/') && i < (int)(sizeof(suffixes) / sizeof(*suffixes));
	     i++)
		if (!strcmp(dot, suffixes[i].suffix))
			return i;
	return -1;
}

/* The -o files after the first: each names its format by its suffix, and no file comes twice. */
static int more_output_formats(struct mb_env *env)
{
	for (int k = 0; k < env->nr_more_outputs; k++) {
		const char *file = env->more_output[k];
		int i = suffix_index(file);

		if (i < 0 || suffixes[i].format == MB_FORMAT_MD) {
			mb_err("-o/--output %s: a second -o needs a suffix that names its format (.json, .csv, .txt)",
			       file);
			return -EINVAL;
		}
		for (int j = -1; j < k; j++)
			if (!strcmp(file, j < 0 ? env->output : env->more_output[j])) {
				mb_err("-o/--output %s: given twice (one file per format)", file);
				return -EINVAL;
			}
		env->more_format[k] = suffixes[i].format;
	}
	return 0;
}

int mb_cli_one_output(const struct mb_cli *cli, const char *command)
{
	if (!cli->env.nr_more_outputs)
		return 0;
	mb_err("%s: -o/--output %s: -o given again, but %s writes one document", command,
	       cli->env.more_output[0], command);
	return -EINVAL;
}

int mb_cli_output_format(struct mb_cli *cli, const char *who, int fixed)
{
	struct mb_env *env = &cli->env;
	const char *dot = env->output ? strrchr(env->output, '.') : NULL;
	int i = suffix_index(env->output);

	if (more_output_formats(env))
		return -EINVAL;
	if (i < 0)
		return 0;	/* no suffix that names a format: --format (or text) it is */
	if (fixed >= 0 && (int)suffixes[i].format != fixed) {
		mb_err("%s-o/--output %s: suffix %s, but -o gets the %s document (name it %s; --format is for stdout)",
		       who, env->output, dot, suffixes[suffix_of(fixed)].label,
		       suffixes[suffix_of(fixed)].suffix);
		return -EINVAL;
	}
	if (fixed >= 0)
		return 0;
	if (mb_cli_given(cli, "format") && (int)suffixes[i].format != env->format) {
		mb_err("%s-o/--output %s: suffix %s contradicts --format %s (name the file for the format, or leave --format out)",
		       who, env->output, dot, suffixes[suffix_of(env->format)].name);
		return -EINVAL;
	}
	env->format = suffixes[i].format;
	return 0;
}

/* The first bench option table that has @name, to know whether it takes a value. */
static const struct mb_opt *find_bench_opt(const char *name)
{
	for (int b = 0; mb_benches[b]; b++) {
		int i = mb_opt_find(mb_benches[b]->opts, name);

		if (i >= 0)
			return &mb_benches[b]->opts[i];
	}
	return NULL;
}

/* -o again: one more document of the same results (its format comes from its suffix). */
static int add_more_output(struct mb_cli *cli, const char *file)
{
	struct mb_env *env = &cli->env;

	if (env->nr_more_outputs == MB_MORE_OUTPUTS) {
		mb_err("-o/--output %s: at most %d -o files", file,
		       MB_MORE_OUTPUTS + 1);
		return -EINVAL;
	}
	env->more_output[env->nr_more_outputs++] = file;
	return 0;
}

static int apply_global(struct mb_cli *cli, int idx, const char *value)
{
	char msg[512];

	if (!strcmp(mb_global_opts[idx].name, "output") && (cli->given & (1ULL << idx)))
		return add_more_output(cli, value);

	if (mb_opt_apply(&mb_global_opts[idx], &cli->env, value, msg, sizeof(msg))) {
		mb_err("%s", msg);
		return -EINVAL;
	}
	cli->given |= 1ULL << idx;
	if (!strcmp(mb_global_opts[idx].name, "consumers"))
		cli->env.consumers_given = true;
	return 0;
}

static int parse_long(struct mb_cli *cli, int argc, char **argv, int *i)
{
	const char *arg = argv[*i] + 2, *eq = strchr(arg, '='), *value = NULL;
	const struct mb_opt *opt;
	char name[128], msg[512];
	int gi, ci;

	snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
	if (eq)
		value = eq + 1;
	gi = mb_opt_find(mb_global_opts, name);
	ci = gi < 0 ? mb_opt_find(cli->cmd_opts, name) : -1;
	opt = gi >= 0 ? &mb_global_opts[gi] : ci >= 0 ? &cli->cmd_opts[ci] : find_bench_opt(name);
	if (!opt) {
		mb_err("unknown option --%s (mapbench --help lists every option)", name);
		return -EINVAL;
	}
	if (!mb_opt_takes_value(opt) && value) {
		mb_err("--%s takes no value", opt->name);
		return -EINVAL;
	}
	if (mb_opt_takes_value(opt) && !value) {
		if (*i + 1 >= argc) {
			mb_err("--%s needs a value", opt->name);
			return -EINVAL;
		}
		value = argv[++*i];
	}
	if (gi >= 0)
		return apply_global(cli, gi, value);
	if (ci >= 0) {
		if (mb_opt_apply(opt, cli->cmd_args, value, msg, sizeof(msg))) {
			mb_err("%s", msg);
			return -EINVAL;
		}
		return 0;
	}
	cli->items[cli->nr_items].name = strdup(name);
	cli->items[cli->nr_items].value = value;
	cli->items[cli->nr_items].scope_first = cli->nr_names ? cli->group_first : -1;
	cli->items[cli->nr_items].scope_last = cli->nr_names - 1;
	if (!cli->items[cli->nr_items].name)
		return -ENOMEM;
	cli->nr_items++;
	return 0;
}

static int parse_short(struct mb_cli *cli, int argc, char **argv, int *i)
{
	const char *arg = argv[*i];

	for (int j = 1; arg[j]; j++) {
		int gi = -1;

		for (int k = 0; mb_global_opts[k].name; k++)
			if (mb_global_opts[k].short_name == arg[j])
				gi = k;
		if (gi < 0) {
			mb_err("unknown option -%c (mapbench --help lists every option)", arg[j]);
			return -EINVAL;
		}
		if (!mb_opt_takes_value(&mb_global_opts[gi])) {
			if (apply_global(cli, gi, NULL))
				return -EINVAL;
			continue;
		}
		if (arg[j + 1])
			return apply_global(cli, gi, &arg[j + 1]);
		if (*i + 1 >= argc) {
			mb_err("-%c/--%s needs a value", arg[j], mb_global_opts[gi].name);
			return -EINVAL;
		}
		return apply_global(cli, gi, argv[++*i]);
	}
	return 0;
}

/* The subcommands: main() dispatches on them only as the first word. */
static const char *const subcommands[] = { "sweep", "compare", "plot", "import", "history", "gate",
						   "trend", "report", NULL };

static bool is_subcommand(const char *word)
{
	for (int i = 0; subcommands[i]; i++)
		if (!strcmp(word, subcommands[i]))
			return true;
	return false;
}

/* A bench name after bench options starts a new group: later options are its own. */
static int add_name(struct mb_cli *cli, const char *name)
{
	/*
	 * "mapbench -d1 sweep ...": say where the verb goes rather than "unknown bench";
	 * "mapbench -h sweep" asks for the subcommand's help.
	 */
	if (!cli->cmd_opts && is_subcommand(name)) {
		if (cli->env.help) {
			if (!cli->subcommand)
				cli->subcommand = name;
			return 0;
		}
		mb_err("'%s' is a subcommand: write it first, before any option (mapbench %s [OPTIONS] ...)",
		       name, name);
		return -EINVAL;
	}
	if (!cli->nr_names || (cli->nr_items &&
			       cli->items[cli->nr_items - 1].scope_last == cli->nr_names - 1))
		cli->group_first = cli->nr_names;
	cli->names[cli->nr_names++] = name;
	return 0;
}

int mb_cli_parse(int argc, char **argv, struct mb_cli *cli)
{
	return mb_cli_parse_cmd(argc, argv, cli, NULL, NULL);
}

int mb_cli_parse_cmd(int argc, char **argv, struct mb_cli *cli, const struct mb_opt *cmd_opts,
		     void *cmd_args)
{
	char msg[512];
	bool options_done = false;
	int err = 0;

	memset(cli, 0, sizeof(*cli));
	cli->env.argc = argc;
	cli->env.argv = argv;
	cli->cmd_opts = cmd_opts;
	cli->cmd_args = cmd_args;
	if (mb_opts_set_defaults(mb_global_opts, &cli->env, msg, sizeof(msg)) ||
	    mb_opts_set_defaults(cmd_opts, cmd_args, msg, sizeof(msg))) {
		mb_err("bad default: %s", msg);
		return -EINVAL;
	}
	cli->names = calloc((size_t)argc + 1, sizeof(*cli->names));
	cli->items = calloc((size_t)argc + 1, sizeof(*cli->items));
	if (!cli->names || !cli->items)
		return -ENOMEM;
	for (int i = 1; i < argc && !err; i++) {
		const char *arg = argv[i];

		if (!options_done && !strcmp(arg, "--"))
			options_done = true;
		else if (!options_done && !strncmp(arg, "--", 2))
			err = parse_long(cli, argc, argv, &i);
		else if (!options_done && arg[0] == '-' && arg[1])
			err = parse_short(cli, argc, argv, &i);
		else
			err = add_name(cli, arg);
	}
	return err;
}

void mb_cli_free(struct mb_cli *cli)
{
	for (int i = 0; cli->items && i < cli->nr_items; i++)
		free((char *)cli->items[i].name);
	free(cli->items);
	free(cli->names);
	mb_json_free(cli->env.preflight);
	memset(cli, 0, sizeof(*cli));
}

static int apply_item(struct mb_run *run, const char *name, const char *value, bool *used)
{
	const struct mb_bench *b = run->bench;
	int idx = mb_opt_find(b->opts, name);
	char msg[512];

	if (idx < 0)
		return 0;
	*used = true;
	if (mb_opt_apply(&b->opts[idx], run->args, value, msg, sizeof(msg))) {
		mb_err("%s: %s", b->name, msg);
		return -EINVAL;
	}
	if (idx < 64)
		run->opts_given |= 1ULL << idx;
	return 0;
}

int mb_cli_apply(struct mb_cli *cli, struct mb_run *run, int pos)
{
	for (int i = 0; i < cli->nr_items; i++) {
		struct mb_cli_item *item = &cli->items[i];

		if (item->scope_first >= 0 && pos >= 0 &&
		    (pos < item->scope_first || pos > item->scope_last))
			continue;
		if (apply_item(run, item->name, item->value, &item->used))
			return -EINVAL;
	}
	return 0;
}

int mb_cli_apply_words(struct mb_run *run, const char *const *words, const char *origin)
{
	for (int i = 0; words && words[i]; i++) {
		const char *name = words[i] + 2;
		int idx = mb_opt_find(run->bench->opts, name);
		const char *value = NULL;
		bool used = false;

		if (idx >= 0 && mb_opt_takes_value(&run->bench->opts[idx]))
			value = words[++i];
		if (apply_item(run, name, value, &used))
			return -EINVAL;
		if (!used) {
			mb_err("%s: unknown option %s in %s", run->bench->name, words[i], origin);
			return -EINVAL;
		}
	}
	return 0;
}

int mb_cli_check_unused(const struct mb_cli *cli, struct mb_run *runs, int nr)
{
	for (int i = 0; i < cli->nr_items; i++) {
		char names[512] = "";
		size_t n = 0;

		if (cli->items[i].used)
			continue;
		/* Name the benches it was for: those it follows, or all. */
		for (int r = 0; r < nr && n < sizeof(names); r++) {
			if (cli->items[i].scope_first >= 0 &&
			    (r < cli->items[i].scope_first || r > cli->items[i].scope_last))
				continue;
			n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", n ? ", " : "",
					      runs[r].bench->name);
		}
		mb_err("--%s: not an option of %s (mapbench --help BENCH lists a bench's options)",
		       cli->items[i].name, names);
		return -EINVAL;
	}
	return 0;
}

/* ---- help and list ---- */

void mb_cli_print_globals(FILE *f, const struct mb_cli_global *globals)
{
	for (int i = 0; globals[i].name; i++) {
		int k = mb_opt_find(mb_global_opts, globals[i].name);
		struct mb_opt o[2] = { MB_OPT_END, MB_OPT_END };

		if (k < 0)
			continue;
		o[0] = mb_global_opts[k];
		if (globals[i].help)
			o[0].help = globals[i].help;
		mb_opts_print_help(f, o);
	}
}

int mb_cli_check_quiet(const struct mb_cli *cli, const char *verb)
{
	if (!cli->env.quiet || !cli->env.verbose)
		return 0;
	mb_err("%s-q/--quiet and -v/--verbose: one asks for fewer lines, the other for more; give one of them",
	       verb);
	return -EINVAL;
}

int mb_cli_machine_readable(struct mb_cli *cli, const char *verb, bool stdout_doc,
			    const char *doc_hint)
{
	static const char *const names[] = { "text", "json", "csv", "md" };
	struct mb_env *env = &cli->env;

	if (!env->machine_readable)
		return 0;
	if (stdout_doc) {
		mb_err("%s--format %s: with --machine-readable stdout carries the RESULT lines: must be text (%s)",
		       verb, names[env->format], doc_hint);
		return -EINVAL;
	}
	/* The kernel's option sets quiet too; -v asks for more lines and keeps them. */
	if (!env->verbose)
		env->quiet = true;
	return 0;
}

int mb_cli_check_globals(const struct mb_cli *cli, const char *verb,
			 const struct mb_cli_global *globals)
{
	for (int i = 0; mb_global_opts[i].name; i++) {
		bool ok = false;

		for (int k = 0; globals[k].name; k++)
			ok |= !strcmp(globals[k].name, mb_global_opts[i].name);
		if (!ok && (cli->given & (1ULL << i))) {
			mb_err("%s: --%s is not an option of %s (mapbench %s --help)", verb,
			       mb_global_opts[i].name, verb, verb);
			return -EINVAL;
		}
	}
	if (cli->nr_items) {
		mb_err("%s: --%s is not an option of %s (mapbench %s --help)", verb,
		       cli->items[0].name, verb, verb);
		return -EINVAL;
	}
	return 0;
}

static bool selected(const char *name, const char *const *names, int nr_names)
{
	if (!nr_names)
		return true;
	for (int i = 0; i < nr_names; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* The option tables of the selected benches; benches sharing one table are listed together. */
static void print_bench_opts(FILE *f, const char *const *names, int nr_names)
{
	bool first = true;

	for (int b = 0; mb_benches[b]; b++) {
		const struct mb_bench *bench = mb_benches[b];
		bool first_with_table = true;

		if (!selected(bench->name, names, nr_names))
			continue;
		if (!bench->opts) {
			if (!nr_names)
				continue;
			fprintf(f, "%s%s has no options of its own.\n", first ? "" : "\n",
				bench->name);
			first = false;
			continue;
		}
		for (int k = 0; k < b; k++)
			if (mb_benches[k]->opts == bench->opts &&
			    selected(mb_benches[k]->name, names, nr_names))
				first_with_table = false;
		if (!first_with_table)
			continue;
		fprintf(f, "%sOptions of %s", first ? "" : "\n", bench->name);
		for (int k = b + 1; mb_benches[k]; k++)
			if (mb_benches[k]->opts == bench->opts &&
			    selected(mb_benches[k]->name, names, nr_names))
				fprintf(f, ", %s", mb_benches[k]->name);
		fprintf(f, ":\n");
		mb_opts_print_help(f, bench->opts);
		first = false;
	}
}

void mb_cli_help(FILE *f, const char *const *names, int nr_names)
{
	/* Asked about benches: their options alone, first, where the eye lands. */
	if (nr_names) {
		print_bench_opts(f, names, nr_names);
		fprintf(f, "\nGlobal options (-w, -d, -p, -a, -o, --format, ...): mapbench --help\n");
		return;
	}
	fprintf(f,
		"Usage: mapbench [OPTIONS] [BENCH...] [BENCH OPTIONS]\n"
		"\n"
		"Benchmarks for Linux BPF maps. With no BENCH, runs the default suite. Bench\n"
		"options before the first BENCH apply to all; after BENCHes, to those they follow.\n"
		"Options follow the kernel's selftests 'bench'; '-' and '_' are interchangeable in\n"
		"option names. Exit status: 0 ok, 1 a bench failed, 2 usage error, 77 nothing could\n"
		"run (privilege or kernel feature missing), 130 interrupted.\n"
		"\n"
		"Examples:\n"
		"  mapbench --list\n"
		"  mapbench -w1 -d5 -p2 -a count-local\n"
		"  mapbench bpf-noop --format json -o noop.json\n"
		"  mapbench -h bpf-loop            (a bench's own options)\n"
		"\n"
		"Global options:\n");
	mb_opts_print_help(f, mb_global_opts);
	fprintf(f, "\n");
	print_bench_opts(f, NULL, 0);
	fprintf(f, "\nmapbench --list names every bench; src/families/FAMILY/README.md describes them\n"
		   "(docs/benchmarks.md: the catalogue).\n");
}

/* A Markdown table cell: '|' would end it. */
static void md_cell(FILE *f, const char *text)
{
	for (; *text; text++) {
		if (*text == '|')
			fputc('\\', f);
		fputc(*text, f);
	}
}

/*
 * The index of the whole catalogue, which `make catalogue` writes (scripts/catalogue.sh): a
 * family links to its part there, "## NAME".
 */
static void list_md(FILE *f)
{
	fprintf(f, "| family | what it measures | benches |\n|---|---|---|\n");
	for (int k = 0; mb_families[k]; k++) {
		const struct mb_family *fam = mb_families[k];

		fprintf(f, "| [%s](#%s) | ", fam->name, fam->name);
		md_cell(f, fam->desc);
		for (int b = 0; fam->benches[b]; b++)
			fprintf(f, "%s`%s`", b ? ", " : " | ", fam->benches[b]->name);
		fprintf(f, " |\n");
	}
	fprintf(f, "\n| bench | family | description |\n|---|---|---|\n");
	for (int b = 0; mb_benches[b]; b++) {
		fprintf(f, "| `%s` | %s | ", mb_benches[b]->name, mb_benches[b]->family);
		md_cell(f, mb_benches[b]->desc);
		fprintf(f, " |\n");
	}
}

void mb_cli_list(FILE *f, int format)
{
	const char *family = NULL;

	if (format == MB_FORMAT_MD) {
		list_md(f);
		return;
	}
	fprintf(f, "Available benchmarks:\n");
	for (int b = 0; mb_benches[b]; b++) {
		if (!family || strcmp(family, mb_benches[b]->family)) {
			family = mb_benches[b]->family;
			fprintf(f, "%s:\n", family);
		}
		fprintf(f, "- %-26s %s\n", mb_benches[b]->name, mb_benches[b]->desc);
	}
}
