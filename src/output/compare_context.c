// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <stdio.h>
#include <string.h>

#include "compare_context.h"
#include "util/json.h"

static void value_text(const struct mb_json *v, char *buf, size_t len)
{
	if (v)
		mb_json_scalar_text(v, buf, len);
	else
		snprintf(buf, len, "absent");
}

/* Appends "@what A -> B" when the two values' texts differ. */
static void diff_value(struct mb_json *out, const char *what, const struct mb_json *a,
		       const struct mb_json *b)
{
	char x[256], y[256], line[600];

	value_text(a, x, sizeof(x));
	value_text(b, y, sizeof(y));
	if (!strcmp(x, y))
		return;
	snprintf(line, sizeof(line), "%s %s -> %s", what, x, y);
	mb_json_append(out, mb_json_string(line));
}

static void diff_cpu(struct mb_json *out, const struct mb_json *ca, const struct mb_json *cb)
{
	static const char *const keys[] = { "vendor", "family", "model", "stepping", "microcode" };
	char what[64];

	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		snprintf(what, sizeof(what), "CPU %s", keys[i]);
		diff_value(out, what, mb_json_get(ca, keys[i]), mb_json_get(cb, keys[i]));
	}
}

/* Every mitigation either side names, once. */
static void diff_vulnerabilities(struct mb_json *out, const struct mb_json *va,
				 const struct mb_json *vb)
{
	char what[160];

	for (size_t i = 0; i < mb_json_len(va); i++) {
		const char *k = mb_json_key_at(va, i);

		snprintf(what, sizeof(what), "mitigation %s:", k);
		diff_value(out, what, mb_json_get(va, k), mb_json_get(vb, k));
	}
	for (size_t i = 0; i < mb_json_len(vb); i++) {
		const char *k = mb_json_key_at(vb, i);

		if (mb_json_get(va, k))
			continue;
		snprintf(what, sizeof(what), "mitigation %s:", k);
		diff_value(out, what, NULL, mb_json_get(vb, k));
	}
}

struct mb_json *mb_context_differences(const struct mb_json *base_doc,
				       const struct mb_json *cur_doc)
{
	const struct mb_json *ca = mb_json_get(base_doc, "context");
	const struct mb_json *cb = mb_json_get(cur_doc, "context");
	const struct mb_json *pa = mb_json_get(ca, "cpu"), *pb = mb_json_get(cb, "cpu");
	struct mb_json *out = mb_json_array();

	diff_value(out, "kernel", mb_json_get(mb_json_get(ca, "kernel"), "release"),
		   mb_json_get(mb_json_get(cb, "kernel"), "release"));
	diff_value(out, "CPU", mb_json_get(ca, "cpu_model"), mb_json_get(cb, "cpu_model"));
	/* Documents from before the "cpu" object have nothing to compare there. */
	if (pa && pb) {
		diff_cpu(out, pa, pb);
		diff_vulnerabilities(out, mb_json_get(pa, "vulnerabilities"),
				     mb_json_get(pb, "vulnerabilities"));
	}
	return out;
}
