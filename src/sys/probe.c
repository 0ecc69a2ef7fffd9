// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "util/log.h"
#include "probe.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

bool mb_have_cap(int cap)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[cap / 32].effective & (1u << (cap % 32));
}

/* Capabilities a root process is expected to hold that the kernel checks around BPF maps. */
static const struct {
	int cap;
	const char *name;
} bpf_caps[] = {
	{ CAP_SYS_ADMIN, "CAP_SYS_ADMIN" }, { CAP_BPF, "CAP_BPF" },
	{ CAP_PERFMON, "CAP_PERFMON" }, { CAP_NET_ADMIN, "CAP_NET_ADMIN" },
	{ CAP_SYS_RESOURCE, "CAP_SYS_RESOURCE" }, { CAP_IPC_LOCK, "CAP_IPC_LOCK" },
};

size_t mb_missing_caps(char *buf, size_t len)
{
	size_t off = 0, n = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(bpf_caps) / sizeof(bpf_caps[0]); i++) {
		if (mb_have_cap(bpf_caps[i].cap))
			continue;
		if (off < len)
			off += snprintf(buf + off, len - off, "%s%s", n ? ", " : "",
					bpf_caps[i].name);
		n++;
	}
	return n;
}

static int read_sysctl_int(const char *path, int *v)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%d", v) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

void mb_explain_eperm(char *buf, size_t len)
{
	int unpriv = -1;

	read_sysctl_int("/proc/sys/kernel/unprivileged_bpf_disabled", &unpriv);
	if (geteuid() != 0 && !mb_have_cap(CAP_BPF) && !mb_have_cap(CAP_SYS_ADMIN)) {
		snprintf(buf, len,
			 "BPF is not permitted for this user (kernel.unprivileged_bpf_disabled=%d, no CAP_BPF): run as root, or grant CAP_BPF and CAP_PERFMON (e.g. setcap cap_bpf,cap_perfmon+ep mapbench)",
			 unpriv);
	} else if (!mb_have_cap(CAP_PERFMON) && !mb_have_cap(CAP_SYS_ADMIN)) {
		snprintf(buf, len,
			 "BPF is not permitted: CAP_PERFMON is missing (tracing programs and bpf_ktime_get_ns need it); grant CAP_BPF and CAP_PERFMON, or run as root");
	} else {
		snprintf(buf, len,
			 "the kernel refused BPF with EPERM although the process has CAP_BPF/CAP_SYS_ADMIN: a security module (lockdown, SELinux) or a seccomp filter may block the bpf() syscall");
	}
}

int mb_probe_bpf(char *why, size_t len)
{
	static int cached = 1;	/* 1: not probed yet */
	static char cached_why[512];
	int fd;

	if (cached <= 0) {
		snprintf(why, len, "%s", cached_why);
		return cached;
	}
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "mb_probe", 4, 4, 1, NULL);
	if (fd >= 0) {
		close(fd);
		cached = 0;
		cached_why[0] = '\0';
	} else {
		cached = -errno;
		if (cached == -EPERM)
			mb_explain_eperm(cached_why, sizeof(cached_why));
		else if (cached == -ENOSYS)
			snprintf(cached_why, sizeof(cached_why),
				 "this kernel has no bpf() syscall (CONFIG_BPF_SYSCALL=n)");
		else
			snprintf(cached_why, sizeof(cached_why),
				 "creating a BPF array map failed: %s", strerror(-cached));
	}
	snprintf(why, len, "%s", cached_why);
	return cached;
}

int mb_probe_kernel_loop(char *why, size_t len)
{
	static int cached = 1;
	static char cached_why[256];
	int ret;

	if (cached <= 0) {
		snprintf(why, len, "%s", cached_why);
		return cached;
	}
	cached = 0;
	ret = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT, NULL);
	if (ret <= 0) {
		cached = ret ? ret : -EOPNOTSUPP;
		snprintf(cached_why, sizeof(cached_why),
			 "this kernel cannot load raw_tp programs (needed for the in-kernel op loop)");
	} else if (libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT, BPF_FUNC_loop, NULL) <= 0) {
		cached = -EOPNOTSUPP;
		snprintf(cached_why, sizeof(cached_why),
			 "this kernel has no bpf_loop helper (Linux 5.17 or newer is needed for the in-kernel op loop)");
	}
	snprintf(why, len, "%s", cached_why);
	return cached;
}

