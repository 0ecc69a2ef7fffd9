/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Reading mapbench documents back (compare, plot, baselines). The checks are pure functions
 * of a buffer, so they can be fuzzed; only mb_doc_load touches the file system.
 */
#ifndef MB_DOC_H
#define MB_DOC_H

#include <stddef.h>

struct mb_json;

enum mb_doc_kind {
	MB_DOC_RESULTS = 1,	/* a run or a sweep: "results" (and "sweep") */
	MB_DOC_COMPARISON,	/* mapbench compare --format json: "comparison" */
};

/* Largest document mb_doc_load reads. */
#define MB_DOC_MAX_BYTES	(512u << 20)

/*
 * Parse @len bytes of @text and check it is a mapbench document of a schema version this
 * mapbench reads. Returns the document (and its kind in @kind), or NULL with one line in @err
 * ("not JSON: line 3, column 7: ...", "not mapbench output ...", "schema_version 2: ...").
 */
struct mb_json *mb_doc_parse(const char *text, size_t len, enum mb_doc_kind *kind, char *err,
			     size_t errlen);

/* Read and parse @path; @err starts with the path. */
struct mb_json *mb_doc_load(const char *path, enum mb_doc_kind *kind, char *err, size_t errlen);

#endif
