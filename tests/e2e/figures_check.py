#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""A result document's figures against the text the same run printed.

Usage: figures_check.py TEXT DOC.json|DOC.csv
       figures_check.py --keys DOC.json DOC.csv   (the same figures: names, units, labels)
       figures_check.py --batch LIST   (each line of LIST: a description, then one of the
                                        argument lists above, tab-separated; prints one line
                                        per check: ok or fail, the description, the output)

Reads the text's Summary lines (every style mapbench prints) and map-mem's tables, turns each
number back into base units with the rounding its printed digits allow, and checks that the
document's figures (JSON results[].figures, or the CSV's figure rows) are exactly those: the
same names, units and labels, values within the text's rounding, a spread where the text shows
"± Y", null where it shows "± n/a" and none where it shows none. Prints "checked N figures",
and one line per disagreement (exit status 1).
"""
import csv
import json
import re
import sys

MIB = 1024 * 1024
SIZE = {'B': 1, 'KiB': 1024, 'MiB': MIB, 'GiB': 1024 * MIB}
SCALE = {'M': 1e6, 'K': 1e3, 'k': 1e3}
UNUM = r'[0-9]+(?:\.[0-9]+)?'
NUM = r'-?' + UNUM
SD = r'n/a|[0-9]+(?:\.[0-9]+)?'
failures = []


def printed(text, scale=1.0):
    """A printed number: (value in base units, the half of its last digit, in base units)."""
    decimals = len(text.split('.')[1]) if '.' in text else 0
    return float(text) * scale, 0.5 * 10 ** -decimals * scale


class Fig:
    """One figure as the text shows it: value/spread are (number, tolerance), None or 'n/a'."""

    def __init__(self, name, unit, value, sd=None, labels=None, spread=False):
        self.key = (name, unit, json.dumps(labels or {}, sort_keys=True))
        self.value = value
        self.sd = sd
        self.spread = spread


def spread(text, scale):
    return 'n/a' if text == 'n/a' else printed(text, scale)


def parse_hits(line):
    m = re.match(r'^Summary: hits +(%s) ± +(%s) ?M/s \( *(%s)M/prod\), drops +(%s) ± +(%s) ?M/s, '
                 r'total operations +(%s) ± +(%s) ?M/s$' % (NUM, SD, NUM, NUM, SD, NUM, SD), line)
    if not m:
        return None
    g = m.groups()
    return [Fig('hits', 'ops/s', printed(g[0], 1e6), spread(g[1], 1e6), spread=True),
            Fig('hits', 'ops/s per producer', printed(g[2], 1e6)),
            Fig('drops', 'ops/s', printed(g[3], 1e6), spread(g[4], 1e6), spread=True),
            Fig('total operations', 'ops/s', printed(g[5], 1e6), spread(g[6], 1e6), spread=True)]


def parse_throughput(line):
    m = re.match(r'^Summary: throughput +(%s) ± +(%s) ([MK]) ops/s \( *(%s)([MK]) ops/prod\), '
                 r'latency +(%s) (ns|ms)/op$' % (NUM, SD, NUM, NUM), line)
    if not m:
        return None
    v, sd, unit, prod, unit2, lat, lat_unit = m.groups()
    return [Fig('throughput', 'ops/s', printed(v, SCALE[unit]), spread(sd, SCALE[unit]),
                spread=True),
            Fig('throughput', 'ops/s per producer', printed(prod, SCALE[unit2])),
            Fig('latency', 'ns/op', printed(lat, 1e6 if lat_unit == 'ms' else 1))]


def parse_false_hits(line):
    m = re.match(r'^Summary: ([0-9]+) false hits of ([0-9]+) total operations\. '
                 r'Percentage = +(%s) %%$' % NUM, line)
    if not m:
        return None
    return [Fig('false hits', 'ops', printed(m.group(1))),
            Fig('total operations', 'ops', printed(m.group(2))),
            Fig('Percentage', '%', printed(m.group(3)))]


def parse_htab(line):
    m = re.match(r'^Summary: per-prod-op +(%s) ± +(%s) ?k/s, (?:memory usage +(%s) ± +(%s) ?MiB|'
                 r'memory usage unavailable), (?:peak memory usage +(%s)MiB|'
                 r'peak memory usage unavailable)$' % (NUM, SD, NUM, SD, NUM), line)
    if not m:
        return None
    g = m.groups()
    mem = printed(g[2], MIB) if g[2] else None
    return [Fig('per-prod-op', 'ops/s', printed(g[0], 1e3), spread(g[1], 1e3), spread=True),
            Fig('memory usage', 'bytes', mem, spread(g[3], MIB) if g[3] else 'n/a',
                spread=True),
            Fig('peak memory usage', 'bytes', printed(g[4], MIB) if g[4] else None)]


def parse_creates(line):
    m = re.match(r'^Summary: creates +(%s) ± +(%s) ?k/s \( *(%s)k/prod\), +(%s|n/a) '
                 r'kmallocs/create$' % (NUM, SD, NUM, NUM), line)
    if not m:
        return None
    g = m.groups()
    return [Fig('creates', 'ops/s', printed(g[0], 1e3), spread(g[1], 1e3), spread=True),
            Fig('creates', 'ops/s per producer', printed(g[2], 1e3)),
            Fig('kmallocs', 'kmallocs/create', None if g[3] == 'n/a' else printed(g[3]))]


def parse_lru_dist(line):
    m = re.match(r'^Summary: (\S+) (\S+) lru_size [0-9]+ tasks [0-9]+: BPF LRU misses ([0-9]+) '
                 r'\((%s) %%\), perfect LRU misses ([0-9]+) \((%s) %%\), extra misses ([+-][0-9]+) '
                 r'\(([+-]%s) %% of accesses\) over ([0-9]+) accesses, ([0-9]+) unique keys, '
                 r'(%s) ns/access \(.*\)$' % (NUM, NUM, UNUM, NUM), line)
    if not m:
        return None
    g = m.groups()
    lab = {'map_type': g[0], 'lru': g[1]}
    names = [('BPF LRU misses', 'accesses'), ('BPF LRU misses', '%'),
             ('perfect LRU misses', 'accesses'), ('perfect LRU misses', '%'),
             ('extra misses', 'accesses'), ('extra misses', '%'), ('accesses', 'accesses'),
             ('unique keys', 'keys'), ('time per access', 'ns/access')]
    return [Fig(n, u, printed(v), labels=lab) for (n, u), v in zip(names, g[2:])]


def parse_lru_loss(line):
    m = re.match(r'^Summary: (\S+) (\S+): (.*) \((?:interrupted, )?[a-z]+\)$', line)
    if not m or 'loss0' not in line:
        return None
    lab = {'map_type': m.group(1), 'lru': m.group(2)}
    rest = m.group(3)
    figs = []
    l0 = re.search(r'loss0 older ([0-9]+)/100 active ([0-9]+)/800 newer ([0-9]+)/100 '
                   r'\(perfect ([0-9]+)/([0-9]+)/([0-9]+)\)', rest)
    names = ['loss0 older', 'loss0 active', 'loss0 newer', 'loss0 older perfect',
             'loss0 active perfect', 'loss0 newer perfect']
    for i, n in enumerate(names):
        figs.append(Fig(n, 'keys', printed(l0.group(i + 1)) if l0 else None, labels=lab))
    l1 = re.search(r'loss1 ([0-9]+)/1000 \(perfect ([0-9]+)\)', rest)
    figs.append(Fig('loss1', 'keys', printed(l1.group(1)) if l1 else None, labels=lab))
    figs.append(Fig('loss1 perfect', 'keys', printed(l1.group(2)) if l1 else None, labels=lab))
    par = re.search(r'parallel ([0-9]+)/[0-9]+ stable keys lost over [0-9]+ tasks '
                    r'\(perfect ([0-9]+)\)', rest)
    figs.append(Fig('parallel', 'keys', printed(par.group(1)) if par else None, labels=lab))
    figs.append(Fig('parallel perfect', 'keys', printed(par.group(2)) if par else None,
                    labels=lab))
    return figs


def parse_local_storage(line):
    m = re.match(r'^Summary: hits throughput +(%s) ± +(%s) M ops/s, hits latency +(%s) ns/op, '
                 r'important_hits throughput +(%s) ± +(%s) M ops/s$' % (NUM, SD, NUM, NUM, SD),
                 line)
    if not m:
        return None
    g = m.groups()
    return [Fig('hits', 'ops/s', printed(g[0], 1e6), spread(g[1], 1e6), spread=True),
            Fig('hits latency', 'ns/op', printed(g[2])),
            Fig('important_hits', 'ops/s', printed(g[3], 1e6), spread(g[4], 1e6), spread=True)]


def parse_mapinmap(line):
    m = re.match(r'^Summary: ([a-z-]+): ([0-9]+) calls, mean (%s) us, p50 (%s) us, p90 (%s) us, '
                 r'p99 (%s) us, max (%s) us( \(stopped at --max_case_ms\))?$' % ((UNUM,) * 5), line)
    if not m:
        return None
    g = m.groups()
    lab = {'case': g[0]}
    return [Fig('calls', 'calls', printed(g[1]), labels=lab)] + \
        [Fig(n, 'us', printed(v), labels=lab)
         for n, v in zip(['mean', 'p50', 'p90', 'p99', 'max'], g[2:7])]


def parse_tasks_trace(line):
    """local-storage-tasks-trace's kernel lines: the latency, then with --kthread_pid the ticks."""
    m = re.match(r'^SUMMARY tasks_trace grace period latency\tavg (%s) us\tstddev (%s) us$'
                 % (NUM, SD), line)
    if m:
        return [Fig('grace period latency', 'us', printed(m.group(1)), spread(m.group(2), 1),
                    spread=True)]
    m = re.match(r'^SUMMARY ticks per tasks_trace grace period\tavg (%s)\tstddev (%s)$'
                 % (NUM, SD), line)
    if m:
        return [Fig('ticks per grace period', 'ticks', printed(m.group(1)),
                    spread(m.group(2), 1), spread=True)]
    return None


