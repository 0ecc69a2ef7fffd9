// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "util/json.h"
#include "report.h"

/* Check a parsed document. Returns its kind, or -EINVAL with one line in @err. */
static int doc_check(const struct mb_json *doc, char *err, size_t errlen)
{
	const struct mb_json *ver = mb_json_get(doc, "schema_version");
	const struct mb_json *ctx = mb_json_get(doc, "context");
	const struct mb_json *results = mb_json_get(doc, "results");
	const struct mb_json *cmp = mb_json_get(doc, "comparison");

	if (!mb_json_is(doc, MB_JSON_OBJECT) || !mb_json_is(ctx, MB_JSON_OBJECT) ||
	    strcmp(mb_json_str(mb_json_get(ctx, "tool"), ""), "mapbench")) {
		snprintf(err, errlen, "not mapbench output (no context.tool \"mapbench\")");
		return -EINVAL;
	}
	if (!mb_json_is(ver, MB_JSON_NUMBER)) {
		snprintf(err, errlen, "not mapbench output (no schema_version)");
		return -EINVAL;
	}
	/*
	 * Schema 1 (one family's counter among every result's stock counters, no headline)
	 * reads too: what compare, baselines and plot read of a result did not move.
	 */
	if (mb_json_num(ver, 0) != floor(mb_json_num(ver, 0)) ||
	    mb_json_num(ver, 0) < MB_SCHEMA_VERSION_OLDEST ||
	    mb_json_num(ver, 0) > MB_SCHEMA_VERSION) {
		snprintf(err, errlen, "schema_version %g: this mapbench reads schema_version %d to %d",
			 mb_json_num(ver, 0), MB_SCHEMA_VERSION_OLDEST, MB_SCHEMA_VERSION);
		return -EINVAL;
	}
	if (mb_json_is(cmp, MB_JSON_OBJECT))
		return MB_DOC_COMPARISON;
	if (!mb_json_is(results, MB_JSON_ARRAY)) {
		snprintf(err, errlen, "not mapbench output (no \"results\" array)");
		return -EINVAL;
	}
	for (size_t i = 0; i < mb_json_len(results); i++) {
		const struct mb_json *r = mb_json_at(results, i);

		static const struct {
			const char *key;
			enum mb_json_type type;
		} shape[] = {
			{ "params", MB_JSON_OBJECT },
			{ "config", MB_JSON_OBJECT },
			{ "samples", MB_JSON_ARRAY },
			{ "extra", MB_JSON_OBJECT },
		};

		if (!mb_json_is(r, MB_JSON_OBJECT) ||
		    !mb_json_is(mb_json_get(r, "bench"), MB_JSON_STRING)) {
			snprintf(err, errlen, "results[%zu]: not a result (no bench name)", i);
			return -EINVAL;
		}
		/* Optional members, but of the documented type when present. */
		for (size_t k = 0; k < sizeof(shape) / sizeof(*shape); k++) {
			const struct mb_json *v = mb_json_get(r, shape[k].key);

			if (v && !mb_json_is(v, shape[k].type)) {
				snprintf(err, errlen, "results[%zu].%s: not %s", i, shape[k].key,
					 shape[k].type == MB_JSON_OBJECT ? "an object" : "an array");
				return -EINVAL;
			}
		}
		if (mb_json_get(r, "summary") &&
		    !mb_json_is(mb_json_get(r, "summary"), MB_JSON_OBJECT) &&
		    !mb_json_is(mb_json_get(r, "summary"), MB_JSON_NULL)) {
			snprintf(err, errlen, "results[%zu].summary: not an object", i);
			return -EINVAL;
		}
	}
	return MB_DOC_RESULTS;
}

struct mb_json *mb_doc_parse(const char *text, size_t len, enum mb_doc_kind *kind, char *err,
			     size_t errlen)
{
	char why[256];
	struct mb_json *doc = mb_json_parse(text, len, why, sizeof(why));
	int k;

	if (!doc) {
		snprintf(err, errlen, "not JSON: %s", why);
		return NULL;
	}
	k = doc_check(doc, err, errlen);
	if (k < 0) {
		mb_json_free(doc);
		return NULL;
	}
	if (kind)
		*kind = (enum mb_doc_kind)k;
	return doc;
}

struct mb_json *mb_doc_load(const char *path, enum mb_doc_kind *kind, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	size_t cap = 1 << 16, len = 0;
	char *buf = NULL, why[384];
	struct mb_json *doc = NULL;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = malloc(cap);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	for (;;) {
		char *nb;
		size_t got;

		if (len == cap) {
			cap *= 2;
			if (cap > MB_DOC_MAX_BYTES + 1)
				cap = MB_DOC_MAX_BYTES + 1;
			nb = realloc(buf, cap);
			if (!nb) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto out;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (len > MB_DOC_MAX_BYTES) {
			snprintf(err, errlen, "%s: larger than %u MiB: not a mapbench document", path,
				 MB_DOC_MAX_BYTES >> 20);
			goto out;
		}
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
		goto out;
	}
	doc = mb_doc_parse(buf, len, kind, why, sizeof(why));
	if (!doc)
		snprintf(err, errlen, "%s: %s", path, why);
out:
	free(buf);
	fclose(f);
	return doc;
}
