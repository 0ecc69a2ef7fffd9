/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Privilege and kernel-feature checks, with messages that say what is missing and how to fix it. */
#ifndef MB_PROBE_H
#define MB_PROBE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether this process may use BPF (creates and closes a one-entry array map). Cached. */
int mb_probe_bpf(char *why, size_t len);
/* raw_tp programs with bpf_loop and bpf_ktime_get_ns, run through BPF_PROG_TEST_RUN. Cached. */
int mb_probe_kernel_loop(char *why, size_t len);
/* Whether the running kernel has map type @map_type (enum bpf_map_type). */
int mb_probe_map_type(int map_type, const char *name, char *why, size_t len);

/*
 * Whether an fentry program can be loaded on kernel function @func and attached (a trampoline),
 * with raw syscalls so that a refusal prints nothing. 0, or a negative errno with the reason,
 * one phrase, in @why (EPERM: this kernel blocks BPF trampolines; ENOENT: no such function).
 */
int mb_probe_fentry(const char *func, char *why, size_t len);

/*
 * The same for an LSM program on hook @hook (as "socket_post_create"; sleepable: lsm.s), which
 * needs the BPF LSM active as well as trampolines.
 */
int mb_probe_lsm(const char *hook, bool sleepable, char *why, size_t len);

/* Whether the effective capability set holds @cap (CAP_BPF, CAP_SYS_ADMIN, ...). */
bool mb_have_cap(int cap);

/*
 * Names the capabilities around BPF maps (CAP_SYS_ADMIN, CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN,
 * CAP_SYS_RESOURCE, CAP_IPC_LOCK) that this process lacks, comma-separated, into @buf;
 * returns how many. A root process in a container or sandbox can lack some.
 */
size_t mb_missing_caps(char *buf, size_t len);

/* A sentence for an EPERM from a BPF syscall: what is missing and how to fix it. */
void mb_explain_eperm(char *buf, size_t len);

/*
 * A sentence for a BPF object that failed to load (@err from libbpf's load): the verifier's
 * last words when it rejected a program, and where the whole log is (-v).
 */
void mb_explain_load_error(int err, const char *what, char *buf, size_t len);

#endif
