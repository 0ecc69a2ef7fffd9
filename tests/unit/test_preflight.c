// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The noise preflight against fake /proc and /sys trees. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "cpuset.h"
#include "json.h"
#include "preflight.h"

static char root[64];

static void put(const char *path, const char *content)
{
	char full[512], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	/* mkdir -p the parent */
	for (slash = strchr(full + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(full, 0755);
		*slash = '/';
	}
	f = fopen(full, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/mb-preflight.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

static const char *status_of(const struct mb_json *checks, const char *name)
{
	for (size_t i = 0; i < mb_json_len(checks); i++) {
		const struct mb_json *c = mb_json_at(checks, i);

		if (!strcmp(mb_json_str(mb_json_get(c, "check"), ""), name))
			return mb_json_str(mb_json_get(c, "status"), "?");
	}
	return "missing";
}

static void cpus(struct mb_cpuset *set, int n)
{
	memset(set, 0, sizeof(*set));
	for (int i = 0; i < n; i++)
		mb_cpuset_add(set, i);
}

static void test_quiet_machine(void **state)
{
	struct mb_cpuset online;
	struct mb_json *checks;
	int warnings;

	(void)state;
	put("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	put("/sys/devices/system/cpu/smt/active", "0\n");
	put("/proc/sys/kernel/bpf_stats_enabled", "0\n");
	put("/proc/sys/net/core/bpf_jit_enable", "1\n");
	put("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme sse2\n");
	put("/proc/loadavg", "0.10 0.20 0.30 1/100 1234\n");
	cpus(&online, 2);
	checks = mb_preflight_collect(root, &online, 2, &warnings);
	assert_non_null(checks);
	assert_int_equal(warnings, 0);
	assert_string_equal(status_of(checks, "cpu_governor"), "ok");
	assert_string_equal(status_of(checks, "turbo"), "ok");
	assert_string_equal(status_of(checks, "smt"), "ok");
	assert_string_equal(status_of(checks, "bpf_stats"), "ok");
	assert_string_equal(status_of(checks, "bpf_jit"), "ok");
	assert_string_equal(status_of(checks, "virtualization"), "ok");
	assert_string_equal(status_of(checks, "load"), "ok");
	assert_string_equal(status_of(checks, "producers"), "ok");
	mb_json_free(checks);
}

static void test_noisy_machine(void **state)
{
	struct mb_cpuset online;
	struct mb_json *checks;
	int warnings;

	(void)state;
	put("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	put("/sys/devices/system/cpu/smt/active", "1\n");
	put("/proc/sys/kernel/bpf_stats_enabled", "1\n");
	put("/proc/sys/net/core/bpf_jit_enable", "0\n");
	put("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu hypervisor sse2\n");
	put("/sys/class/dmi/id/sys_vendor", "QEMU\n");
	put("/proc/loadavg", "3.50 2.00 1.00 3/100 1234\n");
	cpus(&online, 2);
	checks = mb_preflight_collect(root, &online, 4, &warnings);
	assert_int_equal(warnings, 8);
	assert_string_equal(status_of(checks, "cpu_governor"), "warning");
	assert_string_equal(mb_json_str(mb_json_get(mb_json_at(checks, 0), "value"), ""),
			    "performance,powersave");
	assert_string_equal(status_of(checks, "turbo"), "warning");
	assert_string_equal(status_of(checks, "smt"), "warning");
	assert_string_equal(status_of(checks, "bpf_stats"), "warning");
	assert_string_equal(status_of(checks, "bpf_jit"), "warning");
	assert_string_equal(status_of(checks, "virtualization"), "warning");
	assert_string_equal(status_of(checks, "load"), "warning");
	assert_string_equal(status_of(checks, "producers"), "warning");
	/* Each warning says how to fix it. */
	for (size_t i = 0; i < mb_json_len(checks); i++)
		assert_true(strlen(mb_json_str(mb_json_get(mb_json_at(checks, i), "message"), "")) > 20);
	mb_json_free(checks);
}

static void test_unknown(void **state)
{
	struct mb_cpuset online;
	struct mb_json *checks;
	int warnings;

	(void)state;
	/* Nothing to read (a VM without cpufreq, a kernel without SMT control): unknown, no warning. */
	cpus(&online, 1);
	checks = mb_preflight_collect("/nonexistent-root", &online, 1, &warnings);
	assert_int_equal(warnings, 0);
	assert_string_equal(status_of(checks, "cpu_governor"), "unknown");
	assert_string_equal(status_of(checks, "turbo"), "unknown");
	assert_string_equal(status_of(checks, "smt"), "unknown");
	assert_string_equal(status_of(checks, "virtualization"), "unknown");
	assert_string_equal(status_of(checks, "load"), "unknown");
	mb_json_free(checks);
}

static void test_amd_boost_and_load_scale(void **state)
{
	struct mb_cpuset online;
	struct mb_json *checks;
	int warnings;

	(void)state;
	{
		char p[512];

		snprintf(p, sizeof(p), "%s/sys/devices/system/cpu/intel_pstate/no_turbo", root);
		unlink(p);
	}
	put("/sys/devices/system/cpu/cpufreq/boost", "1\n");
	/* 3.5 on 32 CPUs is below 0.25 per CPU: not busy. */
	put("/proc/loadavg", "3.50 2.00 1.00 3/100 1234\n");
	cpus(&online, 32);
	checks = mb_preflight_collect(root, &online, 1, &warnings);
	assert_string_equal(status_of(checks, "turbo"), "warning");
	assert_string_equal(status_of(checks, "load"), "ok");
	mb_json_free(checks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet_machine),
		cmocka_unit_test(test_noisy_machine),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_amd_boost_and_load_scale),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
