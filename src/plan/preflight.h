/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The noise preflight: before measuring, look for what makes numbers unreliable (frequency
 * scaling, turbo, SMT, BPF stats, the JIT, a hypervisor, busy CPUs, more producers than CPUs),
 * warn, and record it in the document's context. --strict refuses to measure instead.
 */
#ifndef MB_PREFLIGHT_H
#define MB_PREFLIGHT_H

#include "util/cpuset.h"

struct mb_env;
struct mb_json;

/*
 * How long before the run the preflight watches the CPUs, and above which share of that window
 * (in %) a CPU counts as busy: other tasks compete for it.
 */
#define MB_PREFLIGHT_WINDOW_MS	200
#define MB_PREFLIGHT_BUSY_PCT	30

/*
 * The window in ms, 10..1000, in place of MB_PREFLIGHT_WINDOW_MS: the e2e tests shorten it,
 * as they start mapbench hundreds of times and judge no figure (the JSON records the window).
 */
#define MB_PREFLIGHT_WINDOW_ENV	"MAPBENCH_PREFLIGHT_MS"
#define MB_PREFLIGHT_WINDOW_MIN	10
#define MB_PREFLIGHT_WINDOW_MAX	1000

/* The window @env_value (MB_PREFLIGHT_WINDOW_ENV's, may be NULL) asks for, else the default. */
int mb_preflight_window_ms(const char *env_value);

/* The CPUs a run will use. */
struct mb_preflight_use {
	struct mb_cpuset pinned;	/* the CPUs its producers are pinned to (empty: none) */
	int threads;			/* the most producers of any run */
};

/* What the checks read. */
struct mb_preflight_in {
	const char *root;		/* "" for this machine; tests pass a fake tree */
	const struct mb_cpuset *online;
	const struct mb_preflight_use *use;
	const char *stat_before;	/* /proc/stat at the start and the end of the window */
	const char *stat_after;		/* (NULL: not read) */
	int window_ms;
};

/*
 * Run every check against the files under in->root and the two /proc/stat readings. Returns a
 * JSON array of {check, status ("ok", "warning", "unknown"), value, message} (cpu_busy adds
 * "measured"), and the number of warnings in @warnings; NULL on allocation failure.
 */
struct mb_json *mb_preflight_collect(const struct mb_preflight_in *in, int *warnings);

/* The cpu_busy check alone (preflight_busy.c); @warned says whether it warns. */
struct mb_json *mb_preflight_busy(const struct mb_preflight_in *in, bool *warned);

/*
 * Before measuring: watch the CPUs for MB_PREFLIGHT_WINDOW_MS, run the checks, print the
 * warnings (unless -q), record them in env->preflight. Returns 0 to go on, or MB_EXIT_SKIP with
 * --strict when a check warned (each warning printed as an error).
 */
int mb_preflight(struct mb_env *env, const struct mb_preflight_use *use);

#endif
