// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/env.h"
#include "util/json.h"
#include "util/log.h"
#include "preflight.h"
#include "util/sysfile.h"

static bool read_line(const char *root, const char *path, char *buf, size_t len)
{
	char full[512];

	snprintf(full, sizeof(full), "%s%s", root, path);
	return mb_read_first_line(full, buf, len);
}

static void add(struct mb_json *checks, int *warnings, const char *name, const char *status,
		struct mb_json *value, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void add(struct mb_json *checks, int *warnings, const char *name, const char *status,
		struct mb_json *value, const char *fmt, ...)
{
	struct mb_json *o = mb_json_object();
	char msg[512];
	va_list ap;

	mb_json_set_str(o, "check", name);
	mb_json_set_str(o, "status", status);
	mb_json_set(o, "value", value ? value : mb_json_null());
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		mb_json_set_str(o, "message", msg);
	} else {
		mb_json_set(o, "message", mb_json_null());
	}
	mb_json_append(checks, o);
	*warnings += !strcmp(status, "warning");
}

static void check_governor(const char *root, const struct mb_cpuset *online,
			   struct mb_json *checks, int *w)
{
	char path[128], gov[64], seen[256] = "";
	bool any = false, all_perf = true;

	for (int cpu = mb_cpuset_next(online, 0); cpu >= 0; cpu = mb_cpuset_next(online, cpu + 1)) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			 cpu);
		if (!read_line(root, path, gov, sizeof(gov)) || !gov[0])
			continue;
		any = true;
		all_perf &= !strcmp(gov, "performance");
		if (!strstr(seen, gov) && strlen(seen) + strlen(gov) + 2 < sizeof(seen))
			snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "%s%s",
				 seen[0] ? "," : "", gov);
	}
	if (!any)
		add(checks, w, "cpu_governor", "unknown", NULL,
		    "no cpufreq governor to read (a VM, or frequency scaling not exposed)");
	else if (all_perf)
		add(checks, w, "cpu_governor", "ok", mb_json_string(seen), NULL);
	else
		add(checks, w, "cpu_governor", "warning", mb_json_string(seen),
		    "CPU frequency governor is '%s', not 'performance': the clock follows the load (cpupower frequency-set -g performance)",
		    seen);
}

static void check_turbo(const char *root, struct mb_json *checks, int *w)
{
	char v[32];

	if (read_line(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof(v))) {
		if (!strcmp(v, "0"))
			add(checks, w, "turbo", "warning", mb_json_string("on"),
			    "turbo boost is on: the clock depends on temperature and on the other cores (echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo)");
		else
			add(checks, w, "turbo", "ok", mb_json_string("off"), NULL);
	} else if (read_line(root, "/sys/devices/system/cpu/cpufreq/boost", v, sizeof(v))) {
		if (!strcmp(v, "1"))
			add(checks, w, "turbo", "warning", mb_json_string("on"),
			    "CPU boost is on: the clock depends on temperature and on the other cores (echo 0 > /sys/devices/system/cpu/cpufreq/boost)");
		else
			add(checks, w, "turbo", "ok", mb_json_string("off"), NULL);
	} else {
		add(checks, w, "turbo", "unknown", NULL, "no turbo or boost control to read");
	}
}

static void check_smt(const char *root, struct mb_json *checks, int *w)
{
	char v[32];

	if (!read_line(root, "/sys/devices/system/cpu/smt/active", v, sizeof(v)))
		add(checks, w, "smt", "unknown", NULL, "no SMT state to read");
	else if (!strcmp(v, "1"))
		add(checks, w, "smt", "warning", mb_json_string("on"),
		    "SMT is on: a sibling hardware thread can share a producer's core (pin producers to distinct cores, or echo off > /sys/devices/system/cpu/smt/control)");
	else
		add(checks, w, "smt", "ok", mb_json_string("off"), NULL);
}

static void check_sysctl(const char *root, struct mb_json *checks, int *w, const char *name,
			 const char *path, const char *bad, const char *msg)
{
	char v[32];
	int n;

	if (!read_line(root, path, v, sizeof(v)) || sscanf(v, "%d", &n) != 1)
		add(checks, w, name, "unknown", NULL, "cannot read %s", path);
	else if (v[0] && v[1] == '\0' && strchr(bad, v[0]))
		add(checks, w, name, "warning", mb_json_number(n), "%s", msg);
	else
		add(checks, w, name, "ok", mb_json_number(n), NULL);
}

