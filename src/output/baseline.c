// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "baseline.h"
#include "doc.h"
#include "util/json.h"
#include "util/outfile.h"

int mb_baseline_dir(char *buf, size_t len)
{
	const char *dir = getenv("MAPBENCH_BASELINE_DIR");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (dir && *dir)
		snprintf(buf, len, "%s", dir);
	else if (xdg && *xdg == '/')
		snprintf(buf, len, "%s/mapbench/baselines", xdg);
	else if (home && *home)
		snprintf(buf, len, "%s/.local/share/mapbench/baselines", home);
	else
		return -ENOENT;
	return 0;
}

bool mb_baseline_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n > MB_BASELINE_NAME_MAX || !isalnum((unsigned char)name[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("._-", name[i]))
			return false;
	return true;
}

static bool is_path(const char *name)
{
	size_t n = strlen(name);

	return strchr(name, '/') || (n > 5 && !strcmp(name + n - 5, ".json"));
}

int mb_baseline_path(const char *name, bool allow_path, char *buf, size_t len, char *err,
		     size_t errlen)
{
	char dir[4096];

	if (allow_path && is_path(name)) {
		snprintf(buf, len, "%s", name);
		return 0;
	}
	if (!mb_baseline_name_ok(name)) {
		snprintf(err, errlen, "%s: not a baseline name (letters, digits, '.', '_', '-'; at most %d; starting with a letter or digit)%s",
			 name, MB_BASELINE_NAME_MAX, allow_path ? ", nor a .json file" : "");
		return -EINVAL;
	}
	if (mb_baseline_dir(dir, sizeof(dir))) {
		snprintf(err, errlen, "%s: no folder for baselines (set MAPBENCH_BASELINE_DIR or HOME)",
			 name);
		return -EINVAL;
	}
	snprintf(buf, len, "%s/%s.json", dir, name);
	return 0;
}

struct mb_json *mb_baseline_load(const char *name, char *err, size_t errlen)
{
	char path[4096], why[512];
	enum mb_doc_kind kind;
	struct mb_json *doc;

	if (mb_baseline_path(name, true, path, sizeof(path), err, errlen))
		return NULL;
	if (!is_path(name) && access(path, F_OK) && errno == ENOENT) {
		snprintf(err, errlen, "no baseline '%s' in %.*s (save one with --save-baseline %s)",
			 name, (int)(strlen(path) - strlen(name) - 6), path, name);
		return NULL;
	}
	doc = mb_doc_load(path, &kind, why, sizeof(why));
	if (!doc) {
		snprintf(err, errlen, "%s", why);
		return NULL;
	}
	if (kind != MB_DOC_RESULTS) {
		snprintf(err, errlen, "%s: a comparison, not results", path);
		mb_json_free(doc);
		return NULL;
	}
	return doc;
}

/* mkdir -p, mode 0755. */
static int make_dirs(const char *dir)
{
	char *p = strdup(dir), *s, c;
	int err = 0;

	if (!p)
		return -ENOMEM;
	for (s = p + 1; !err; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		c = *s;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			err = -errno;
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return err;
}

/* Cut @p to its parent folder, in place ("a/b" -> "a", "a" -> ".", "/a" -> "/"). */
static void to_parent(char *p)
{
	char *slash = strrchr(p, '/');

	if (!slash)
		strcpy(p, ".");
	else if (slash == p)
		p[1] = '\0';
	else
		*slash = '\0';
}

int mb_baseline_check_save(const char *name, char *err, size_t errlen)
{
	char path[4096], dir[4096], why[512];
	int ret;

	if (mb_baseline_path(name, false, path, sizeof(path), err, errlen))
		return -EINVAL;
	mb_baseline_dir(dir, sizeof(dir));
	if (!access(dir, F_OK)) {
		ret = mb_output_check(path, why, sizeof(why));
		if (ret)
			snprintf(err, errlen, "%s: %s", path, why);
		return ret;
	}
	while (access(dir, F_OK) && (errno == ENOENT || errno == ENOTDIR) && strcmp(dir, "/") &&
	       strcmp(dir, "."))
		to_parent(dir);
	ret = mb_output_check_dir(dir, why, sizeof(why));
	if (ret)
		snprintf(err, errlen, "cannot make %s: %s", path, why);
	return ret;
}

static int write_doc(FILE *f, void *ctx)
{
	return mb_json_write(f, ctx, 2);
}

int mb_baseline_save(const char *name, const struct mb_json *doc, char *path, size_t pathlen,
		     char *err, size_t errlen)
{
	char dir[4096];
	int ret;

	if (mb_baseline_path(name, false, path, pathlen, err, errlen))
		return -EINVAL;
	mb_baseline_dir(dir, sizeof(dir));
	ret = make_dirs(dir);
	if (ret) {
		snprintf(err, errlen, "%s: %s", dir, strerror(-ret));
		return ret;
	}
	return mb_write_atomic(path, write_doc, (void *)doc, err, errlen);
}
