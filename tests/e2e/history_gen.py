#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Documents with known samples for the results history's tests (test_gate.sh).

history_gen.py TEMPLATE.json DIR

TEMPLATE is a real run's document (one result per bench). DIR gets base.json (runs 0..29 of
each of its results), regressed.json, unchanged.json and noisy.json (run 30, whose first
result is that CASE) and new-kernel.json (runs 30..33 on kernel 6.99.0-test). Run i starts
i hours after 2026-11-01T00:00:00Z, with ten samples of the headline figure (latency_kernel,
ns/op, or throughput) around a median that steps through -2 %, -1 %, 0, +1 %, +2 % of a level
(100 ns/op, or 1e7 ops/s), 0.1 % apart. CASE says what the first result's runs are instead:
  steady     as the others
  regressed  the median 10 % worse
  noisy      six samples at the level, four 50 % worse: the median holds, the mean does not
  unchanged  the median at the level
"""
import copy
import datetime
import json
import statistics
import sys


def samples_for(run, case, level, worse):
    """Ten values; @worse multiplies a value by a factor in the worse direction."""
    if case == "regressed":
        median = worse(level, 1.10)
    elif case in ("noisy", "unchanged"):
        median = level
    else:
        median = level * (1 + 0.01 * ((run * 3) % 5 - 2))
    values = [median * (1 + 0.001 * (j - 4.5)) for j in range(10)]
    if case == "noisy":
        values = values[2:8] + [worse(level, 1.5)] * 4
    return values


def set_result(res, values, start, fig):
    when = start.strftime("%Y-%m-%dT%H:%M:%SZ")
    res["start_time"] = when
    res["end_time"] = (start + datetime.timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    template = next(s for s in res["samples"] if not s.get("warmup"))
    res["samples"] = []
    for i, v in enumerate(values):
        s = copy.deepcopy(template)
        s["iter"] = i
        s[fig] = v
        res["samples"].append(s)
    st = res["summary"][fig]
    st.update(mean=statistics.mean(values), median=statistics.median(values),
              stddev=statistics.stdev(values), min=min(values), max=max(values), n=len(values))
    st["cv"] = st["stddev"] / st["mean"]
    res["summary"]["noisy"] = False


def write(template, out, first, count, case, kernel=None):
    doc = copy.deepcopy(template)
    base = doc["results"]
    doc["results"] = []
    if kernel:
        doc["context"]["kernel"]["release"] = kernel
    t0 = datetime.datetime(2026, 11, 1)
    for run in range(first, first + count):
        start = t0 + datetime.timedelta(hours=run)
        for k, tmpl in enumerate(base):
            res = copy.deepcopy(tmpl)
            fig = res["summary"].get("headline", {}).get("figure", "throughput")
            lower = fig == "latency_kernel"
            level = 100.0 if lower else 1e7

            def worse(v, f, lower=lower):
                return v * f if lower else v / f
            values = samples_for(run, case if k == 0 else "steady", level, worse)
            set_result(res, values, start + datetime.timedelta(minutes=k), fig)
            doc["results"].append(res)
    doc["context"]["time"] = doc["results"][-1]["end_time"]
    json.dump(doc, open(out, "w"))


def main():
    template = json.load(open(sys.argv[1]))
    out = sys.argv[2]
    write(template, out + "/base.json", 0, 30, "steady")
    for case in ("regressed", "unchanged", "noisy"):
        write(template, "%s/%s.json" % (out, case), 30, 1, case)
    write(template, out + "/new-kernel.json", 30, 4, "steady", "6.99.0-test")


main()
