#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Reduce mapbench's output to its shape: what the code decides, without the measured numbers.

Usage: shape.py json|text|csv FILE

json: one line per key path, array indices collapsed to [], with the type of the value there
      (object, array, string, bool, num; number and null are one type "num", since a measured
      figure is null where it is unknown, as a spread over one sample), sorted, no repeats.
text: each line with every number replaced by '#' and runs of blanks by one blank (the padding
      follows the width of the numbers); lines that only some runs or machines print are
      dropped or merged (the rules below say why, each).
csv:  the header line as it is, then each row with every number replaced by '#' (the flags
      column emptied).
The result goes to stdout; tests/e2e/test_shape.sh compares it with tests/golden/.
"""
import csv
import io
import json
import re
import sys

# A number: hexadecimal, or decimal with its sign (a minus that does not join two words, as in
# "mapbench-123"), fraction and exponent.
NUM = re.compile(r"0x[0-9a-fA-F]+|(?:(?<![\w.])-)?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")

# JSON paths whose children are left out: they depend on the machine, not on the code.
# The path itself stays (as an object or array), so that a renamed or lost container still shows.
JSON_NO_CHILDREN = {
    # One key per file of /sys/devices/system/cpu/vulnerabilities: the names differ by kernel.
    "context.cpu.vulnerabilities",
    # The CPUs cpu_busy found busy just before the run: none on an idle machine.
    "context.preflight.checks[].measured.cpus",
    # What a run warned about depends on the machine and its load (a VM, a busy CPU, noise).
    "results[].warnings",
    # The noise flags a sample got depend on the load (preempted, outlier).
    "results[].samples[].flags",
    # Why a result is noisy (shift, spread, all_flagged) depends on the load.
    "results[].summary.noise.why",
}

# JSON paths whose value is a string or null depending on the machine or the load: their type
# shows as "string|null" whichever it is.
JSON_STRING_OR_NULL = {
    # /proc/cpuinfo has no microcode line in some virtual machines.
    "context.cpu.microcode",
    # What moved a flagged sample (preempted, host, unexplained); null when it is not flagged.
    "results[].samples[].cause",
}


def json_type(value):
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "bool"
    return "num"


def json_walk(value, path, out):
    kind = json_type(value)
    if path in JSON_STRING_OR_NULL and (value is None or kind == "string"):
        kind = "string|null"
    out.add(f"{path or '.'} {kind}")
    if path in JSON_NO_CHILDREN:
        return
    if isinstance(value, dict):
        for key, child in value.items():
            json_walk(child, f"{path}.{key}" if path else key, out)
    elif isinstance(value, list):
        for child in value:
            json_walk(child, f"{path}[]", out)


def json_shape(text):
    out = set()
    json_walk(json.loads(text), "", out)
    return sorted(out)


# Text lines that some runs or machines print and others do not; each is dropped. (Warnings, of
# the machine and its load, go to stderr, which is not compared.)
TEXT_DROP = [
    # Noise notes: printed only when samples were flagged or the result is noisy, when the
    # producers lost their CPU, or when the host's speed varied: all depend on the load.
    re.compile(r"^Noise: "),
    re.compile(r"^CPU: the producers lost their CPU "),
    re.compile(r"^Host speed: "),
    # The linearity check's line: printed without -v only when 2N was not twice N, which the
    # load decides as much as the bench.
    re.compile(r"^Linearity: "),
]

# Rewrites of parts of a line that differ between machines or runs; applied before the numbers.
TEXT_REWRITE = [
    # The cgroup the bench runs in is named after the machine's own cgroup and mapbench's pid.
    (re.compile(r"/sys/fs/cgroup/\S*"), "CGROUP"),
    # A run's status in the summary table is "(noisy: why)" when the result is noisy (the load).
    (re.compile(r"\s\(noisy[^)]*\)$"), ""),
]


def text_line(line):
    for pattern, repl in TEXT_REWRITE:
        line = pattern.sub(repl, line)
    line = NUM.sub("#", line)
    # Numbers are padded to a width (%8.3f): the padding follows the figure, so blanks shrink to
    # one, and to none after an opening parenthesis ("( 33.658M/prod)" beside "(124.924M/prod)").
    line = re.sub(r"[ \t]+", " ", line)
    return line.replace("( ", "(").rstrip()


def text_shape(text):
    out = []
    for line in text.splitlines():
        if any(p.search(line) for p in TEXT_DROP):
            continue
        line = text_line(line)
        # Consecutive Iter lines are one: how many there are follows -w and -d, not the code
        # (warm-up samples print the same line as measured ones).
        if line.startswith("Iter ") and out and out[-1] == line:
            continue
        out.append(line)
    return out


def csv_shape(text):
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return []
    header = rows[0]
    # The noise flags a sample got (preempted, outlier, drift) depend on the load.
    flags = header.index("flags") if "flags" in header else -1
    out = [",".join(header)]
    for row in rows[1:]:
        cells = ["" if i == flags else NUM.sub("#", cell) for i, cell in enumerate(row)]
        out.append(",".join(cells))
    return out


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("json", "text", "csv"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(sys.argv[2], encoding="utf-8") as f:
        text = f.read()
    shape = {"json": json_shape, "text": text_shape, "csv": csv_shape}[sys.argv[1]](text)
    sys.stdout.write("".join(line + "\n" for line in shape))
    return 0


if __name__ == "__main__":
    sys.exit(main())
