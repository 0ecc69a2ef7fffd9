#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The layers of src/ (docs/architecture.md), checked two ways:
  includes  every #include "..." of src/ resolves to a file of the same or a lower layer, and
            a family includes no other family's files;
  calls     from the objects' symbol tables (nm): an object uses symbols of its own layer or
            lower ones only, and no two objects use each other, directly or round a circle.
Usage: layers.py includes SRC_DIR | layers.py calls OBJ_DIR SRC_DIR. Prints one line per violation;
exits 1 if there is any."""
import os
import re
import subprocess
import sys

# Lowest first. A folder of src/ not named here is an error: a new layer must be placed.
LAYERS = ['util', 'sys', 'core', 'maps', 'drivers', 'output', 'store', 'families', 'cli', 'plan', 'commands']


def layer_of(rel):
    """(layer index, family or None) of a path relative to src/."""
    parts = rel.split('/')
    if parts[0] not in LAYERS:
        raise SystemExit('%s: folder %s is not a layer of layers.py' % (rel, parts[0]))
    family = parts[1] if parts[0] == 'families' and len(parts) > 2 else None
    return LAYERS.index(parts[0]), family


def check_includes(src):
    bad = 0
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith(('.c', '.h')):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src)
            lay, fam = layer_of(rel)
            for n, line in enumerate(open(path, encoding='utf-8'), 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                inc = m.group(1)
                here = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
                if os.path.exists(os.path.join(src, here)):
                    target = here
                elif os.path.exists(os.path.join(src, inc)):
                    target = inc
                else:
                    continue  # generated: vmlinux.h, skeletons
                tlay, tfam = layer_of(target)
                if tlay > lay:
                    print('%s:%d: includes %s, a layer above (%s > %s)' %
                          (rel, n, target, LAYERS[tlay], LAYERS[lay]))
                    bad += 1
                elif tfam and fam and tfam != fam:
                    print('%s:%d: includes %s, another family\'s file' % (rel, n, target))
                    bad += 1
    return bad


def symbols(paths):
    """{path: (defined, used)} of each object, from one nm run over them all (nm -A)."""
    out = {p: (set(), set()) for p in paths}
    for i in range(0, len(paths), 500):
        text = subprocess.run(['nm', '-A'] + paths[i:i + 500], capture_output=True, text=True,
                              check=True).stdout
        for line in text.splitlines():
            path, sep, rest = line.partition('.o:')
            if not sep:
                continue
            defined, used = out[path + '.o']
            f = rest.split()
            if len(f) == 2 and f[0] == 'U':
                used.add(f[1])
            elif len(f) == 3 and f[1] in 'TDRBC':
                defined.add(f[2])
    return out


def circles(graph):
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
            elif nxt not in index:
                index[nxt] = low[nxt] = counter[0]
                counter[0] += 1
                stack.append(nxt)
                on.add(nxt)
                work.append((nxt, iter(sorted(graph[nxt]))))
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
    return out


def check_calls(objdir, src):
    paths = {}
    for root, _, files in os.walk(objdir):
        for name in files:
            if name.endswith('.o'):
                rel = os.path.relpath(os.path.join(root, name), objdir)[:-2] + '.c'
                # An object left from a file since moved or removed is not part of the tree.
                if os.path.exists(os.path.join(src, rel)):
                    paths[rel] = os.path.join(root, name)
    syms = symbols(sorted(paths.values()))
    objs = {rel: syms[path] for rel, path in paths.items()}
    owner = {}
    for rel, (defined, _) in objs.items():
        for s in defined:
            owner[s] = rel
    graph, bad = {rel: set() for rel in objs}, 0
    for rel, (_, used) in sorted(objs.items()):
        lay, fam = layer_of(rel)
        for s in sorted(used):
            o = owner.get(s)
            if not o or o == rel:
                continue
            graph[rel].add(o)
            olay, ofam = layer_of(o)
            if olay > lay:
                print('%s uses %s of %s, a layer above' % (rel, s, o))
                bad += 1
            elif fam and ofam and fam != ofam:
                print('%s uses %s of %s, another family' % (rel, s, o))
                bad += 1
    for comp in circles(graph):
        print('circle: ' + ' <-> '.join(comp))
        bad += 1
    return bad


def main():
    if sys.argv[1:2] == ['includes'] and len(sys.argv) == 3:
        bad = check_includes(sys.argv[2])
    elif sys.argv[1:2] == ['calls'] and len(sys.argv) == 4:
        bad = check_calls(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit(__doc__)
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