static void check_vm(const char *root, struct mb_json *checks, int *w)
{
	char line[4096], vendor[128] = "", product[128] = "", hv[64] = "", what[300];
	bool flags_seen = false, hypervisor = false;
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		flags_seen = true;
		hypervisor = strstr(line, " hypervisor") != NULL;
		break;
	}
	if (f)
		fclose(f);
	read_line(root, "/sys/hypervisor/type", hv, sizeof(hv));
	read_line(root, "/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	read_line(root, "/sys/class/dmi/id/product_name", product, sizeof(product));
	if (hv[0])
		hypervisor = true;
	if (!hypervisor && !flags_seen) {
		add(checks, w, "virtualization", "unknown", NULL, "no CPU flags to read");
		return;
	}
	if (!hypervisor) {
		add(checks, w, "virtualization", "ok", mb_json_string("bare metal"), NULL);
		return;
	}
	if (vendor[0] || product[0])
		snprintf(what, sizeof(what), "%s%s%s", vendor, vendor[0] && product[0] ? " " : "",
			 product);
	else if (hv[0])
		snprintf(what, sizeof(what), "%s", hv);
	else
		snprintf(what, sizeof(what), "hypervisor CPU flag");
	add(checks, w, "virtualization", "warning", mb_json_string(what),
	    "running in a virtual machine (%s): steal time and neighbours on the host add noise; compare only runs made on the same machine",
	    what);
}

struct mb_json *mb_preflight_collect(const struct mb_preflight_in *in, int *warnings)
{
	struct mb_json *checks = mb_json_array();
	const char *root = in->root;
	int max_producers = in->use->threads;
	bool busy;

	*warnings = 0;
	if (!checks)
		return NULL;
	check_governor(root, in->online, checks, warnings);
	check_turbo(root, checks, warnings);
	check_smt(root, checks, warnings);
	check_sysctl(root, checks, warnings, "bpf_stats", "/proc/sys/kernel/bpf_stats_enabled", "1",
		     "kernel.bpf_stats_enabled is 1: every program run is timed, which adds to each call (sysctl kernel.bpf_stats_enabled=0)");
	check_sysctl(root, checks, warnings, "bpf_jit", "/proc/sys/net/core/bpf_jit_enable", "02",
		     "the BPF JIT is off or in debug mode: programs do not run as they do in production (sysctl net.core.bpf_jit_enable=1)");
	check_vm(root, checks, warnings);
	mb_json_append(checks, mb_preflight_busy(in, &busy));
	*warnings += busy;
	if (max_producers > in->online->count)
		add(checks, warnings, "producers", "warning", mb_json_number(max_producers),
		    "%d producers on %d online CPUs: the threads share CPUs, so throughput measures time-slicing, not map scalability",
		    max_producers, in->online->count);
	else
		add(checks, warnings, "producers", "ok", mb_json_number(max_producers), NULL);
	return checks;
}

int mb_preflight_window_ms(const char *env_value)
{
	char *end;
	long v;

	if (!env_value || !*env_value)
		return MB_PREFLIGHT_WINDOW_MS;
	errno = 0;
	v = strtol(env_value, &end, 10);
	if (errno || *end || v < MB_PREFLIGHT_WINDOW_MIN || v > MB_PREFLIGHT_WINDOW_MAX) {
		mb_warn("%s=%s: must be %d..%d (ms); the preflight watches %d ms",
			MB_PREFLIGHT_WINDOW_ENV, env_value, MB_PREFLIGHT_WINDOW_MIN,
			MB_PREFLIGHT_WINDOW_MAX, MB_PREFLIGHT_WINDOW_MS);
		return MB_PREFLIGHT_WINDOW_MS;
	}
	return (int)v;
}

/* Two readings of /proc/stat, @window_ms apart; mapbench only sleeps meanwhile. */
static void watch_cpus(int window_ms, char **before, char **after)
{
	struct timespec ts = {
		.tv_sec = window_ms / 1000,
		.tv_nsec = (window_ms % 1000) * 1000000L,
	};

	*before = mb_read_file("/proc/stat");
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	*after = *before ? mb_read_file("/proc/stat") : NULL;
}

int mb_preflight(struct mb_env *env, const struct mb_preflight_use *use)
{
	struct mb_json *rec = mb_json_object(), *checks;
	struct mb_preflight_in in = {
		.root = "", .online = &env->online, .use = use,
		.window_ms = mb_preflight_window_ms(getenv(MB_PREFLIGHT_WINDOW_ENV)),
	};
	char *before, *after;
	int warnings = 0;

	watch_cpus(in.window_ms, &before, &after);
	in.stat_before = before;
	in.stat_after = after;
	checks = mb_preflight_collect(&in, &warnings);
	free(before);
	free(after);
	for (size_t i = 0; i < mb_json_len(checks); i++) {
		const struct mb_json *c = mb_json_at(checks, i);
		const char *name = mb_json_str(mb_json_get(c, "check"), "");
		const char *msg = mb_json_str(mb_json_get(c, "message"), "");

		if (strcmp(mb_json_str(mb_json_get(c, "status"), ""), "warning"))
			continue;
		if (env->strict)
			mb_err("--strict: refusing to measure: %s", msg);
		else if (!mb_log_quiet() && strcmp(name, "producers"))
			/* The runner warns about each oversubscribed run itself. */
			mb_warn("preflight: %s", msg);
	}
	mb_json_set_bool(rec, "strict", env->strict);
	mb_json_set_num(rec, "warnings", warnings);
	mb_json_set(rec, "checks", checks ? checks : mb_json_array());
	mb_json_free(env->preflight);
	env->preflight = rec;
	return env->strict && warnings ? MB_EXIT_SKIP : 0;
}
