/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The BPF LSM: whether the running kernel has it among its active LSMs, whether it loads LSM
 * programs (the only ones given inode storage), and a sentence that says both and how to
 * enable it.
 */
#ifndef MB_LSM_H
#define MB_LSM_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the comma-separated LSM list @list names @lsm. */
bool mb_lsm_list_has(const char *list, const char *lsm);
/*
 * The LSM list a text gives: the "lsm=" word of a kernel command line, or the CONFIG_LSM="..."
 * line of a kernel config. 0, or -ENOENT when @text has none.
 */
int mb_lsm_from_cmdline(const char *cmdline, char *list, size_t len);
int mb_lsm_from_config(const char *config, char *list, size_t len);
/*
 * The active LSMs: /sys/kernel/security/lsm where securityfs is mounted, else the boot's lsm=,
 * else the kernel config's CONFIG_LSM (/boot/config-<release>). @from says which. 0 or -ENOENT.
 */
int mb_lsm_active(char *list, size_t len, const char **from);
/*
 * "the BPF LSM is ..., and LSM programs ...": what mb_lsm_active found, and whether an LSM
 * program on file_open loads and attaches (mb_probe_lsm, probe.h).
 */
void mb_explain_bpf_lsm(char *buf, size_t len);

#endif
