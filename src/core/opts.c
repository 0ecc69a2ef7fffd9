// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "util/json.h"
#include "util/numparse.h"
#include "opts.h"

bool mb_opt_name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a;
		char y = *b == '-' ? '_' : *b;

		if (x != y)
			return false;
	}
	return *a == *b;
}

int mb_opt_find(const struct mb_opt *opts, const char *name)
{
	for (int i = 0; opts && opts[i].name; i++)
		if (mb_opt_name_eq(opts[i].name, name))
			return i;
	return -1;
}

int mb_opt_count(const struct mb_opt *opts)
{
	int n = 0;

	while (opts && opts[n].name)
		n++;
	return n;
}

bool mb_opt_takes_value(const struct mb_opt *opt)
{
	return opt->type != MB_OPT_FLAG;
}

static void *field_of(const struct mb_opt *opt, void *args)
{
	return (char *)args + opt->offset;
}

static const void *cfield_of(const struct mb_opt *opt, const void *args)
{
	return (const char *)args + opt->offset;
}

/* The allowed values, e.g. "1..32" or "one of: a, b". */
static void opt_range(const struct mb_opt *opt, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	switch (opt->type) {
	case MB_OPT_U32:
	case MB_OPT_U64:
		snprintf(buf, len, "%" PRIu64 "..%" PRIu64, opt->min, opt->max);
		break;
	case MB_OPT_DOUBLE:
		snprintf(buf, len, "%g..%g", opt->dmin, opt->dmax);
		break;
	case MB_OPT_ENUM:
		n = (size_t)snprintf(buf, len, "one of ");
		for (int i = 0; opt->choices[i] && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
					      opt->choices[i]);
		break;
	case MB_OPT_CUSTOM:
		snprintf(buf, len, "%s", opt->range ? opt->range : "");
		break;
	default:
		break;
	}
}

int mb_opt_error(char *buf, size_t len, const char *name, const char *value, const char *allowed,
		 const char *why)
{
	snprintf(buf, len, "--%s%s%s: must be %s%s%s%s", name, value ? " " : "", value ? value : "",
		 allowed, why ? " (" : "", why ? why : "", why ? ")" : "");
	return -EINVAL;
}

static int apply_number(const struct mb_opt *opt, void *field, const char *arg, const char *range,
			char *msg, size_t len)
{
	uint64_t u;
	double d;
	int err;

	if (opt->type == MB_OPT_DOUBLE) {
		err = mb_parse_double(arg, &d);
		if (err || d < opt->dmin || d > opt->dmax)
			return mb_opt_error(msg, len, opt->name, arg, range,
					    err == -EINVAL ? "not a number" : NULL);
		*(double *)field = d;
		return 0;
	}
	err = mb_parse_u64(arg, &u);
	if (err == -ERANGE || (!err && (u < opt->min || u > opt->max)))
		return mb_opt_error(msg, len, opt->name, arg, range, NULL);
	if (err)
		return mb_opt_error(msg, len, opt->name, arg, range, "not a number");
	if (opt->type == MB_OPT_U32)
		*(uint32_t *)field = (uint32_t)u;
	else
		*(uint64_t *)field = u;
	return 0;
}

int mb_opt_apply(const struct mb_opt *opt, void *args, const char *arg, char *msg, size_t len)
{
	void *field = field_of(opt, args);
	char range[512];
	const char *why = NULL;

	opt_range(opt, range, sizeof(range));
	switch (opt->type) {
	case MB_OPT_FLAG:
		*(bool *)field = true;
		return 0;
	case MB_OPT_U32:
	case MB_OPT_U64:
	case MB_OPT_DOUBLE:
		return apply_number(opt, field, arg, range, msg, len);
	case MB_OPT_ENUM:
		for (int i = 0; opt->choices[i]; i++) {
			if (!strcmp(opt->choices[i], arg)) {
				*(int *)field = i;
				return 0;
			}
		}
		return mb_opt_error(msg, len, opt->name, arg, range, NULL);
	case MB_OPT_STRING:
		if (!*arg)
			return mb_opt_error(msg, len, opt->name, NULL, "a non-empty string", NULL);
		*(const char **)field = arg;
		return 0;
	case MB_OPT_CUSTOM:
		if (opt->parse(arg, field, &why))
			return mb_opt_error(msg, len, opt->name, arg, range[0] ? range : "valid",
					    why);
		return 0;
	}
	return -EINVAL;
}

