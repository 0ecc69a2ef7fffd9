// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The xdpmaps benches' lines: the stock ops lines, after the map's entries (the devices by
 * name and ifindex, the namespace they are in, the sockets, the CPUs' queue size) and what
 * was read back.
 */
#include <stdio.h>
#include <string.h>

#include "core/bench.h"
#include "core/summary.h"
#include "output/report.h"
#include "util/json.h"
#include "util/log.h"
#include "xm.h"

static void xm_devices(FILE *f, const struct mb_json *x)
{
	const struct mb_json *d = mb_json_get(x, "devices");
	const struct mb_json *ino = mb_json_get(x, "netns_inode");

	fprintf(f, "Map: %s of %.0f entries; ", mb_json_str(mb_json_get(x, "map_type"), "?"),
		mb_json_num(mb_json_get(x, "entries"), 0));
	if (mb_json_get(x, "qsize")) {
		fprintf(f, "one per online CPU, queue size %.0f\n",
			mb_json_num(mb_json_get(x, "qsize"), 0));
		return;
	}
	fprintf(f, "devices:");
	for (size_t i = 0; i < mb_json_len(d); i++)
		fprintf(f, "%s %s (%.0f)", i ? "," : "",
			mb_json_str(mb_json_get(mb_json_at(d, i), "name"), "?"),
			mb_json_num(mb_json_get(mb_json_at(d, i), "ifindex"), 0));
	if (ino)
		fprintf(f, " in a network namespace of the run's own (net:[%.0f])",
			mb_json_num(ino, 0));
	else
		fprintf(f, " of the host's namespace");
	fprintf(f, "; %.0f AF_XDP sockets\n", mb_json_num(mb_json_get(x, "xsk_sockets"), 0));
}

/*
 * xdp-map-update's calls timed one by one (op_ns): a delete's rate counts its untimed put-back
 * too, so the Summary's latency is not what one delete costs.
 */
static void xm_call_line(FILE *f, const struct mb_run *run, const char *op)
{
	const struct mb_summary *sum = run->summary;

	if (!sum || !sum->has_metric[0])
		return;
	fprintf(f, "Call: one %s alone %.1f ns (op_ns, the mean over the samples)%s\n", op,
		sum->metric[0].mean, strcmp(op, "delete") ? "" :
		"; the Summary's rate counts each delete with its untimed put-back");
}

static void xm_notes(FILE *f, const struct mb_run *run)
{
	const struct mb_json *x = run->extra, *c = mb_json_get(x, "ops_checked");

	if (mb_log_quiet() || !c)
		return;
	xm_devices(f, x);
	if (mb_json_get(x, "op")) {
		fprintf(f, "Ops read back: %.0f %s calls, %.0f done, %.0f failed; entries as written %.0f, wrong %.0f%s\n",
			mb_json_num(mb_json_get(c, "ops"), 0),
			mb_json_str(mb_json_get(x, "op"), "?"),
			mb_json_num(mb_json_get(c, "done"), 0),
			mb_json_num(mb_json_get(c, "failed"), 0),
			mb_json_num(mb_json_get(c, "entries_as_written"), 0),
			mb_json_num(mb_json_get(c, "entries_wrong"), 0),
			mb_json_truthy(mb_json_get(c, "read_back")) ? "" :
			" (xskmap: user space may not look entries up)");
		xm_call_line(f, run, mb_json_str(mb_json_get(x, "op"), "?"));
	} else if (mb_json_get(c, "frames_arrived"))
		fprintf(f, "Frames sent (live): %.0f bpf_redirect_map in %.0f calls, %.0f XDP_REDIRECT, %.0f not found; the entries name the veth pair only; %.0f arrived at the peers' XDP programs\n",
			mb_json_num(mb_json_get(c, "ops"), 0),
			mb_json_num(mb_json_get(c, "calls"), 0),
			mb_json_num(mb_json_get(c, "redirected"), 0),
			mb_json_num(mb_json_get(c, "not_found"), 0),
			mb_json_num(mb_json_get(c, "frames_arrived"), 0));
	else if (mb_json_get(c, "redirected"))
		fprintf(f, "Ops read back: %.0f bpf_redirect_map in %.0f calls, %.0f XDP_REDIRECT, %.0f not found; the program passes the frame\n",
			mb_json_num(mb_json_get(c, "ops"), 0),
			mb_json_num(mb_json_get(c, "calls"), 0),
			mb_json_num(mb_json_get(c, "redirected"), 0),
			mb_json_num(mb_json_get(c, "not_found"), 0));
	else
		fprintf(f, "Ops read back: %.0f bpf_map_lookup_elem, %.0f found, %.0f missing, %.0f naming another device\n",
			mb_json_num(mb_json_get(c, "ops"), 0),
			mb_json_num(mb_json_get(c, "found"), 0),
			mb_json_num(mb_json_get(c, "missing"), 0),
			mb_json_num(mb_json_get(c, "wrong_device"), 0));
}

MB_TEXT_WITH_NOTES(xm_text, mb_text_ops, xm_notes);
