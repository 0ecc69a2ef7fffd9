/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The CPU a result was measured on, and its speculative-execution mitigations: in-kernel
 * figures change several-fold between CPU models, microcode versions and mitigations (a return
 * thunk puts ~8 ns on every call and return in JITed BPF).
 */
#ifndef MB_CPUINFO_H
#define MB_CPUINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct mb_json;

#define MB_CPU_VULN_DIR "/sys/devices/system/cpu/vulnerabilities"

struct mb_cpu_info {
	char vendor[64];	/* vendor_id */
	char model_name[128];
	int family;		/* -1: not given */
	int model;
	int stepping;
	char microcode[32];	/* as the kernel prints it, "" when not given */
};

/* Fields of the first processor in /proc/cpuinfo text. Returns 0, or -ENOENT if none. */
int mb_cpu_info_parse(FILE *cpuinfo, struct mb_cpu_info *ci);

/* The same from /proc/cpuinfo (fields unknown where it cannot be read). */
void mb_cpu_info_read(struct mb_cpu_info *ci);

/* Every file of @dir as name -> its line ({} when @dir is missing). */
struct mb_json *mb_cpu_vulnerabilities(const char *dir);

/*
 * Does a mitigation line say that returns go through a thunk? @evidence gets "file: line" of
 * the first one found.
 */
bool mb_cpu_line_is_return_thunk(const char *line);
bool mb_cpu_return_thunk(const char *dir, char *evidence, size_t len);

/* The context's "cpu" object: vendor, family, model, stepping, microcode, vulnerabilities. */
struct mb_json *mb_cpu_context(const struct mb_cpu_info *ci);

#endif
