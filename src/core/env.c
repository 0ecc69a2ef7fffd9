// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stddef.h>

#include "env.h"
#include "loop_info.h"

static int parse_cpuset(const char *arg, void *field, const char **why)
{
	return mb_cpuset_parse(arg, field, why);
}

static void format_cpuset(const void *field, char *buf, size_t len)
{
	mb_cpuset_format(field, buf, (int)len);
}

static const char *const format_names[] = { "text", "json", "csv", "md", NULL };

#define ENV_U32(_name, _short, _field, _def, _min, _max, _meta, _help)			\
	{ .name = _name, .short_name = _short, .type = MB_OPT_U32,				\
	  .offset = offsetof(struct mb_env, _field), .def = _def, .min = _min, .max = _max,	\
	  .metavar = _meta, .help = _help }
#define ENV_FLAG(_name, _short, _field, _help)						\
	{ .name = _name, .short_name = _short, .type = MB_OPT_FLAG,				\
	  .offset = offsetof(struct mb_env, _field), .help = _help }
#define ENV_CPUSET(_name, _field, _help)							\
	{ .name = _name, .type = MB_OPT_CUSTOM, .offset = offsetof(struct mb_env, _field),	\
	  .parse = parse_cpuset, .format = format_cpuset, .range = "a CPU list like 0-3,8",	\
	  .metavar = "CPUSET", .help = _help }

const struct mb_opt mb_global_opts[] = {
	ENV_FLAG("list", 'l', list, "List the benches, one line each, grouped by family (with --format md: the catalogue's index tables, docs/benchmarks.md)"),
	ENV_FLAG("map-types", 0, map_types, "List every map type of this kernel (and newer ones): enum value, created here or not (probed), the benches that measure it, and why not (--format json: docs/output.md)"),
	ENV_FLAG("help", 'h', help, "Show this help (with bench names: only their options; with sweep, compare or plot: its help)"),
	ENV_FLAG("version", 0, version, "Print mapbench's version and git revision"),
	ENV_U32("warmup", 'w', warmup, "1", 0, 3600, "SEC",
		"Warm-up samples, measured and dropped"),
	ENV_U32("duration", 'd', duration, "5", 1, 86400, "SEC",
		"Samples in the summary (one per interval, 1 s by default)"),
	ENV_U32("producers", 'p', producers, "1", 1, 256, "NUM", "Producer threads"),
	ENV_U32("consumers", 'c', consumers, "0", 0, 256, "NUM",
		"Consumer threads (streaming benches: 1 unless given; the others have none)"),
	ENV_FLAG("affinity", 'a', affinity, "Pin each thread to its own CPU, in order"),
	ENV_CPUSET("prod-affinity", prod_cpus, "Pin producers to these CPUs (implies -a)"),
	ENV_CPUSET("cons-affinity", cons_cpus, "Pin consumers to these CPUs (implies -a)"),
	ENV_FLAG("quiet", 'q', quiet, "Only the Iter and Summary lines (and errors)"),
	ENV_FLAG("verbose", 'v', verbose, "Show libbpf's debug messages and the verifier log"),
	ENV_FLAG("machine-readable", 0, machine_readable,
		 "The kernel bench's RESULT line (scenario, samples, median, stddev, cv, min, p99, max) on stdout for each result timed in the kernel; implies -q; text only (docs/output.md)"),
	{ .name = "format", .type = MB_OPT_ENUM, .offset = offsetof(struct mb_env, format),
	  .def = "text", .choices = format_names,
	  .help = "Output format (docs/output.md); md: Markdown tables of sweep and compare" },
	{ .name = "output", .short_name = 'o', .type = MB_OPT_STRING,
	  .offset = offsetof(struct mb_env, output), .metavar = "FILE",
	  .help = "Write the results to FILE: a regular file atomically, a device or pipe in place (format from a .json/.csv/.txt suffix); again for more formats of the same results" },
	ENV_U32("interval_ms", 0, interval_ms, "1000", 10, 60000, "MS",
		"Length of one sample; -w and -d count samples"),
	ENV_U32("call_us", 0, call_us, "100", 5, 100000, "US",
		"In-kernel loops: target time of one test_run call"),
	ENV_FLAG("net", 0, net,
		 "In-kernel loops: subtract the empty loop's ns/op from the reported latency"),
	ENV_FLAG("latency", 0, latency,
		 "Time one op in 8192 on its own (in-kernel loops; one in 64 on the syscall path), report its percentiles (p50 .. p99.9, max) and the timer's cost"),
	ENV_FLAG("no-linearity", 0, no_linearity,
		 "In-kernel loops: skip the linearity self-check after the samples (5 calls of N and 5 of 2N iterations, about 0.15 s)"),
	{ .name = "loop", .type = MB_OPT_ENUM, .offset = offsetof(struct mb_env, loop),
	  .def = "auto", .choices = mb_loop_kind_names,
	  .help = "In-kernel loops: may_goto (no call per op), bpf_loop, or auto (may_goto where the kernel has it)" },
	ENV_FLAG("strict", 0, strict,
		 "Refuse to measure (exit 77) when the noise preflight warns"),
	{ .name = "save-baseline", .type = MB_OPT_STRING,
	  .offset = offsetof(struct mb_env, save_baseline), .metavar = "NAME",
	  .help = "Keep the results as baseline NAME (docs/compare.md)" },
	{ .name = "baseline", .type = MB_OPT_STRING, .offset = offsetof(struct mb_env, baseline),
	  .metavar = "NAME", .help = "Compare the results with baseline NAME (or a .json file)" },
	{ .name = "threshold", .type = MB_OPT_DOUBLE, .offset = offsetof(struct mb_env, threshold),
	  .def = "2", .dmin = 0, .dmax = 1000, .metavar = "PCT",
	  .help = "--baseline, compare: smaller changes of the mean are 'no change'" },
	{ .name = "alpha", .type = MB_OPT_DOUBLE, .offset = offsetof(struct mb_env, alpha),
	  .def = "0.05", .dmin = 1e-6, .dmax = 0.5, .metavar = "P",
	  .help = "--baseline, compare: significance level of the Mann-Whitney U test" },
	{ .name = "db", .type = MB_OPT_STRING, .offset = offsetof(struct mb_env, db),
	  .metavar = "FILE|URL",
	  .help = "Keep each result in a history as it finishes: an SQLite FILE, or a PostgreSQL connection string (postgresql://... or key=value); MAPBENCH_DB gives one when --db does not (docs/history.md)" },
	ENV_FLAG("fail-on-regression", 0, fail_on_regression,
		 "--baseline, compare: exit 1 when a result regressed"),
	{ .name = "ignore", .type = MB_OPT_CUSTOM, .offset = offsetof(struct mb_env, ignore),
	  .parse = mb_cli_list_add, .format = mb_cli_list_format,
	  .range = "parameter names, comma-separated", .metavar = "NAME[,NAME]",
	  .help = "--baseline, compare: match results although these parameters (or producers, affinity, ...) differ" },
	MB_OPT_END,
};