PARSERS = [parse_hits, parse_throughput, parse_false_hits, parse_htab, parse_creates,
           parse_lru_dist, parse_lru_loss, parse_local_storage, parse_mapinmap]

# map-mem's columns after max_entries, with the unit of their figures.
MM_COLUMNS = [('entries', 'entries'), ('created', 'bytes'), ('filled', 'bytes'),
              ('percpu', 'bytes'), ('B/entry', 'bytes/entry'), ('memlock', 'bytes'),
              ('vs charged', '%'), ('deleted', 'bytes'), ('deleted (released)', 'ms'),
              ('closed', 'bytes'), ('closed (released)', 'ms'), ('fill', 'ms'),
              ('delete', 'ms')]
# The row beside each storage row in a local storage type's table.
MM_HASH_ROW = 'hash (by owner id)'
MM_TOKEN = re.compile(r'[+-][0-9]+\.[0-9] %|[0-9]+(?:\.[0-9]+)? (?:B|KiB|MiB|GiB)(?= |$)|'
                      r'[0-9]+(?:\.[0-9]+)? m?s(?= |$)|at once|none in [0-9.]+ m?s|'
                      r'falling [0-9.]+ m?s|no delete|not waited|interrupted|unavailable|'
                      r'n/a|-|[0-9]+(?:\.[0-9]+)?')


