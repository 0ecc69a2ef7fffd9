/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The noise preflight: before measuring, look for what makes numbers unreliable (frequency
 * scaling, turbo, SMT, BPF stats, the JIT, a hypervisor, load, more producers than CPUs), warn,
 * and record it in the document's context. --strict refuses to measure instead.
 */
#ifndef MB_PREFLIGHT_H
#define MB_PREFLIGHT_H

#include "cpuset.h"

struct mb_env;
struct mb_json;

/* Load average per online CPU above which the machine counts as busy (at least 0.5). */
#define MB_PREFLIGHT_LOAD_PER_CPU	0.25

/*
 * Run every check against the files under @root ("" for this machine; tests pass a fake tree).
 * Returns a JSON array of {check, status ("ok", "warning", "unknown"), value, message}, and the
 * number of warnings in @warnings; NULL on allocation failure.
 */
struct mb_json *mb_preflight_collect(const char *root, const struct mb_cpuset *online,
				     int max_producers, int *warnings);

/*
 * Before measuring: run the checks, print the warnings (unless -q), record them in
 * env->preflight. Returns 0 to go on, or MB_EXIT_SKIP with --strict when a check warned (each
 * warning printed as an error).
 */
int mb_preflight(struct mb_env *env, int max_producers);

#endif
