// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* jansson 2.14 (Debian libjansson-dev): json_int_t is long long, reals are doubles. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "backend.h"

const char *be_name = "jansson";

void *be_parse(const char *s, size_t len, bool strict, char *err, size_t errlen)
{
	json_error_t e;
	json_t *o = json_loadb(s, len, strict ? JSON_REJECT_DUPLICATES : 0, &e);

	if (!o)
		snprintf(err, errlen, "line %d, column %d (position %d): %s", e.line, e.column,
			 e.position, e.text);
	return o;
}

char *be_dump(void *doc, int indent)
{
	return json_dumps(doc, indent ? JSON_INDENT(indent) : JSON_COMPACT);
}

int be_write(void *doc, FILE *f)
{
	return json_dumpf(doc, f, JSON_INDENT(2)) || fputc('\n', f) == EOF ? -1 : 0;
}

void be_free(void *doc)
{
	json_decref(doc);
}

void *be_arr_u64(uint64_t v)
{
	json_t *a = json_array(), *n;

	/* No unsigned type: above INT64_MAX the only number left is a (lossy) real. */
	n = v > INT64_MAX ? json_real((double)v) : json_integer((json_int_t)v);
	if (!n) {
		json_decref(a);
		return NULL;
	}
	json_array_append_new(a, n);
	return a;
}

void *be_arr_double(double v)
{
	json_t *a = json_array(), *n = json_real(v);

	if (!n) {
		/* json_real() refuses NaN and infinities. */
		json_decref(a);
		return NULL;
	}
	json_array_append_new(a, n);
	return a;
}

int be_first_u64(void *doc, uint64_t *v)
{
	json_t *n = json_array_get(doc, 0);
	double d;

	if (json_is_integer(n) && json_integer_value(n) >= 0) {
		*v = (uint64_t)json_integer_value(n);
		return 0;
	}
	d = json_is_real(n) ? json_real_value(n) : -1;
	if (d < 0 || d >= 18446744073709551616.0)
		return -1;
	*v = (uint64_t)d;
	return 0;
}

int be_first_double(void *doc, double *v)
{
	json_t *n = json_array_get(doc, 0);

	if (!json_is_number(n))
		return -1;
	*v = json_number_value(n);
	return 0;
}

void *be_obj_keys(const char *const *keys, size_t n)
{
	json_t *o = json_object();

	for (size_t i = 0; i < n; i++)
		json_object_set_new(o, keys[i], json_integer((json_int_t)i));
	return o;
}

size_t be_obj_len(void *obj)
{
	return json_object_size(obj);
}

const char *be_obj_key_at(void *obj, size_t i)
{
	const char *key;
	json_t *val;
	size_t k = 0;

	json_object_foreach((json_t *)obj, key, val) {
		if (k++ == i)
			return key;
	}
	return NULL;
}

double be_obj_num(void *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return v ? json_number_value(v) : NAN;
}