def mm_cell(text):
    """A map-mem cell as (value, tolerance), or None where it shows no number."""
    if text in ('at once',) or text.startswith('none in'):
        return (0.0, 0.0)
    m = re.match(r'^([+-]?[0-9.]+) ?(B|KiB|MiB|GiB|ms|s|%)?$', text)
    if not m:
        return None
    num, suffix = m.groups()
    if suffix in SIZE:
        return printed(num, SIZE[suffix])
    if suffix == 's':
        return printed(num, 1000)
    return printed(num)


def parse_map_mem(lines):
    figs, mtype = [], None
    for line in lines:
        h = re.match(r'^map-mem: (\S+), ', line)
        if h:
            mtype = h.group(1)
            continue
        row = re.match(r'^ +([0-9]+) (.*)$', line)
        lab = {'map_type': mtype, 'max_entries': int(row.group(1))} if row else None
        if row and mtype and mtype.endswith('_storage'):
            # A storage table: owners, then which map (the storage or the hash beside it).
            srow = re.match(r'^ +([0-9]+) (\S+_storage|%s) +(.*)$' % re.escape(MM_HASH_ROW),
                            line)
            if not srow:
                failures.append('map-mem %s row without its map: %r' % (mtype, line))
                continue
            lab = {'map_type': mtype, 'owners': int(srow.group(1)), 'map': srow.group(2)}
            row = srow
        if not mtype or not row or row.groups()[-1].lstrip().startswith('error:'):
            continue
        cells = MM_TOKEN.findall(row.groups()[-1])
        if len(cells) != len(MM_COLUMNS):
            failures.append('map-mem %s row %s: %d cells, not %d: %r' %
                            (mtype, row.group(1), len(cells), len(MM_COLUMNS), cells))
            continue
        for (name, unit), cell in zip(MM_COLUMNS, cells):
            if name == 'percpu' and cell == '-':
                continue    # not a per-CPU type: the column has no figure
            figs.append(Fig(name, unit, mm_cell(cell), labels=lab))
    return figs