int mb_probe_map_type(int map_type, const char *name, char *why, size_t len)
{
	int ret = libbpf_probe_bpf_map_type((enum bpf_map_type)map_type, NULL);

	if (ret > 0)
		return 0;
	snprintf(why, len, "this kernel has no %s map type", name);
	return ret ? ret : -EOPNOTSUPP;
}

void mb_explain_load_error(int err, const char *what, char *buf, size_t len)
{
	char tail[512];

	if (err == -EPERM && !mb_verifier_log_tail(tail, sizeof(tail), 1)) {
		mb_explain_eperm(buf, len);
		return;
	}
	/* The log is consumed: a later, unrelated failure must not quote it. */
	/* The verifier's EACCES reads "Permission denied": not a privilege problem, so say so. */
	if (mb_verifier_log_tail(tail, sizeof(tail), 3))
		snprintf(buf, len, "%s: the verifier rejected a program: ... %s%s", what, tail,
			 mb_log_verbose() ? "" : " (-v shows the whole verifier log)");
	else
		snprintf(buf, len, "%s: %s%s", what, strerror(-err),
			 mb_log_verbose() ? "" : " (-v shows libbpf's messages)");
	mb_verifier_log_clear();
}

/*
 * A trampoline program of @type (fentry, LSM) on BTF function @func, loaded and attached with
 * raw syscalls so that a refusal prints nothing. @kind names it in @why.
 */
static int probe_trampoline(enum bpf_prog_type type, enum bpf_attach_type attach, __u32 flags,
			    const char *func, const char *kind, char *why, size_t len)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = attach,
		    .prog_flags = flags);
	struct btf *vmlinux = btf__load_vmlinux_btf();
	int id, fd, link, err;

	if (!vmlinux) {
		err = -errno;
		snprintf(why, len, "the kernel's BTF cannot be read (%s)", strerror(-err));
		return err;
	}
	id = btf__find_by_name_kind(vmlinux, func, BTF_KIND_FUNC);
	btf__free(vmlinux);
	if (id < 0) {
		snprintf(why, len, "%s is not in the kernel's BTF", func);
		return -ENOENT;
	}
	opts.attach_btf_id = (__u32)id;
	fd = bpf_prog_load(type, "mb_tramp_probe", "Dual BSD/GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), &opts);
	if (fd < 0) {
		err = -errno;
		if (err == -EPERM)
			snprintf(why, len, "loading an %s program fails with EPERM although BPF is allowed: this kernel blocks BPF trampolines",
				 kind);
		else
			snprintf(why, len, "loading an %s program on %s fails: %s", kind, func,
				 strerror(-err));
		return err;
	}
	link = bpf_link_create(fd, 0, attach, NULL);
	err = link < 0 ? -errno : 0;
	if (err)
		snprintf(why, len, "attaching an %s program to %s fails: %s", kind, func,
			 strerror(-err));
	else
		close(link);
	close(fd);
	return err;
}

int mb_probe_fentry(const char *func, char *why, size_t len)
{
	return probe_trampoline(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, 0, func, "fentry", why,
				len);
}

int mb_probe_lsm(const char *hook, bool sleepable, char *why, size_t len)
{
	char func[128];

	/* LSM programs attach to the BPF LSM's stub of the hook. */
	snprintf(func, sizeof(func), "bpf_lsm_%s", hook);
	return probe_trampoline(BPF_PROG_TYPE_LSM, BPF_LSM_MAC, sleepable ? BPF_F_SLEEPABLE : 0,
				func, sleepable ? "lsm.s" : "lsm", why, len);
}
