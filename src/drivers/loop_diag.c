// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <math.h>
#include <stdio.h>

#include "core/bench.h"
#include "sys/cpuinfo.h"
#include "util/json.h"
#include "loop_diag.h"

/* An empty bpf_loop iteration costs ~1.5 ns without a return thunk (docs/methodology.md). */
#define CALL_COST_EXPLAINED_NS	3.0

static void diagnose_fallback(struct mb_run *run, double empty_ns)
{
	const struct mb_loop_info *li = &run->loop;
	char thunk[600];

	if (li->bpf_loop_inlined == 0)
		mb_run_warn(run, "the verifier did not inline bpf_loop (the translated program still calls the helper): every op includes a helper call and an indirect callback call");
	if (empty_ns <= CALL_COST_EXPLAINED_NS)
		return;
	if (mb_cpu_return_thunk(MB_CPU_VULN_DIR, thunk, sizeof(thunk)))
		mb_run_warn(run, "the bpf_loop loop costs %.1f ns per empty op: each op calls its callback, and this CPU's mitigations send every return through a thunk (%s); every in-kernel ns/op here includes that cost",
			    empty_ns, thunk);
	else
		mb_run_warn(run, "the bpf_loop loop costs %.1f ns per empty op (each op calls its callback); every in-kernel ns/op here includes that cost",
			    empty_ns);
}

void mb_loop_diagnose(struct mb_run *run, double empty_ns)
{
	const struct mb_loop_info *li = &run->loop;

	if (li->kind == MB_LOOP_BPF_LOOP && li->requested == MB_LOOP_AUTO)
		mb_run_warn(run, "in-kernel loop: %s", li->why);
	if (li->private_stack == 1)
		mb_run_warn(run, "the JIT gave the op loop a private stack (its BPF stack reached 64 bytes): every call in it saves and restores the private frame pointer");
	if (li->kind == MB_LOOP_MAY_GOTO && li->subprog_calls > 0 &&
	    !(run->bench->flags & MB_BENCH_OP_CALLS))
		mb_run_warn(run, "the may_goto loop's translated program calls %d subprogram(s): the op was not inlined into the loop",
			    li->subprog_calls);
	if (li->kind == MB_LOOP_BPF_LOOP)
		diagnose_fallback(run, empty_ns);
}

static struct mb_json *tristate(int v)
{
	return v < 0 ? mb_json_null() : mb_json_bool(v);
}

/* The linearity self-check (util/linearity.h); null where it did not run. */
static struct mb_json *linearity_json(const struct mb_linearity *lin)
{
	struct mb_json *o;

	if (!lin->done)
		return mb_json_null();
	o = mb_json_object();
	mb_json_set_num(o, "n", (double)lin->n);
	mb_json_set_num(o, "ratio", lin->ratio);
	mb_json_set_num(o, "median_n_ns", lin->median_n_ns);
	mb_json_set_num(o, "median_2n_ns", lin->median_2n_ns);
	mb_json_set(o, "ok", mb_json_bool(lin->ok));
	return o;
}

struct mb_json *mb_loop_json(const struct mb_loop_info *li, double empty_ns)
{
	struct mb_json *o = mb_json_object();

	mb_json_set_str(o, "kind", mb_loop_kind_names[li->kind]);
	mb_json_set_str(o, "requested", mb_loop_kind_names[li->requested]);
	mb_json_set_str(o, "reason", li->why);
	mb_json_set(o, "bpf_loop_inlined",
		    li->kind == MB_LOOP_BPF_LOOP ? tristate(li->bpf_loop_inlined) : mb_json_null());
	mb_json_set(o, "private_stack", tristate(li->private_stack));
	mb_json_set(o, "subprog_calls",
		    li->subprog_calls < 0 ? mb_json_null() : mb_json_number(li->subprog_calls));
	mb_json_set(o, "cost_ns", isnan(empty_ns) ? mb_json_null() : mb_json_number(empty_ns));
	mb_json_set(o, "linearity", linearity_json(&li->linearity));
	return o;
}