def text_blocks(path):
    """The text's figures: one block per Summary line, and map-mem's tables as one block."""
    lines = open(path, encoding='utf-8').read().splitlines()
    blocks = []
    for line in lines:
        if re.search(r'n/a[A-Za-z]', line):
            failures.append('"n/a" runs into its unit: %s' % line)
        if line.startswith('SUMMARY '):
            # The kernel's own for tasks-trace: its lines are one result's, one block.
            got = parse_tasks_trace(line)
            if got is None:
                failures.append('a SUMMARY line no style parses: %s' % line)
            elif got[0].key[0] == 'ticks per grace period' and blocks:
                blocks[-1].extend(got)
            else:
                blocks.append(got)
            continue
        if not line.startswith('Summary: '):
            continue
        for parse in PARSERS:
            got = parse(line)
            if got is not None:
                blocks.append(got)
                break
        else:
            failures.append('a Summary line no style parses: %s' % line)
    return blocks, parse_map_mem(lines)


def json_results(path):
    doc = json.load(open(path, encoding='utf-8'))
    results = []
    for r in doc['results']:
        if r['status'] in ('ok', 'interrupted') and not r.get('figures'):
            failures.append('%s: status %s but no figures' % (r['bench'], r['status']))
        results.append((r['bench'], r.get('figures') or []))
    return results


def csv_labels(text):
    out = {}
    for part in filter(None, text.split(';')):
        k, v = part.split('=', 1)
        out[k] = int(v) if re.match(r'^-?[0-9]+$', v) else v
    return out


def csv_results(path):
    """The CSV's figure rows, one list per result (consecutive rows of one bench and params)."""
    rows = list(csv.reader(open(path, newline='', encoding='utf-8')))
    head = rows[0]
    if head[-1] != 'labels':
        failures.append('CSV header does not end in labels: %s' % ','.join(head))
    results, last = [], None
    for r in rows[1:]:
        if len(r) != len(head):
            failures.append('CSV row of %d fields, header %d: %s' % (len(r), len(head), r))
            continue
        d = dict(zip(head, r))
        if (d['bench'], d['params']) != last:
            last = (d['bench'], d['params'])
            results.append((d['bench'], []))
        if d['kind'] != 'figure':
            continue
        f = {'name': d['metric'], 'unit': d['unit'], 'labels': csv_labels(d['labels']),
             'value': float(d['mean']) if d['mean'] else None}
        if d['stddev'] == 'n/a':
            f['stddev'] = None
        elif d['stddev']:
            f['stddev'] = float(d['stddev'])
        results[-1][1].append(f)
    return results


