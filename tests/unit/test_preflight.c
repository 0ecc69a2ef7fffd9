// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The noise preflight against fake /proc and /sys trees and synthetic /proc/stat readings. */
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

#include "fake_tree.h"

#include "util/cpuset.h"
#include "sys/cpustat.h"
#include "util/json.h"
#include "plan/preflight.h"

static char root[64];

static void put(const char *path, const char *content)
{
	fake_tree_put(root, path, content);
}

static int setup(void **state)
{
	(void)state;
	return fake_tree_make(root, sizeof(root), "mb-preflight");
}

static int teardown(void **state)
{
	(void)state;
	return fake_tree_remove(root);
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

/* /proc/stat readings 200 ms apart on two CPUs (20 ticks each at USER_HZ 100). */
static const char *const STAT_BEFORE =
	"cpu  2000 0 1000 40000 100 0 50 0 0 0\n"
	"cpu0 1000 0 500 20000 50 0 25 0 0 0\n"
	"cpu1 1000 0 500 20000 50 0 25 0 0 0\n"
	"intr 12345 0 1 2\nctxt 999\nprocs_running 3\n";
static const char *const STAT_QUIET =
	"cpu  2001 0 1000 40039 100 0 50 0 0 0\n"
	"cpu0 1001 0 500 20019 50 0 25 0 0 0\n"
	"cpu1 1000 0 500 20020 50 0 25 0 0 0\n";
/* CPU 1: of 20 ticks 18 user, 1 steal, 1 idle: 95 % busy, 5 % steal. */
static const char *const STAT_CPU1_BUSY =
	"cpu0 1000 0 500 20020 50 0 25 0 0 0\n"
	"cpu1 1018 0 500 20001 50 0 25 1 0 0\n";

static struct mb_json *collect(const char *rt, const struct mb_cpuset *online,
			       const struct mb_preflight_use *use, const char *after,
			       int *warnings)
{
	struct mb_preflight_in in = {
		.root = rt, .online = online, .use = use, .window_ms = 200,
		.stat_before = after ? STAT_BEFORE : NULL, .stat_after = after,
	};

	return mb_preflight_collect(&in, warnings);
}

static const struct mb_json *check_of(const struct mb_json *checks, const char *name)
{
	for (size_t i = 0; i < mb_json_len(checks); i++) {
		const struct mb_json *c = mb_json_at(checks, i);

		if (!strcmp(mb_json_str(mb_json_get(c, "check"), ""), name))
			return c;
	}
	return NULL;
}

static void use_of(struct mb_preflight_use *use, int threads, int pinned_cpu)
{
	memset(use, 0, sizeof(*use));
	use->threads = threads;
	if (pinned_cpu >= 0)
		mb_cpuset_add(&use->pinned, pinned_cpu);
}

static void test_quiet_machine(void **state)
{
	struct mb_preflight_use use;
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
	cpus(&online, 2);
	use_of(&use, 2, -1);
	checks = collect(root, &online, &use, STAT_QUIET, &warnings);
	assert_non_null(checks);
	assert_int_equal(warnings, 0);
	assert_string_equal(status_of(checks, "cpu_governor"), "ok");
	assert_string_equal(status_of(checks, "turbo"), "ok");
	assert_string_equal(status_of(checks, "smt"), "ok");
	assert_string_equal(status_of(checks, "bpf_stats"), "ok");
	assert_string_equal(status_of(checks, "bpf_jit"), "ok");
	assert_string_equal(status_of(checks, "virtualization"), "ok");
	assert_string_equal(status_of(checks, "cpu_busy"), "ok");
	assert_string_equal(status_of(checks, "producers"), "ok");
	mb_json_free(checks);
}

static void test_noisy_machine(void **state)
{
	struct mb_preflight_use use;
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
	cpus(&online, 2);
	use_of(&use, 4, -1);
	checks = collect(root, &online, &use, STAT_CPU1_BUSY, &warnings);
	assert_int_equal(warnings, 8);
	assert_string_equal(status_of(checks, "cpu_governor"), "warning");
	assert_string_equal(mb_json_str(mb_json_get(mb_json_at(checks, 0), "value"), ""),
			    "performance,powersave");
	assert_string_equal(status_of(checks, "turbo"), "warning");
	assert_string_equal(status_of(checks, "smt"), "warning");
	assert_string_equal(status_of(checks, "bpf_stats"), "warning");
	assert_string_equal(status_of(checks, "bpf_jit"), "warning");
	assert_string_equal(status_of(checks, "virtualization"), "warning");
	assert_string_equal(status_of(checks, "cpu_busy"), "warning");
	assert_non_null(strstr(mb_json_str(mb_json_get(check_of(checks, "cpu_busy"), "message"), ""),
			       "CPU 1 was 95 % busy (steal 5 %) over 200 ms before the run"));
	assert_string_equal(status_of(checks, "producers"), "warning");
	/* Each warning says how to fix it. */
	for (size_t i = 0; i < mb_json_len(checks); i++)
		assert_true(strlen(mb_json_str(mb_json_get(mb_json_at(checks, i), "message"), "")) > 20);
	mb_json_free(checks);
}

static void test_unknown(void **state)
{
	struct mb_preflight_use use;
	struct mb_cpuset online;
	struct mb_json *checks;
	int warnings;

	(void)state;
	/* Nothing to read (a VM without cpufreq, a kernel without SMT control): unknown, no warning. */
	cpus(&online, 1);
	use_of(&use, 1, -1);
	checks = collect("/nonexistent-root", &online, &use, NULL, &warnings);
	assert_int_equal(warnings, 0);
	assert_string_equal(status_of(checks, "cpu_governor"), "unknown");
	assert_string_equal(status_of(checks, "turbo"), "unknown");
	assert_string_equal(status_of(checks, "smt"), "unknown");
	assert_string_equal(status_of(checks, "virtualization"), "unknown");
	assert_string_equal(status_of(checks, "cpu_busy"), "unknown");
	mb_json_free(checks);
}

static void test_amd_boost(void **state)
{
	struct mb_preflight_use use;
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
	cpus(&online, 2);
	use_of(&use, 1, -1);
	checks = collect(root, &online, &use, STAT_QUIET, &warnings);
	assert_string_equal(status_of(checks, "turbo"), "warning");
	mb_json_free(checks);
}

/* cpu_busy alone: its verdict, value, message and measured figures. */
static struct mb_json *busy(const struct mb_preflight_use *use, const char *after, int nr_cpus,
			    bool *warned)
{
	static struct mb_cpuset online;
	struct mb_preflight_in in = {
		.root = "", .online = &online, .use = use, .window_ms = 200,
		.stat_before = STAT_BEFORE, .stat_after = after,
	};

	cpus(&online, nr_cpus);
	return mb_preflight_busy(&in, warned);
}

static double measured_num(const struct mb_json *c, const char *key)
{
	return mb_json_num(mb_json_get(mb_json_get(c, "measured"), key), -1);
}

static void test_busy_pinned(void **state)
{
	struct mb_preflight_use use;
	const struct mb_json *cpu;
	struct mb_json *c;
	bool warned;

	(void)state;
	/* Pinned to the busy CPU: a warning that says what was measured. */
	use_of(&use, 1, 1);
	c = busy(&use, STAT_CPU1_BUSY, 2, &warned);
	assert_true(warned);
	assert_string_equal(mb_json_str(mb_json_get(c, "status"), ""), "warning");
	assert_float_equal(mb_json_num(mb_json_get(c, "value"), 0), 95, 0.01);
	assert_non_null(strstr(mb_json_str(mb_json_get(c, "message"), ""),
			       "CPU 1 was 95 % busy (steal 5 %) over 200 ms before the run"));
	assert_int_equal(mb_json_len(mb_json_get(mb_json_get(c, "measured"), "cpus")), 1);
	cpu = mb_json_at(mb_json_get(mb_json_get(c, "measured"), "cpus"), 0);
	assert_int_equal(mb_json_num(mb_json_get(cpu, "cpu"), -1), 1);
	assert_float_equal(mb_json_num(mb_json_get(cpu, "steal_pct"), -1), 5, 0.01);
	assert_int_equal(measured_num(c, "free_cpus"), 0);
	assert_int_equal(measured_num(c, "window_ms"), 200);
	assert_int_equal(measured_num(c, "threshold_pct"), MB_PREFLIGHT_BUSY_PCT);
	assert_true(mb_json_truthy(mb_json_get(mb_json_get(c, "measured"), "pinned")));
	mb_json_free(c);

	/* Pinned to the idle CPU: the busy one is none of the run's business. */
	use_of(&use, 1, 0);
	c = busy(&use, STAT_CPU1_BUSY, 2, &warned);
	assert_false(warned);
	assert_string_equal(mb_json_str(mb_json_get(c, "status"), ""), "ok");
	assert_true(mb_json_is(mb_json_get(c, "message"), MB_JSON_NULL));
	assert_float_equal(mb_json_num(mb_json_get(c, "value"), -1), 0, 0.01);
	mb_json_free(c);
}

static void test_busy_unpinned(void **state)
{
	struct mb_preflight_use use;
	struct mb_json *c;
	bool warned;

	(void)state;
	/* One unpinned producer: the idle CPU is enough. */
	use_of(&use, 1, -1);
	c = busy(&use, STAT_CPU1_BUSY, 2, &warned);
	assert_false(warned);
	assert_int_equal(measured_num(c, "free_cpus"), 1);
	/* Only the busy CPU is listed. */
	assert_int_equal(mb_json_len(mb_json_get(mb_json_get(c, "measured"), "cpus")), 1);
	mb_json_free(c);
	/* Two: one of them competes. */
	use_of(&use, 2, -1);
	c = busy(&use, STAT_CPU1_BUSY, 2, &warned);
	assert_true(warned);
	assert_non_null(strstr(mb_json_str(mb_json_get(c, "message"), ""),
			       "1 of 2 online CPUs left for 2 producers"));
	mb_json_free(c);
	/* Quiet: no warning however many producers the CPUs hold. */
	c = busy(&use, STAT_QUIET, 2, &warned);
	assert_false(warned);
	assert_float_equal(mb_json_num(mb_json_get(c, "value"), -1), 5, 0.01);
	mb_json_free(c);
}

static void test_busy_threshold(void **state)
{
	struct mb_preflight_use use;
	struct mb_json *c;
	bool warned;
	char after[256];

	(void)state;
	use_of(&use, 1, 0);
	/* 6 of 20 ticks: exactly the threshold, busy. */
	snprintf(after, sizeof(after), "cpu0 1006 0 500 20014 50 0 25 0 0 0\n");
	c = busy(&use, after, 1, &warned);
	assert_true(warned);
	mb_json_free(c);
	/* 5 of 20 ticks: below it. */
	snprintf(after, sizeof(after), "cpu0 1005 0 500 20015 50 0 25 0 0 0\n");
	c = busy(&use, after, 1, &warned);
	assert_false(warned);
	mb_json_free(c);
	/* irq and softirq count as busy, iowait as idle; a line without steal parses. */
	snprintf(after, sizeof(after), "cpu0 1000 0 500 20005 55 5 30\n");
	c = busy(&use, after, 1, &warned);
	assert_float_equal(mb_json_num(mb_json_get(c, "value"), -1), 50, 0.01);
	mb_json_free(c);
	/* No tick passed, or the CPU has no line: unknown, not a warning. */
	c = busy(&use, STAT_BEFORE, 1, &warned);
	assert_false(warned);
	assert_string_equal(mb_json_str(mb_json_get(c, "status"), ""), "unknown");
	mb_json_free(c);
	use_of(&use, 1, 7);
	c = busy(&use, STAT_QUIET, 1, &warned);
	assert_string_equal(mb_json_str(mb_json_get(c, "status"), ""), "unknown");
	mb_json_free(c);
}

static void test_cpustat_parse(void **state)
{
	struct mb_cpustat a, b;
	struct mb_cpu_busy cb;

	(void)state;
	assert_int_equal(mb_cpustat_parse(STAT_BEFORE, &a), 0);
	assert_true(a.nr >= 2);
	/* user + nice + system + irq + softirq + steal; total adds idle and iowait. */
	assert_int_equal(a.cpu[0].busy, 1525);
	assert_int_equal(a.cpu[0].total, 21575);
	assert_int_equal(mb_cpustat_parse(STAT_CPU1_BUSY, &b), 0);
	assert_true(mb_cpustat_busy(&a, &b, 1, &cb));
	assert_float_equal(cb.busy, 19.0 / 20, 1e-12);
	assert_float_equal(cb.steal, 1.0 / 20, 1e-12);
	assert_false(mb_cpustat_busy(&a, &b, 2, &cb));
	/* Backwards: not a window. */
	assert_false(mb_cpustat_busy(&b, &a, 1, &cb));
	mb_cpustat_free(&b);
	/* A sparse CPU list (CPU 9 only), and lines that are not CPU lines. */
	assert_int_equal(mb_cpustat_parse("cpu 1 2 3 4\ncpufreq 1 2 3 4\ncpu9 1 2 3 4\ncpu3\n"
					  "cpu-1 1 2 3 4\ncpu5 1 2 x\n", &b), 0);
	assert_true(b.nr > 9);
	assert_int_equal(b.cpu[9].total, 10);
	assert_int_equal(b.cpu[3].total, 0);
	assert_int_equal(b.cpu[5].total, 0);
	mb_cpustat_free(&b);
	assert_int_equal(mb_cpustat_parse("intr 1 2 3\n", &b), -EINVAL);
	/* Counters no kernel reaches would wrap the sums: the line is refused. */
	assert_int_equal(mb_cpustat_parse("cpu0 18446744073709551615 0 0 1\n", &b), -EINVAL);
	assert_int_equal(mb_cpustat_parse("", &b), -EINVAL);
	mb_cpustat_free(&a);
}

/* The window: the default, or the environment's value where it is in range. */
static void test_window(void **state)
{
	(void)state;
	assert_int_equal(mb_preflight_window_ms(NULL), MB_PREFLIGHT_WINDOW_MS);
	assert_int_equal(mb_preflight_window_ms(""), MB_PREFLIGHT_WINDOW_MS);
	assert_int_equal(mb_preflight_window_ms("20"), 20);
	assert_int_equal(mb_preflight_window_ms("10"), 10);
	assert_int_equal(mb_preflight_window_ms("1000"), 1000);
	assert_int_equal(mb_preflight_window_ms("9"), MB_PREFLIGHT_WINDOW_MS);
	assert_int_equal(mb_preflight_window_ms("1001"), MB_PREFLIGHT_WINDOW_MS);
	assert_int_equal(mb_preflight_window_ms("20ms"), MB_PREFLIGHT_WINDOW_MS);
	assert_int_equal(mb_preflight_window_ms("-5"), MB_PREFLIGHT_WINDOW_MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet_machine),
		cmocka_unit_test(test_noisy_machine),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_amd_boost),
		cmocka_unit_test(test_busy_pinned),
		cmocka_unit_test(test_busy_unpinned),
		cmocka_unit_test(test_busy_threshold),
		cmocka_unit_test(test_cpustat_parse),
		cmocka_unit_test(test_window),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
