/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A small JSON document model: results are built as a tree, written as JSON (or walked by the
 * text and CSV writers), and read back by `compare` and `plot`. Objects keep insertion order.
 */
#ifndef MB_JSON_H
#define MB_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum mb_json_type {
	MB_JSON_NULL,
	MB_JSON_BOOL,
	MB_JSON_NUMBER,
	MB_JSON_STRING,
	MB_JSON_ARRAY,
	MB_JSON_OBJECT,
};

struct mb_json;

/* Constructors return NULL (errno = ENOMEM) on allocation failure. */
struct mb_json *mb_json_null(void);
struct mb_json *mb_json_bool(bool b);
struct mb_json *mb_json_number(double v);
/* An unsigned integer, written and read back exactly (mb_json_num gives the nearest double). */
struct mb_json *mb_json_uint(uint64_t u);
/* A number's text: exact for mb_json_uint, else as mb_json_format_number. */
void mb_json_number_text(const struct mb_json *v, char *buf, size_t len);
struct mb_json *mb_json_string(const char *s);
struct mb_json *mb_json_array(void);
struct mb_json *mb_json_object(void);
struct mb_json *mb_json_copy(const struct mb_json *v);
void mb_json_free(struct mb_json *v);

/*
 * Containers take ownership of @val, also on failure (it is freed). Setting an existing key
 * replaces its value. NULL @obj/@arr is a no-op that frees @val; NULL @val gives -ENOMEM.
 */
int mb_json_set(struct mb_json *obj, const char *key, struct mb_json *val);
int mb_json_append(struct mb_json *arr, struct mb_json *val);
int mb_json_set_num(struct mb_json *obj, const char *key, double v);
int mb_json_set_str(struct mb_json *obj, const char *key, const char *s);
int mb_json_set_bool(struct mb_json *obj, const char *key, bool b);
/* Get or create the child object @key of @obj. */
struct mb_json *mb_json_child(struct mb_json *obj, const char *key);

bool mb_json_is(const struct mb_json *v, enum mb_json_type type);
/* Member of an object, or NULL. */
struct mb_json *mb_json_get(const struct mb_json *obj, const char *key);
/* Number of elements of an array or members of an object. */
size_t mb_json_len(const struct mb_json *v);
struct mb_json *mb_json_at(const struct mb_json *v, size_t i);
/* Key of the i-th member of an object. */
const char *mb_json_key_at(const struct mb_json *obj, size_t i);
double mb_json_num(const struct mb_json *v, double def);
const char *mb_json_str(const struct mb_json *v, const char *def);
bool mb_json_truthy(const struct mb_json *v);

/* Write @v; @indent > 0 pretty-prints with that many spaces per level. Returns 0 or -EIO. */
int mb_json_write(FILE *f, const struct mb_json *v, int indent);
/*
 * A scalar as text, the way parameters are shown: numbers as mb_json_write writes them,
 * true/false, a string's contents, "null"; "?" for an array or object.
 */
void mb_json_scalar_text(const struct mb_json *v, char *buf, size_t len);
/* Write a number the way mb_json_write does (shortest form that reads back exactly). */
void mb_json_format_number(double v, char *buf, size_t len);

/*
 * Parse a complete JSON text (RFC 8259; nesting at most 128 deep). On error returns NULL and
 * writes "line L, column C: <what>" into @err.
 */
struct mb_json *mb_json_parse(const char *text, size_t len, char *err, size_t errlen);

#endif