def close(want, got):
    value, tol = want
    return got is not None and abs(got - value) <= tol * (1 + 1e-9) + 1e-9 * abs(value)


def compare(text, doc):
    docs = {}
    for f in doc:
        key = (f['name'], f['unit'], json.dumps(f['labels'], sort_keys=True))
        if key in docs:
            failures.append('figure %s twice in the document' % (key,))
        docs[key] = f
    seen = set()
    for t in text:
        f = docs.get(t.key)
        seen.add(t.key)
        if f is None:
            failures.append('the text shows %s, the document has no such figure' % (t.key,))
            continue
        v = f.get('value')
        if (t.value is None) != (v is None) or (t.value is not None and not close(t.value, v)):
            failures.append('%s: text %s, document %s' % (t.key, t.value, v))
        if not t.spread:
            if 'stddev' in f:
                failures.append('%s: the text shows no spread, the document has %s' %
                                (t.key, f['stddev']))
        elif t.sd == 'n/a':
            if f.get('stddev', 0) is not None:
                failures.append('%s: the text shows ± n/a, the document %s' %
                                (t.key, f.get('stddev', 'nothing')))
        elif not close(t.sd, f.get('stddev')):
            failures.append('%s: text spread %s, document %s' % (t.key, t.sd, f.get('stddev')))
    for key in docs:
        if key not in seen:
            failures.append('the document has %s, the text does not show it' % (key,))
    return len(text)


def figure_keys(path):
    results = csv_results(path) if path.endswith('.csv') else json_results(path)
    return sorted((f['name'], f['unit'], json.dumps(f['labels'], sort_keys=True))
                  for _, figs in results for f in figs)


def same_keys(a, b):
    ka, kb = figure_keys(a), figure_keys(b)
    print('%d and %d figures' % (len(ka), len(kb)))
    for k in sorted(set(ka) ^ set(kb)):
        print('only in %s: %s' % (a if k in ka else b, k))
    return 0 if ka == kb and ka and not failures else 1


def check(args):
    """One check, as the command line's arguments give it: 0 when it holds."""
    del failures[:]
    if args[0] == '--keys':
        return same_keys(args[1], args[2])
    text, doc = args[0], args[1]
    results = csv_results(doc) if doc.endswith('.csv') else json_results(doc)
    blocks, map_mem = text_blocks(text)
    n = 0
    for bench, figs in results:
        if not figs:
            continue
        if any('max_entries' in f['labels'] for f in figs):
            shown = map_mem
        else:
            # One Summary line per label set (per map for the LRU benches), in order.
            k = len({json.dumps(f['labels'], sort_keys=True) for f in figs})
            shown = [t for b in blocks[:k] for t in b]
            del blocks[:k]
        if not shown:
            failures.append('%s: figures, but no text shows them' % bench)
        n += compare(shown, figs)
    for b in blocks:
        failures.append('a Summary line of no result: %s' % [t.key for t in b])
    print('checked %d figures' % n)
    for f in failures:
        print(f)
    return 1 if failures or not n else 0


def batch(path):
    """Every check of a list, in one process (a python start costs ~0.1-0.7 s on the test
    machines, and test_formats makes three checks per bench)."""
    import contextlib
    import io
    for line in open(path):
        desc, *args = line.rstrip('\n').split('\t')
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                rc = check(args)
            except Exception as e:   # a document that does not parse is a failed check
                print('%s: %s' % (type(e).__name__, e))
                rc = 1
        said = ' '.join(out.getvalue().split('\n')[:8])[:1500]
        print('%s\t%s\t%s' % ('fail' if rc else 'ok', desc, said))
    return 0


def main():
    if sys.argv[1] == '--batch':
        return batch(sys.argv[2])
    return check(sys.argv[1:])


if __name__ == '__main__':
    sys.exit(main())
