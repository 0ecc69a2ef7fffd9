/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A fake file tree under a temporary folder, for unit tests of code that reads /sys or /proc
 * under a root it is given (header-only: each test file includes it after cmocka.h).
 */
#ifndef MB_FAKE_TREE_H
#define MB_FAKE_TREE_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Make a fresh folder /tmp/<prefix>.XXXXXX into @root (@len bytes). 0, or -1. */
static inline int fake_tree_make(char *root, size_t len, const char *prefix)
{
	snprintf(root, len, "/tmp/%s.XXXXXX", prefix);
	return mkdtemp(root) ? 0 : -1;
}

/* Write @text to @root/@rel, making the folders on its way. */
static inline void fake_tree_put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Remove @root and everything in it. 0 or the shell's status. */
static inline int fake_tree_remove(const char *root)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

#endif
