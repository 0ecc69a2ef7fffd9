#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Check that the relative links of Markdown files lead somewhere.

Usage: doc_links.py FILE.md...

A link [text](target) outside code (fenced blocks, indented lines, `code`) whose target is
neither a URL nor absolute must name a file or folder that exists, relative to the file's
folder; its #anchor, in a Markdown file (or the file itself, for "#anchor" alone), must be a
heading's anchor as GitHub makes it (lower case, punctuation but '-' and '_' dropped, spaces
made '-', a repeated one numbered -1, -2, ...). Prints one line per broken link and, last,
"checked N links"; exit status 1 on any.
"""
import os
import re
import sys

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def prose(path):
    """(line number, text) of the lines outside code, `code` spans blanked."""
    fence = False
    for no, line in enumerate(open(path).read().splitlines(), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if fence or line.startswith("    ") or line.startswith("\t"):
            continue
        yield no, re.sub(r"`[^`]*`", "``", line)


def headings_raw(path):
    """The anchors of the headings of @path (`code` in a heading keeps its text)."""
    seen, names = {}, set()
    fence = False
    for line in open(path).read().splitlines():
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        m = None if fence else re.match(r"#{1,6} +(.*?) *#*$", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        names.add(slug if n == 0 else "%s-%d" % (slug, n))
    return names


def check(path):
    bad = checked = 0
    for no, line in prose(path):
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target) or target.startswith("/"):
                continue
            checked += 1
            file, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            if not os.path.exists(dest):
                print("%s:%d: %s: no such file" % (path, no, target))
                bad += 1
            elif anchor and dest.endswith(".md") and anchor not in headings_raw(dest):
                print("%s:%d: %s: %s has no heading with that anchor" % (path, no, target,
                                                                          file or "the file"))
                bad += 1
    return bad, checked


def main():
    bad = checked = 0
    for path in sys.argv[1:]:
        b, c = check(path)
        bad += b
        checked += c
    print("checked %d links" % checked)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
