/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Named baselines: --save-baseline NAME keeps a run's document, --baseline NAME compares a
 * later run with it. They live in $MAPBENCH_BASELINE_DIR, else $XDG_DATA_HOME/mapbench/baselines,
 * else ~/.local/share/mapbench/baselines, one NAME.json each.
 */
#ifndef MB_BASELINE_H
#define MB_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

struct mb_json;

#define MB_BASELINE_NAME_MAX	64

/* The folder (not created). Returns 0, or -ENOENT when neither variable nor $HOME is set. */
int mb_baseline_dir(char *buf, size_t len);

/* Whether @name is a valid baseline name: [A-Za-z0-9][A-Za-z0-9._-]*, at most 64 characters. */
bool mb_baseline_name_ok(const char *name);

/*
 * The file of baseline @name. With @allow_path, a @name containing '/' or ending in ".json" is
 * a file already. Returns 0 or -EINVAL with one line in @err.
 */
int mb_baseline_path(const char *name, bool allow_path, char *buf, size_t len, char *err,
		     size_t errlen);

/* Load baseline @name (or a file); NULL with one line in @err. */
struct mb_json *mb_baseline_load(const char *name, char *err, size_t errlen);

/*
 * Before anything runs: can baseline @name be saved? Its folder, or the nearest existing folder
 * above it (mb_baseline_save makes the rest), must take new files (mb_output_check). Returns 0
 * or a negative errno with one line in @err.
 */
int mb_baseline_check_save(const char *name, char *err, size_t errlen);

/* Save @doc as baseline @name, creating the folder; atomically. Returns 0 or a negative errno. */
int mb_baseline_save(const char *name, const struct mb_json *doc, char *path, size_t pathlen,
		     char *err, size_t errlen);

#endif
