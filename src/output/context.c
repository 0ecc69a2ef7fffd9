// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* What a result was measured on: tool, kernel, CPU, libbpf, command line. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>

#include "sys/cpuinfo.h"
#include "sys/kconfig.h"
#include "core/env.h"
#include "util/json.h"
#include "report.h"
#include "core/runner.h"
#include "util/sysfile.h"
#include "util/version.h"

static void set_sysctl(struct mb_json *obj, const char *key, const char *path)
{
	char buf[64];
	int v;

	mb_read_first_line(path, buf, sizeof(buf));
	if (sscanf(buf, "%d", &v) == 1)
		mb_json_set_num(obj, key, v);
	else
		mb_json_set(obj, key, mb_json_null());
}

struct mb_json *mb_report_context(const struct mb_env *env)
{
	struct mb_json *ctx = mb_json_object(), *kernel, *argv;
	char buf[512], host[256];
	struct mb_cpu_info ci;
	struct utsname uts;

	mb_json_set_str(ctx, "tool", "mapbench");
	mb_json_set_str(ctx, "version", mb_version);
	mb_json_set_str(ctx, "git_revision", mb_git_revision);
	kernel = mb_json_child(ctx, "kernel");
	if (!uname(&uts)) {
		mb_json_set_str(kernel, "release", uts.release);
		mb_json_set_str(kernel, "version", uts.version);
		mb_json_set_str(kernel, "machine", uts.machine);
		/* What the results history's machine class names the kernel's build by. */
		mb_json_set(kernel, "config_hash",
			    mb_kconfig_hash(uts.release, buf, sizeof(buf)) ? mb_json_null() :
									     mb_json_string(buf));
	}
	mb_cpu_info_read(&ci);
	mb_json_set_str(ctx, "cpu_model", ci.model_name[0] ? ci.model_name : "unknown");
	mb_json_set(ctx, "cpu", mb_cpu_context(&ci));
	mb_json_set_num(ctx, "online_cpus", env->online.count);
	mb_cpuset_format(&env->online, buf, sizeof(buf));
	mb_json_set_str(ctx, "online_cpu_list", buf);
	mb_json_set_num(ctx, "possible_cpus", libbpf_num_possible_cpus());
	mb_json_set_str(ctx, "libbpf_version", libbpf_version_string());
	if (!gethostname(host, sizeof(host))) {
		host[sizeof(host) - 1] = '\0';
		mb_json_set_str(ctx, "hostname", host);
	}
	mb_read_first_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", buf,
		  sizeof(buf));
	mb_json_set_str(ctx, "clocksource", buf[0] ? buf : "unknown");
	set_sysctl(ctx, "bpf_jit_enable", "/proc/sys/net/core/bpf_jit_enable");
	set_sysctl(ctx, "bpf_stats_enabled", "/proc/sys/kernel/bpf_stats_enabled");
	set_sysctl(ctx, "unprivileged_bpf_disabled", "/proc/sys/kernel/unprivileged_bpf_disabled");
	argv = mb_json_array();
	for (int i = 0; i < env->argc; i++)
		mb_json_append(argv, mb_json_string(env->argv[i]));
	mb_json_set(ctx, "command_line", argv);
	if (env->preflight)
		mb_json_set(ctx, "preflight", mb_json_copy(env->preflight));
	mb_timestamp(buf, sizeof(buf));
	mb_json_set_str(ctx, "time", buf);
	return ctx;
}
