// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/numparse.h"
#include "sweep.h"

void mb_sweep_values_free(struct mb_sweep_values *v)
{
	for (int i = 0; v->v && i < v->n; i++)
		free(v->v[i]);
	free(v->v);
	v->v = NULL;
	v->n = 0;
}

static int add_value(struct mb_sweep_values *out, const char *s, size_t len, char *err,
		     size_t errlen)
{
	char **v;

	if (out->n >= MB_SWEEP_MAX_VALUES) {
		snprintf(err, errlen, "more than %d values", MB_SWEEP_MAX_VALUES);
		return -EINVAL;
	}
	/* Doubling: a range of 10000 values is not 10000 reallocations. */
	if (!(out->n & (out->n - 1))) {
		v = realloc(out->v, (size_t)(out->n ? 2 * out->n : 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		out->v = v;
	}
	out->v[out->n] = strndup(s, len);
	if (!out->v[out->n])
		return -ENOMEM;
	out->n++;
	return 0;
}

static int parse_bound(const char *s, size_t len, uint64_t *out)
{
	char buf[64];

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return mb_parse_u64(buf, out);
}

/* One item "A..B", "A..B:S" or "A..B*F" (already known to contain ".."). */
static int add_range(struct mb_sweep_values *out, const char *item, size_t len, char *err,
		     size_t errlen)
{
	const char *dots = strstr(item, ".."), *end = item + len, *op;
	uint64_t a, b, step = 1;
	bool geometric = false;
	char num[32];
	int ret;

	if (dots >= end) {
		snprintf(err, errlen, "'%.*s': not a range", (int)len, item);
		return -EINVAL;
	}
	for (op = dots + 2; op < end && *op != ':' && *op != '*'; op++)
		;
	if (parse_bound(item, (size_t)(dots - item), &a) ||
	    parse_bound(dots + 2, (size_t)(op - dots - 2), &b)) {
		snprintf(err, errlen, "range '%.*s': bounds must be unsigned integers (like 1..10 or 10k..1M*10)",
			 (int)len, item);
		return -EINVAL;
	}
	if (op < end) {
		geometric = *op == '*';
		if (parse_bound(op + 1, (size_t)(end - op - 1), &step) || step < 1 ||
		    (geometric && step < 2)) {
			snprintf(err, errlen, "range '%.*s': %s", (int)len, item,
				 geometric ? "the factor after '*' must be an integer >= 2" :
					     "the step after ':' must be an integer >= 1");
			return -EINVAL;
		}
	}
	if (a > b) {
		snprintf(err, errlen, "range '%.*s': the start is above the end", (int)len, item);
		return -EINVAL;
	}
	if (geometric && a == 0) {
		snprintf(err, errlen, "range '%.*s': a geometric range cannot start at 0", (int)len,
			 item);
		return -EINVAL;
	}
	for (uint64_t v = a;;) {
		snprintf(num, sizeof(num), "%" PRIu64, v);
		ret = add_value(out, num, strlen(num), err, errlen);
		if (ret)
			return ret;
		/* Stop before passing the end or wrapping around. */
		if (geometric ? v > b / step : b - v < step)
			break;
		v = geometric ? v * step : v + step;
		if (v > b)
			break;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A value listed twice would run the same points twice: sorted copies make it O(n log n). */
static int check_twice(const struct mb_sweep_values *v, char *err, size_t errlen)
{
	char **sorted = malloc((size_t)v->n * sizeof(*sorted));

	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, v->v, (size_t)v->n * sizeof(*sorted));
	qsort(sorted, (size_t)v->n, sizeof(*sorted), cmp_str);
	for (int i = 1; i < v->n; i++) {
		if (!strcmp(sorted[i - 1], sorted[i])) {
			snprintf(err, errlen, "value '%s' listed twice", sorted[i]);
			free(sorted);
			return -EINVAL;
		}
	}
	free(sorted);
	return 0;
}

int mb_sweep_parse_values(const char *spec, struct mb_sweep_values *out, char *err,
			  size_t errlen)
{
	const char *p = spec;
	int ret;

	out->v = NULL;
	out->n = 0;
	if (!spec || !*spec) {
		snprintf(err, errlen, "empty value list");
		return -EINVAL;
	}
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (!len) {
			snprintf(err, errlen, "empty value in '%s' (a comma at an end or two in a row)",
				 spec);
			ret = -EINVAL;
			goto fail;
		}
		if (memmem(p, len, "..", 2))
			ret = add_range(out, p, len, err, errlen);
		else
			ret = add_value(out, p, len, err, errlen);
		if (ret)
			goto fail;
		if (!comma)
			break;
		p = comma + 1;
	}
	ret = check_twice(out, err, errlen);
	if (!ret)
		return 0;
fail:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	mb_sweep_values_free(out);
	return ret;
}

int mb_sweep_parse_param(const char *arg, char *name, size_t namelen,
			 struct mb_sweep_values *out, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0;
	char why[256];
	int ret;

	out->v = NULL;
	out->n = 0;
	if (!eq) {
		snprintf(err, errlen, "%s: must be NAME=V1,V2,... (or NAME=A..B)", arg);
		return -EINVAL;
	}
	/* The option's dashes are optional: --param --nr_entries=1,2 works too. */
	while (n && *arg == '-') {
		arg++;
		n--;
	}
	if (!n || n >= namelen || n >= MB_SWEEP_NAME_MAX) {
		snprintf(err, errlen, "%.*s: %s", (int)(eq - arg + 1), arg,
			 n ? "parameter name too long" : "no parameter name before '='");
		return -EINVAL;
	}
	memcpy(name, arg, n);
	name[n] = '\0';
	ret = mb_sweep_parse_values(eq + 1, out, why, sizeof(why));
	if (ret)
		snprintf(err, errlen, "%s: %s", name, why);
	return ret;
}

long mb_sweep_product(const int *counts, int nr)
{
	long total = 1;

	for (int i = 0; i < nr; i++) {
		if (counts[i] <= 0)
			return 0;
		if (total > MB_SWEEP_MAX_POINTS / counts[i])
			return -ERANGE;
		total *= counts[i];
	}
	return total;
}

void mb_sweep_point(const int *counts, int nr, long index, int *idx)
{
	for (int i = nr - 1; i >= 0; i--) {
		idx[i] = (int)(index % counts[i]);
		index /= counts[i];
	}
}
