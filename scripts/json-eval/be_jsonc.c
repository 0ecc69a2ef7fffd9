// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* json-c 0.16 (Debian libjson-c-dev): int64 and uint64 integers, doubles, ordered objects. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "backend.h"

const char *be_name = "json-c";

/* Pretty output closest to mapbench's: "key": value, 2 spaces, '/' not escaped. */
#define JC_PRETTY (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
		   JSON_C_TO_STRING_NOSLASHESCAPE)

void *be_parse(const char *s, size_t len, bool strict, char *err, size_t errlen)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o;
	enum json_tokener_error e;

	if (!tok) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (strict)
		json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, s, (int)len);
	e = json_tokener_get_error(tok);
	if (!o && e == json_tokener_success)
		snprintf(err, errlen, "parsed to NULL (the literal null?)");
	else if (!o)
		snprintf(err, errlen, "%s (offset %zu)",
			 e == json_tokener_continue ? "incomplete input" :
						      json_tokener_error_desc(e),
			 json_tokener_get_parse_end(tok));
	else if (json_tokener_get_parse_end(tok) < len) {
		snprintf(err, errlen, "trailing characters (offset %zu)",
			 json_tokener_get_parse_end(tok));
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

char *be_dump(void *doc, int indent)
{
	int flags = indent ? JC_PRETTY : JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;

	return strdup(json_object_to_json_string_ext(doc, flags));
}

int be_write(void *doc, FILE *f)
{
	size_t len;
	const char *s = json_object_to_json_string_length(doc, JC_PRETTY, &len);

	return s && fwrite(s, 1, len, f) == len && fputc('\n', f) != EOF ? 0 : -1;
}

void be_free(void *doc)
{
	json_object_put(doc);
}

void *be_arr_u64(uint64_t v)
{
	struct json_object *a = json_object_new_array();

	json_object_array_add(a, json_object_new_uint64(v));
	return a;
}

void *be_arr_double(double v)
{
	struct json_object *a = json_object_new_array();

	json_object_array_add(a, json_object_new_double(v));
	return a;
}

int be_first_u64(void *doc, uint64_t *v)
{
	struct json_object *n = json_object_array_get_idx(doc, 0);

	if (!json_object_is_type(n, json_type_int))
		return -1;
	*v = json_object_get_uint64(n);
	return 0;
}

int be_first_double(void *doc, double *v)
{
	struct json_object *n = json_object_array_get_idx(doc, 0);

	if (!json_object_is_type(n, json_type_double) && !json_object_is_type(n, json_type_int))
		return -1;
	*v = json_object_get_double(n);
	return 0;
}

void *be_obj_keys(const char *const *keys, size_t n)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; i < n; i++)
		json_object_object_add(o, keys[i], json_object_new_int64((int64_t)i));
	return o;
}

size_t be_obj_len(void *obj)
{
	return (size_t)json_object_object_length(obj);
}

const char *be_obj_key_at(void *obj, size_t i)
{
	size_t k = 0;

	json_object_object_foreach((struct json_object *)obj, key, val) {
		(void)val;
		if (k++ == i)
			return key;
	}
	return NULL;
}

double be_obj_num(void *obj, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(obj, key, &v))
		return NAN;
	return json_object_get_double(v);
}
