#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Functions of more than MAX lines in the C files under a folder (kernel style: a function's
body opens with "{" in column 0 and closes with "}" in column 0; counted from the line of its
name to the closing brace). Usage: func_length.py DIR [MAX=80]. Prints each; exits 1 if any."""
import os
import re
import sys


def long_functions(path, limit):
    lines = open(path, encoding='utf-8').read().split('\n')
    start = None
    for i, line in enumerate(lines):
        if line.startswith('{'):
            # The name is on the line before "{", or a few lines up for wrapped parameters.
            start = i - 1
            while start > 0 and not re.match(r'[A-Za-z_]', lines[start]):
                start -= 1
        elif line.startswith('}') and start is not None:
            n = i - start + 1
            if n > limit:
                yield start + 1, n, lines[start].strip()
            start = None


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    limit = int(sys.argv[2]) if len(sys.argv) == 3 else 80
    bad = 0
    for root, _, files in os.walk(sys.argv[1]):
        for name in sorted(files):
            if name.endswith('.c'):
                path = os.path.join(root, name)
                for line, n, what in long_functions(path, limit):
                    print('%s:%d: %d lines: %s' % (path, line, n, what))
                    bad += 1
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
