#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Check the numeric option ranges the docs give against what mapbench prints.

Usage: doc_ranges.py MAPBENCH FILE.md...

The ranges come from `mapbench -h BENCH` for every bench of `mapbench --list` and from
`mapbench --help` for the global options ("(default D; A..B)" at the end of a line). In each
Markdown file an option mention is a backticked `--name ...` with the ranges A..B inside the
backticks or in the parentheses right after, or, in a table row that starts with the option,
the ranges of a "range" column (else of the whole row). A mention refers to the benches of its
section (a heading whose first word is a family of --list, as "## hash" or "### Hash family";
"### NAME" where NAME matches bench names, as `map-*`; other sections: every bench; a table
after a paragraph "Options of `NAME`": the benches NAME matches; a table row that starts with
a bench name: that bench), else to the global options. It agrees
when one of those benches (or the global options) prints a range that the mention names and
that holds every range the mention names. Prints one line per disagreement and, last,
"checked N mentions"; exit status 1 when one disagrees.
"""
import fnmatch
import os
import re
import subprocess
import sys

VERBOSE = os.environ.get("E2E_VERBOSE")
NUM = r"(?:2\^\d+(?:-\d+)?|\d+(?:\.\d+)?(?:e[-+]?\d+)?)"
RANGE = re.compile(r"(?<![\w.^])(" + NUM + r")\.\.(" + NUM + r")(?![\w.^])")
OPT_LINE = re.compile(r"^\s+(?:-\w, )?--([\w-]+)\b")


def norm(name):
    return name.replace("-", "_")


def value(text):
    m = re.fullmatch(r"2\^(\d+)(?:-(\d+))?", text)
    if m:
        return 2 ** int(m.group(1)) - int(m.group(2) or 0)
    return float(text)


def fmt(r):
    return "..".join("%d" % v if v == int(v) else "%g" % v for v in r)


def ranges_in(text):
    return [(value(a), value(b)) for a, b in RANGE.findall(text)]


def trailing_group(line):
    """The text of the parenthesised group that ends @line (nested ones included), or ""."""
    if not line.endswith(")"):
        return ""
    depth = 0
    for i in range(len(line) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(line[i], 0)
        if depth == 0:
            return line[i + 1:-1]
    return ""


def help_ranges(mb, args):
    """Option name -> (lo, hi) for every option whose help line ends in a numeric range."""
    out = subprocess.run([mb] + args, capture_output=True, text=True, check=True).stdout
    opts = {}
    for line in out.splitlines():
        m = OPT_LINE.match(line)
        if not m:
            continue
        tail = trailing_group(line)
        if tail.startswith("default "):
            tail = tail.split("; ", 1)[1] if "; " in tail else ""
        r = RANGE.match(tail.strip())	# "A..B", or "A..B; more words" (a custom value)
        if r and tail.strip()[r.end():][:1] in ("", ";"):
            opts[norm(m.group(1))] = (value(r.group(1)), value(r.group(2)))
    return opts


def load(mb):
    listing = subprocess.run([mb, "--list"], capture_output=True, text=True, check=True).stdout
    families, family = {}, None
    for line in listing.splitlines():
        if re.fullmatch(r"[a-z0-9-]+:", line):
            family = line[:-1]
            families[family] = []
        elif line.startswith("- ") and family:
            families[family].append(line.split()[1])
    benches = {b: help_ranges(mb, ["-h", b]) for f in families.values() for b in f}
    glob = help_ranges(mb, ["--help"])
    for b in benches.values():	# --help lists bench options too: keep the global ones
        for k in b:
            glob.pop(k, None)
    return families, benches, glob


def split_row(line):
    cells = re.split(r"(?<!\\)\|", line.strip())
    return [c.strip() for c in cells[1:-1]]


def mentions(lines):
    """Yield (line number, text, table row cells or None, header) for each paragraph or row."""
    header, para, start = None, [], 0
    for i, line in enumerate(lines + [""], 1):
        if line.startswith("|"):
            if para:
                yield start, " ".join(para), None, None
                para = []
            cells = split_row(line)
            if i < len(lines) and re.match(r"^\|[-| :]+\|$", lines[i]):
                header = [c.lower() for c in cells]
            elif not re.match(r"^\|[-| :]+\|$", line):
                yield i, line, cells, header
            continue
        header = None
        if line.strip() == "" or line.startswith("#"):
            if para:
                yield start, " ".join(para), None, None
                para = []
            if line.startswith("#"):
                yield i, line, None, "heading"
            continue
        if not para:
            start = i
        para.append(line.strip())


MENTION = re.compile(r"`--([a-z][\w-]*)([^`]*)`(?:\s*\(((?:[^()]|\([^()]*\))*)\))?")


def check_file(path, families, benches, glob):
    lines = open(path).read().splitlines()
    scope, table_scope = [], []
    bad = checked = 0
    for no, text, cells, header in mentions(lines):
        if header == "heading":
            title = re.sub(r"[`#]", "", text).replace(" options", "").strip()
            first = title.split()[0].lower() if title else ""
            match = [b for b in benches if fnmatch.fnmatch(b, title)]
            if first in families:
                scope = families[first]
            elif match:
                scope = match
            elif not text.startswith("### "):
                scope = list(benches)
            table_scope = []
            continue
        if cells is None:	# a paragraph: "Options of `map-*`:" names the table after it
            m = re.match(r"Options of (?:the )?`([^`]+)`", text)
            table_scope = [b for b in benches if m and fnmatch.fnmatch(b, m.group(1))]
        found = []	# (option, ranges, benches)
        row_scope = scope if cells is None else table_scope or scope
        if cells and re.fullmatch(r"`[a-z0-9-]+`", cells[0]) and cells[0][1:-1] in benches:
            row_scope = [cells[0][1:-1]]
        lead = re.fullmatch(r"`(?:-\w, )?--([a-z][\w-]*)[^`]*`", cells[0]) if cells else None
        if lead:
            col = header.index("range") if header and "range" in header else None
            rs = ranges_in(cells[col]) if col is not None else ranges_in(" | ".join(cells[1:]))
            rs += ranges_in(cells[0])
            found.append((lead.group(1), rs, row_scope))
        else:
            for m in MENTION.finditer(text):
                found.append((m.group(1), ranges_in(m.group(2)) + ranges_in(m.group(3) or ""),
                              row_scope))
        for opt, rs, where in found:
            if not rs:
                continue
            owners = [(b, benches[b][norm(opt)]) for b in where if norm(opt) in benches[b]]
            if not owners and norm(opt) in glob:
                owners = [("--help", glob[norm(opt)])]
            if not owners:
                continue	# no numeric range printed for it (a list, a custom value)
            checked += 1
            if VERBOSE:
                print("%s:%d: --%s %s vs %s" % (path, no, opt, rs, owners[:2]))
            if any(r in rs and all(r[0] <= lo and hi <= r[1] for lo, hi in rs)
                   for _, r in owners):
                continue
            bad += 1
            said = ", ".join(fmt(r) for r in rs)
            printed = "; ".join("%s %s" % (b, fmt(r)) for b, r in owners[:3])
            print("%s:%d: --%s: the docs say %s, mapbench -h prints %s" %
                  (path, no, opt, said, printed))
    return bad, checked


def main():
    families, benches, glob = load(sys.argv[1])
    bad = checked = 0
    for path in sys.argv[2:]:
        b, c = check_file(path, families, benches, glob)
        bad += b
        checked += c
    print("checked %d mentions" % checked)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
