#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Check that the docs name the options mapbench has, and only those.

Usage: doc_options.py MAPBENCH tables FILE.md...
       doc_options.py MAPBENCH benches PART.md...
       doc_options.py MAPBENCH examples FILE.md...

tables: a line "<!-- options of: mapbench ARGS: SECTION[, SECTION...] -->" marks the option
table after it; its first column must list exactly the options that `mapbench ARGS` prints in
those sections of its help (a section is a line "SECTION:" and the lines up to a blank one).
benches: every option `mapbench -h BENCH` prints for a bench of `mapbench --list` is named
(`--name`, with `-` or `_`) in the section "## FAMILY" of the files (each family's part of the
catalogue, src/families/FAMILY/README.md, is one such section).
examples: in the commands of FILE.md (indented code lines and `code` that start with
"mapbench "), every --option is one that some help prints, and every hyphenated word is a
bench of --list or a subcommand.
Prints one line per disagreement and, last, "checked N options"; exit status 1 on any.
"""
import re
import shlex
import subprocess
import sys

OPT_LINE = re.compile(r"^\s+(?:-\w, )?--([\w-]+)\b")
MARK = re.compile(r"^<!-- options of: mapbench (.*?): (.*?) -->$")
VERBS_LINE = re.compile(r"^\s+mapbench (\w+) ")


def norm(name):
    return name.replace("-", "_")


def helptext(mb, args):
    return subprocess.run([mb] + args, capture_output=True, text=True, check=True).stdout


def help_options(text, sections=None):
    """Options (normalised) of @sections of a help text, or of all of it."""
    opts, inside = set(), sections is None
    for line in text.splitlines():
        if sections is not None:
            if line.rstrip(":") in sections and line.endswith(":"):
                inside = True
                continue
            if not line.strip():
                inside = False
        m = OPT_LINE.match(line)
        if inside and m:
            opts.add(norm(m.group(1)))
    return opts


def listing(mb):
    families, family = {}, None
    for line in helptext(mb, ["--list"]).splitlines():
        if re.fullmatch(r"[a-z0-9-]+:", line):
            family = line[:-1]
            families[family] = []
        elif line.startswith("- ") and family:
            families[family].append(line.split()[1])
    return families


def table_after(lines, start):
    """The options of the first column of the table that starts after line @start."""
    i = start
    while i < len(lines) and not lines[i].startswith("|"):
        i += 1
    opts = []
    for line in lines[i:]:
        if not line.startswith("|"):
            break
        first = line.split("|")[1]
        opts += [(norm(m.group(1)), line) for m in re.finditer(r"--([a-z][\w-]*)", first)]
    return opts


def check_tables(mb, paths):
    bad = checked = marks = 0
    for path in paths:
        lines = open(path).read().splitlines()
        for no, line in enumerate(lines, 1):
            m = MARK.match(line)
            if not m:
                continue
            marks += 1
            args = shlex.split(m.group(1))
            want = help_options(helptext(mb, args), [s.strip() for s in m.group(2).split(",")])
            have = {o for o, _ in table_after(lines, no)}
            checked += len(have)
            where = "%s:%d: mapbench %s" % (path, no, m.group(1))
            if not want:
                print("%s: its help has no section %s" % (where, m.group(2)))
                bad += 1
            for o in sorted(want - have):
                print("%s: --%s is in its help, not in the table" % (where, o))
                bad += 1
            for o in sorted(have - want):
                print("%s: --%s is in the table, not in its help" % (where, o))
                bad += 1
    if not marks:
        print("no table marked '<!-- options of: mapbench ... -->' in %s" % " ".join(paths))
        bad += 1
    return bad, checked


def check_benches(mb, paths):
    sections = {}	# family -> (path, the text of its "## FAMILY" section)
    for path in paths:
        text = open(path).read()
        starts = [(m.start(), m.group(1)) for m in re.finditer(r"^## (\S+)$", text, re.M)]
        for i, (start, family) in enumerate(starts):
            end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
            sections[family] = (path, text[start:end])
    bad = checked = 0
    for family, benches in listing(mb).items():
        if family not in sections:
            print("no section '## %s' in the %d files given" % (family, len(paths)))
            bad += 1
            continue
        path, text = sections[family]
        named = {norm(o) for o in re.findall(r"--([a-z][\w-]*)", text)}
        for bench in benches:
            for o in sorted(help_options(helptext(mb, ["-h", bench]))):
                checked += 1
                if o not in named:
                    print("%s: '## %s' does not name --%s of %s" % (path, family, o, bench))
                    bad += 1
    return bad, checked


def commands(path):
    """(line, words) of each command: an indented code line, or `code` in a paragraph."""
    para, start = [], 0
    for no, line in enumerate(open(path).read().splitlines() + [""], 1):
        if line.startswith("    ") or not line.strip() or line.startswith(("#", "|")):
            for cmd in re.findall(r"`([^`]*)`", " ".join(para)):
                yield start, cmd
            para = []
            if line.startswith("    "):
                yield no, line.split("#")[0].strip()
            elif line.startswith("|"):
                for cmd in re.findall(r"`([^`]*)`", line):
                    yield no, cmd
            continue
        if not para:
            start = no
        para.append(line.strip())


def check_examples(mb, paths):
    families = listing(mb)
    benches = {b for f in families.values() for b in f}
    known = help_options(helptext(mb, ["--help"]))
    # The subcommands, as mapbench --help lists them ("  mapbench VERB ...").
    verbs = {m.group(1) for m in map(VERBS_LINE.match, helptext(mb, ["--help"]).splitlines()) if m}
    for args in [["-h", b] for b in benches] + [[v, "--help"] for v in sorted(verbs)]:
        known |= help_options(helptext(mb, args))
    bad = checked = 0
    for path in paths:
        for no, cmd in commands(path):
            if not re.match(r"(build/)?mapbench ", cmd):
                continue
            for w in cmd.split()[1:]:
                opt = re.match(r"--([a-z][\w-]*)", w)
                if opt:
                    checked += 1
                    if norm(opt.group(1)) not in known:
                        print("%s:%d: --%s: no help of mapbench prints it" % (path, no,
                                                                               opt.group(1)))
                        bad += 1
                elif re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", w) and w not in benches and \
                        not re.fullmatch(r"\d{4}-\d\d-\d\d", w):
                    print("%s:%d: %s: not a bench of mapbench --list" % (path, no, w))
                    bad += 1
    return bad, checked


def main():
    mb, mode, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    if mode == "tables":
        bad, checked = check_tables(mb, paths)
    elif mode == "benches":
        bad, checked = check_benches(mb, paths)
    else:
        bad, checked = check_examples(mb, paths)
    print("checked %d options" % checked)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
