/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Options declared as data: one table per bench family (and one for the global options)
 * drives parsing, range checks, defaults, --help and the "params" object of every result.
 */
#ifndef MB_OPTS_H
#define MB_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct mb_json;

enum mb_opt_type {
	MB_OPT_FLAG,	/* bool, takes no value */
	MB_OPT_U32,	/* uint32_t */
	MB_OPT_U64,	/* uint64_t */
	MB_OPT_DOUBLE,	/* double */
	MB_OPT_ENUM,	/* int: index into choices */
	MB_OPT_STRING,	/* const char *, points into argv (or the default) */
	MB_OPT_CUSTOM,	/* parsed and formatted by callbacks */
};

struct mb_opt {
	const char *name;	/* canonical spelling; '-' and '_' are interchangeable on input */
	char short_name;	/* global options only, or 0 */
	enum mb_opt_type type;
	size_t offset;		/* of the field in the args struct */
	const char *def;	/* default in command-line syntax; NULL: off / unset */
	uint64_t min, max;	/* U32, U64 */
	double dmin, dmax;	/* DOUBLE, inclusive */
	const char *const *choices;	/* ENUM: NULL-terminated */
	/* CUSTOM: parse @arg into @field; on error return -EINVAL and set @why. */
	int (*parse)(const char *arg, void *field, const char **why);
	void (*format)(const void *field, char *buf, size_t len);
	const char *range;	/* CUSTOM: allowed values, for --help */
	const char *metavar;
	const char *help;
};

/* Table end marker. */
#define MB_OPT_END { .name = NULL }

#define MB_OPT_FLAG_DEF(_name, _type, _field, _help)					\
	{ .name = _name, .type = MB_OPT_FLAG, .offset = offsetof(_type, _field), .help = _help }
#define MB_OPT_U32_DEF(_name, _type, _field, _def, _min, _max, _meta, _help)		\
	{ .name = _name, .type = MB_OPT_U32, .offset = offsetof(_type, _field), .def = _def,	\
	  .min = _min, .max = _max, .metavar = _meta, .help = _help }
#define MB_OPT_U64_DEF(_name, _type, _field, _def, _min, _max, _meta, _help)		\
	{ .name = _name, .type = MB_OPT_U64, .offset = offsetof(_type, _field), .def = _def,	\
	  .min = _min, .max = _max, .metavar = _meta, .help = _help }
#define MB_OPT_DOUBLE_DEF(_name, _type, _field, _def, _min, _max, _meta, _help)	\
	{ .name = _name, .type = MB_OPT_DOUBLE, .offset = offsetof(_type, _field), .def = _def, \
	  .dmin = _min, .dmax = _max, .metavar = _meta, .help = _help }
#define MB_OPT_ENUM_DEF(_name, _type, _field, _def, _choices, _help)			\
	{ .name = _name, .type = MB_OPT_ENUM, .offset = offsetof(_type, _field), .def = _def,	\
	  .choices = _choices, .help = _help }
#define MB_OPT_STRING_DEF(_name, _type, _field, _def, _meta, _help)			\
	{ .name = _name, .type = MB_OPT_STRING, .offset = offsetof(_type, _field), .def = _def, \
	  .metavar = _meta, .help = _help }
#define MB_OPT_CUSTOM_DEF(_name, _type, _field, _def, _parse, _format, _range, _meta, _help) \
	{ .name = _name, .type = MB_OPT_CUSTOM, .offset = offsetof(_type, _field), .def = _def, \
	  .parse = _parse, .format = _format, .range = _range, .metavar = _meta, .help = _help }

/* Whether two option names are equal, treating '-' and '_' alike. */
bool mb_opt_name_eq(const char *a, const char *b);
/* Look @name up in a table (NULL-safe); returns its index or -1. */
int mb_opt_find(const struct mb_opt *opts, const char *name);
int mb_opt_count(const struct mb_opt *opts);
bool mb_opt_takes_value(const struct mb_opt *opt);

/*
 * The one shape of every refused option value, from a table or from a bench's checks:
 * "--NAME VALUE: must be ALLOWED (WHY)" (no VALUE: a value that is missing or empty; no WHY:
 * the allowed values say it all). Writes it into @buf and returns -EINVAL.
 */
int mb_opt_error(char *buf, size_t len, const char *name, const char *value, const char *allowed,
		 const char *why);
/*
 * Parse @arg into the option's field of @args. On error returns -EINVAL and writes the
 * mb_opt_error() message (e.g. "--name 0: must be 1..32") into @msg.
 */
int mb_opt_apply(const struct mb_opt *opt, void *args, const char *arg, char *msg, size_t len);
/* Fill every field of @args from the defaults. Returns -EINVAL (with @msg) on a bad default. */
int mb_opts_set_defaults(const struct mb_opt *opts, void *args, char *msg, size_t len);

/* The option's current value as text (the form the command line takes). */
void mb_opt_format(const struct mb_opt *opt, const void *args, char *buf, size_t len);
/* Every option's value as a JSON object (numbers as numbers, flags as booleans). */
struct mb_json *mb_opts_to_json(const struct mb_opt *opts, const void *args);
/* Help lines for a table: "  --name VALUE   help (default D; range R)". */
void mb_opts_print_help(FILE *f, const struct mb_opt *opts);

/* A repeatable option (--param, --where, --ignore): every use is kept. */
#define MB_CLI_LIST_MAX	32

struct mb_cli_list {
	const char *items[MB_CLI_LIST_MAX];	/* point into argv */
	int nr;
};

/* MB_OPT_CUSTOM callbacks for a struct mb_cli_list field. */
int mb_cli_list_add(const char *arg, void *field, const char **why);
void mb_cli_list_format(const void *field, char *buf, size_t len);

#endif
