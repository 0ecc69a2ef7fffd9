// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* src/util/json.c as mapbench uses it today: every number is a double. */
#include <math.h>
#include <stdlib.h>

#include "backend.h"
#include "json.h"

const char *be_name = "json.c";

void *be_parse(const char *s, size_t len, bool strict, char *err, size_t errlen)
{
	(void)strict;	/* one mode: duplicates are always an error */
	return mb_json_parse(s, len, err, errlen);
}

char *be_dump(void *doc, int indent)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	mb_json_write(f, doc, indent);
	fclose(f);
	return buf;
}

int be_write(void *doc, FILE *f)
{
	return mb_json_write(f, doc, 2) ? -1 : 0;
}

void be_free(void *doc)
{
	mb_json_free(doc);
}

void *be_arr_u64(uint64_t v)
{
	struct mb_json *a = mb_json_array();

	/* What report.c and opts.c do: mb_json_set_num(o, key, (double)counter). */
	mb_json_append(a, mb_json_number((double)v));
	return a;
}

void *be_arr_double(double v)
{
	struct mb_json *a = mb_json_array();

	mb_json_append(a, mb_json_number(v));
	return a;
}

int be_first_u64(void *doc, uint64_t *v)
{
	struct mb_json *n = mb_json_at(doc, 0);
	double d = mb_json_num(n, -1);

	if (!mb_json_is(n, MB_JSON_NUMBER) || d < 0 || d >= 18446744073709551616.0)
		return -1;
	*v = (uint64_t)d;
	return 0;
}

int be_first_double(void *doc, double *v)
{
	struct mb_json *n = mb_json_at(doc, 0);

	if (!mb_json_is(n, MB_JSON_NUMBER))
		return -1;
	*v = mb_json_num(n, 0);
	return 0;
}

void *be_obj_keys(const char *const *keys, size_t n)
{
	struct mb_json *o = mb_json_object();

	for (size_t i = 0; i < n; i++)
		mb_json_set_num(o, keys[i], (double)i);
	return o;
}

size_t be_obj_len(void *obj)
{
	return mb_json_len(obj);
}

const char *be_obj_key_at(void *obj, size_t i)
{
	return mb_json_key_at(obj, i);
}

double be_obj_num(void *obj, const char *key)
{
	return mb_json_num(mb_json_get(obj, key), NAN);
}
