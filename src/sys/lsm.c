// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "lsm.h"
#include "probe.h"

#define LSM_PROBE_HOOK	"file_open"	/* any hook: whether an LSM program loads at all */

bool mb_lsm_list_has(const char *list, const char *lsm)
{
	size_t n = strlen(lsm);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, lsm, n) && (p[n] == ',' || p[n] == '\0' || p[n] == '\n'))
			return true;
	return false;
}

/* Copies the list that starts at @s and ends at any of @end into @list. */
static int copy_list(const char *s, const char *end, char *list, size_t len)
{
	size_t n = strcspn(s, end);

	if (!n || n >= len)
		return -ENOENT;
	memcpy(list, s, n);
	list[n] = '\0';
	return 0;
}

int mb_lsm_from_cmdline(const char *cmdline, char *list, size_t len)
{
	const char *last = NULL;

	/* The kernel takes the last lsm= word; " lsm=" only, not "foo_lsm=". */
	for (const char *p = cmdline; (p = strstr(p, "lsm=")); p += 4)
		if (p == cmdline || p[-1] == ' ')
			last = p + 4;
	return last ? copy_list(last, " \n", list, len) : -ENOENT;
}

int mb_lsm_from_config(const char *config, char *list, size_t len)
{
	const char *p = strstr(config, "\nCONFIG_LSM=\"");

	if (!strncmp(config, "CONFIG_LSM=\"", 12))
		p = config - 1;
	return p ? copy_list(p + 13, "\"\n", list, len) : -ENOENT;
}

/* The text of @path, to free; NULL when it cannot be read. */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t n = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &n, '\0', f) < 0) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int mb_lsm_active(char *list, size_t len, const char **from)
{
	struct utsname u;
	char path[128], *text;
	int err = -ENOENT;

	text = read_text("/sys/kernel/security/lsm");
	if (text && !copy_list(text, "\n", list, len)) {
		*from = "/sys/kernel/security/lsm";
		free(text);
		return 0;
	}
	free(text);
	text = read_text("/proc/cmdline");
	if (text && !mb_lsm_from_cmdline(text, list, len)) {
		*from = "the kernel command line's lsm=";
		err = 0;
	}
	free(text);
	if (err && !uname(&u)) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		text = read_text(path);
		if (text && !mb_lsm_from_config(text, list, len)) {
			*from = "the kernel config's CONFIG_LSM";
			err = 0;
		}
		free(text);
	}
	return err;
}

void mb_explain_bpf_lsm(char *buf, size_t len)
{
	char list[256], why[256], state[1024];
	const char *from = NULL;

	if (mb_lsm_active(list, sizeof(list), &from))
		snprintf(state, sizeof(state), "whether the BPF LSM is active cannot be read here (no securityfs, no lsm= at boot); it is enabled by booting with lsm=...,bpf (the active list with bpf appended)");
	else if (mb_lsm_list_has(list, "bpf"))
		snprintf(state, sizeof(state), "the BPF LSM is active (%s: %s)", from, list);
	else
		snprintf(state, sizeof(state), "the BPF LSM is not active (%s: %s): boot with lsm=%s,bpf to enable it",
			 from, list, list);
	if (mb_probe_lsm(LSM_PROBE_HOOK, false, why, sizeof(why)))
		snprintf(buf, len, "%s, and LSM programs do not load here (%s)", state, why);
	else
		snprintf(buf, len, "%s, and LSM programs load here, but the op loop cannot be one", state);
}
