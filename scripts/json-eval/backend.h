/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What eval.c asks of a JSON implementation: each be_*.c wraps one (src/util/json.c, json-c,
 * jansson) the way mapbench would call it, so that one driver measures all three.
 */
#ifndef JE_BACKEND_H
#define JE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

extern const char *be_name;

/* @strict: the strictest flags the library offers (duplicates, UTF-8), else its defaults. */
void *be_parse(const char *s, size_t len, bool strict, char *err, size_t errlen);
/* A malloc'ed text of @doc: @indent 0 compact, else pretty with that many spaces. */
char *be_dump(void *doc, int indent);
/* Write @doc to @f as mapbench writes a document (pretty, 2 spaces). Returns 0 or -1. */
int be_write(void *doc, FILE *f);
void be_free(void *doc);

/* [v], built as mapbench would build a counter or a seed; NULL if the library refuses. */
void *be_arr_u64(uint64_t v);
void *be_arr_double(double v);
/* doc[0] as uint64 / double; -1 if it is not a number or does not fit. */
int be_first_u64(void *doc, uint64_t *v);
int be_first_double(void *doc, double *v);

/* An object with @keys in that order (value i for key i). */
void *be_obj_keys(const char *const *keys, size_t n);
size_t be_obj_len(void *obj);
const char *be_obj_key_at(void *obj, size_t i);
/* Number member @key of object @obj, for the duplicate-key test; NAN if none. */
double be_obj_num(void *obj, const char *key);

#endif
