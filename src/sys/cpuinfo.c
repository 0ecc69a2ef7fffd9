// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cpuinfo.h"
#include "util/json.h"
#include "util/sysfile.h"

/* "key<tabs>: value\n" -> value (trimmed) when the line's key is @key, else NULL. */
static char *field_value(char *line, const char *key)
{
	size_t k = strlen(key);
	char *colon = strchr(line, ':'), *v;

	if (!colon || strncmp(line, key, k) || strspn(line + k, " \t") != (size_t)(colon - line - k))
		return NULL;
	v = colon + 1 + strspn(colon + 1, " \t");
	v[strcspn(v, "\n")] = '\0';
	return v;
}

static int int_value(const char *v)
{
	char *end;
	long n = strtol(v, &end, 0);

	return end == v || n < 0 || n > 1 << 20 ? -1 : (int)n;
}

static void cpu_info_init(struct mb_cpu_info *ci)
{
	memset(ci, 0, sizeof(*ci));
	ci->family = ci->model = ci->stepping = -1;
}

int mb_cpu_info_parse(FILE *cpuinfo, struct mb_cpu_info *ci)
{
	char line[512], *v;
	bool seen = false;

	cpu_info_init(ci);
	while (fgets(line, sizeof(line), cpuinfo)) {
		if (line[0] == '\n' && seen)
			break;	/* the first processor's block ends */
		seen = true;
		if ((v = field_value(line, "vendor_id")))
			snprintf(ci->vendor, sizeof(ci->vendor), "%s", v);
		else if ((v = field_value(line, "model name")))
			snprintf(ci->model_name, sizeof(ci->model_name), "%s", v);
		else if ((v = field_value(line, "cpu family")))
			ci->family = int_value(v);
		else if ((v = field_value(line, "model")))
			ci->model = int_value(v);
		else if ((v = field_value(line, "stepping")))
			ci->stepping = int_value(v);
		else if ((v = field_value(line, "microcode")))
			snprintf(ci->microcode, sizeof(ci->microcode), "%s", v);
	}
	return seen ? 0 : -ENOENT;
}

void mb_cpu_info_read(struct mb_cpu_info *ci)
{
	FILE *f = fopen("/proc/cpuinfo", "re");

	cpu_info_init(ci);
	if (f) {
		mb_cpu_info_parse(f, ci);
		fclose(f);
	}
}

static bool read_first_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return mb_read_first_line(path, buf, len);
}

static int name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int not_dot(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

struct mb_json *mb_cpu_vulnerabilities(const char *dir)
{
	struct mb_json *o = mb_json_object();
	struct dirent **names;
	char line[512];
	int n = scandir(dir, &names, not_dot, name_cmp);

	for (int i = 0; i < n; i++) {
		if (read_first_line(dir, names[i]->d_name, line, sizeof(line)))
			mb_json_set_str(o, names[i]->d_name, line);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return o;
}

bool mb_cpu_line_is_return_thunk(const char *line)
{
	/* SRSO "Safe RET", ITS and retbleed "return thunk(s)", call-depth "Stuffing". */
	static const char *const marks[] = { "safe ret", "return thunk", "untrained ret",
					     "stuffing", NULL };

	for (int i = 0; marks[i]; i++) {
		size_t k = strlen(marks[i]);

		for (const char *p = line; *p; p++)
			if (!strncasecmp(p, marks[i], k))
				return true;
	}
	return false;
}

bool mb_cpu_return_thunk(const char *dir, char *evidence, size_t len)
{
	struct dirent **names;
	char line[512];
	bool found = false;
	int n = scandir(dir, &names, not_dot, name_cmp);

	for (int i = 0; i < n; i++) {
		if (!found && read_first_line(dir, names[i]->d_name, line, sizeof(line)) &&
		    mb_cpu_line_is_return_thunk(line)) {
			snprintf(evidence, len, "%s: %s", names[i]->d_name, line);
			found = true;
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return found;
}

static struct mb_json *int_or_null(int v)
{
	return v < 0 ? mb_json_null() : mb_json_number(v);
}

struct mb_json *mb_cpu_context(const struct mb_cpu_info *ci)
{
	struct mb_json *o = mb_json_object();

	mb_json_set_str(o, "vendor", ci->vendor[0] ? ci->vendor : NULL);
	mb_json_set(o, "family", int_or_null(ci->family));
	mb_json_set(o, "model", int_or_null(ci->model));
	mb_json_set(o, "stepping", int_or_null(ci->stepping));
	mb_json_set_str(o, "microcode", ci->microcode[0] ? ci->microcode : NULL);
	mb_json_set(o, "vulnerabilities", mb_cpu_vulnerabilities(MB_CPU_VULN_DIR));
	return o;
}
