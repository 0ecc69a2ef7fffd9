// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The documents compare and plot read: check, compare with itself (nothing may have changed),
 * write the comparison, and build every kind of chart script (plot --latency's too).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "output/compare.h"
#include "output/doc.h"
#include "output/plot.h"
#include "util/json.h"
#include "util/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void plot(const struct mb_json *doc, enum mb_doc_kind kind)
{
	struct mb_plot_opts o = { .term = MB_PLOT_SVG };
	char err[512], *s = mb_plot_script(doc, kind, &o, err, sizeof(err));

	free(s);
	o.term = MB_PLOT_PNG;
	o.metric = "total";
	o.lines = "none";
	s = mb_plot_script(doc, kind, &o, err, sizeof(err));
	free(s);
}

/* plot --latency: both charts, its warnings (a result it does not draw) out of sight. */
static void plot_latency(const struct mb_json *doc)
{
	static FILE *quiet;
	struct mb_plot_input in = { doc, "a.json" };
	struct mb_plot_opts o = { .term = MB_PLOT_SVG };
	char err[512], *s;

	if (!quiet)
		quiet = fopen("/dev/null", "w");
	mb_log_set_error_stream(quiet ? quiet : stderr);
	s = mb_plot_latency_script(&in, 1, &o, err, sizeof(err));
	free(s);
	o.hist = true;
	s = mb_plot_latency_script(&in, 1, &o, err, sizeof(err));
	free(s);
	mb_log_set_error_stream(stderr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mb_cmp_opts opts = { .threshold = 0.02, .alpha = 0.05 };
	struct mb_json *doc, *cmp;
	struct mb_comparison c;
	enum mb_doc_kind kind;
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *f;

	doc = mb_doc_parse((const char *)data, size, &kind, err, sizeof(err));
	if (!doc)
		return 0;
	plot(doc, kind);
	if (kind == MB_DOC_RESULTS) {
		plot_latency(doc);
		if (mb_compare(doc, doc, &opts, &c))
			abort();
		if (c.counts[MB_CMP_REGRESSED] || c.counts[MB_CMP_IMPROVED] || c.counts[MB_CMP_NOISE])
			abort();
		f = open_memstream(&buf, &len);
		if (!f)
			abort();
		mb_comparison_print(f, &c, MB_FORMAT_TEXT, "a", doc, "b", doc);
		mb_comparison_print(f, &c, MB_FORMAT_MD, "a", doc, "b", doc);
		fclose(f);
		free(buf);
		cmp = mb_comparison_json(&c, mb_json_object(), "a", doc, "b", doc);
		if (!cmp)
			abort();
		plot(cmp, MB_DOC_COMPARISON);
		mb_json_free(cmp);
		mb_comparison_free(&c);
	}
	mb_json_free(doc);
	return 0;
}