int mb_opts_set_defaults(const struct mb_opt *opts, void *args, char *msg, size_t len)
{
	for (int i = 0; opts && opts[i].name; i++) {
		const struct mb_opt *opt = &opts[i];

		if (opt->type == MB_OPT_FLAG) {
			*(bool *)field_of(opt, args) = false;
			continue;
		}
		if (!opt->def) {
			if (opt->type == MB_OPT_STRING)
				*(const char **)field_of(opt, args) = NULL;
			continue;
		}
		if (mb_opt_apply(opt, args, opt->def, msg, len))
			return -EINVAL;
	}
	return 0;
}

void mb_opt_format(const struct mb_opt *opt, const void *args, char *buf, size_t len)
{
	const void *field = cfield_of(opt, args);
	const char *s;

	switch (opt->type) {
	case MB_OPT_FLAG:
		snprintf(buf, len, "%s", *(const bool *)field ? "true" : "false");
		break;
	case MB_OPT_U32:
		snprintf(buf, len, "%" PRIu32, *(const uint32_t *)field);
		break;
	case MB_OPT_U64:
		snprintf(buf, len, "%" PRIu64, *(const uint64_t *)field);
		break;
	case MB_OPT_DOUBLE:
		snprintf(buf, len, "%g", *(const double *)field);
		break;
	case MB_OPT_ENUM:
		snprintf(buf, len, "%s", opt->choices[*(const int *)field]);
		break;
	case MB_OPT_STRING:
		s = *(const char *const *)field;
		snprintf(buf, len, "%s", s ? s : "");
		break;
	case MB_OPT_CUSTOM:
		opt->format(field, buf, len);
		break;
	}
}

struct mb_json *mb_opts_to_json(const struct mb_opt *opts, const void *args)
{
	struct mb_json *obj = mb_json_object();
	char buf[512];

	for (int i = 0; obj && opts && opts[i].name; i++) {
		const struct mb_opt *opt = &opts[i];
		const void *field = cfield_of(opt, args);
		const char *s;

		switch (opt->type) {
		case MB_OPT_FLAG:
			mb_json_set_bool(obj, opt->name, *(const bool *)field);
			break;
		case MB_OPT_U32:
			mb_json_set_num(obj, opt->name, *(const uint32_t *)field);
			break;
		case MB_OPT_U64:
			mb_json_set(obj, opt->name, mb_json_uint(*(const uint64_t *)field));
			break;
		case MB_OPT_DOUBLE:
			mb_json_set_num(obj, opt->name, *(const double *)field);
			break;
		case MB_OPT_STRING:
			s = *(const char *const *)field;
			mb_json_set_str(obj, opt->name, s);
			break;
		default:
			mb_opt_format(opt, args, buf, sizeof(buf));
			mb_json_set_str(obj, opt->name, buf);
			break;
		}
	}
	return obj;
}

void mb_opts_print_help(FILE *f, const struct mb_opt *opts)
{
	char left[96], range[512];

	for (int i = 0; opts && opts[i].name; i++) {
		const struct mb_opt *opt = &opts[i];
		int n;

		if (opt->short_name)
			n = snprintf(left, sizeof(left), "  -%c, --%s", opt->short_name, opt->name);
		else
			n = snprintf(left, sizeof(left), "      --%s", opt->name);
		if (mb_opt_takes_value(opt) && n >= 0 && (size_t)n < sizeof(left))
			snprintf(left + n, sizeof(left) - (size_t)n, " %s",
				 opt->metavar ? opt->metavar :
				 opt->type == MB_OPT_ENUM ? "NAME" : "VALUE");
		fprintf(f, "%-34s %s", left, opt->help ? opt->help : "");
		opt_range(opt, range, sizeof(range));
		if (opt->def && range[0])
			fprintf(f, " (default %s; %s)", opt->def, range);
		else if (opt->def)
			fprintf(f, " (default %s)", opt->def);
		else if (range[0])
			fprintf(f, " (%s)", range);
		fputc('\n', f);
	}
}

int mb_cli_list_add(const char *arg, void *field, const char **why)
{
	struct mb_cli_list *l = field;

	if (l->nr >= MB_CLI_LIST_MAX) {
		*why = "given too often (at most 32 times)";
		return -EINVAL;
	}
	l->items[l->nr++] = arg;
	return 0;
}

void mb_cli_list_format(const void *field, char *buf, size_t len)
{
	const struct mb_cli_list *l = field;
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < l->nr && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", l->items[i]);
}
