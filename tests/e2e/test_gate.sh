#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The readers of the results history (issue 34): gate, trend and report. 30 runs of two benches
# with known samples (history_gen.py, from one real short run's document) are imported into a
# history; then one more run: regressed (gate exits 1 naming that bench), unchanged (0), noisy
# with its median unchanged (0). trend draws the history, report writes a page that python's
# parser and headless chromium read. Bad options: exit 2, one line. The same against a
# PostgreSQL server this test starts (tests/e2e/lib_pg.sh), where there is one.
. "$(dirname "$0")/lib.sh"

D=$TMP/h
mkdir "$D"

# The template: one real short run of two benches, whose documents the generator rewrites.
run "${FAST[@]}" -q map-lookup bpf-noop --format json -o "$D/template.json"
if [ "$rc" -ne 0 ]; then
	fail "the template run: exit $rc"
	finish
fi
python3 "$ROOT/tests/e2e/history_gen.py" "$D/template.json" "$D"

# gate_cases DB-MAKER: each case on a fresh copy of the 30 runs. DB-MAKER NAME sets DB to a
# --db value holding the 30 runs (an SQLite copy, or a PostgreSQL database).
gate_cases() {
	local mk=$1 db
	for c in $(san_pick regressed unchanged noisy -- regressed noisy); do
		$mk "$c"
		db=$DB
		expect_rc 0 "$mk: import $c" import --db "$db" "$D/$c.json"
		run gate --db "$db" --markdown "$D/$c.md"
		case $c in
		regressed)
			check "$mk: gate exits 1 on the regressed run" [ "$rc" -eq 1 ]
			check "$mk: gate names map-lookup as regressed" \
				grep -q "gate: map-lookup .* regressed" "$ERR"
			check "$mk: ... and not bpf-noop" bash -c "! grep -q 'bpf-noop.*regressed' '$ERR'"
			check "$mk: the Markdown says regression" \
				grep -q "^### mapbench gate: regression" "$D/$c.md"
			check "$mk: the Markdown's row of map-lookup says regressed" \
				grep -qE "^\| map-lookup \|.*\| regressed \| regressed \|" "$D/$c.md"
			;;
		unchanged)
			check "$mk: gate exits 0 on the unchanged run" [ "$rc" -eq 0 ]
			check "$mk: two series pass" grep -q "0 regressed, 0 improved, 2 pass" "$OUT"
			;;
		noisy)
			check "$mk: gate exits 0 on the noisy run whose median held" [ "$rc" -eq 0 ]
			check "$mk: the noisy run's note says the median is inside the band" \
				grep -q "map-lookup .*pass .*the median is inside the band" "$OUT"
			;;
		esac
	done
}

sqlite_db() {
	DB=$D/$1.db
	cp "$D/base.db" "$DB"
}

expect_rc 0 "import the 30 runs" import --db "$D/base.db" "$D/base.json"
gate_cases sqlite_db

# Too few runs: said, not a failure.
expect_rc 0 "import 2 runs" import --db "$D/two.db" "$D/regressed.json" "$D/unchanged.json"
run gate --db "$D/two.db"
check "gate on one previous run: exit 0" [ "$rc" -eq 0 ]
check "gate says too few runs" grep -q "too few runs .*1 previous run, at least 3 needed" "$OUT"

# Bad input: one line, exit 2, no file left behind.
expect_usage "--window 1: must be 3..1000" gate --db "$D/base.db" --window 1
expect_usage "gate: --param nr_entries: must be NAME=VALUE" gate --db "$D/base.db" \
	--param nr_entries
expect_usage "gate: --since yesterday: not a date" gate --db "$D/base.db" --since yesterday
expect_usage "gate: one BENCH at most (got 2)" gate --db "$D/base.db" map-lookup bpf-noop
unset MAPBENCH_DB
expect_usage "gate: --db FILE|URL (or MAPBENCH_DB) names the history" gate
expect_usage "gate: --db $D/missing.db:" gate --db "$D/missing.db"
check "a missing history is not created" [ ! -e "$D/missing.db" ]
expect_usage "gate: --markdown $D/no/such/g.md:" gate --db "$D/base.db" --markdown "$D/no/such/g.md"
expect_usage "trend: -o $D/t.txt: must end in .svg or .png" trend --db "$D/base.db" -o "$D/t.txt"
expect_usage "trend: -o CHART.svg or -o CHART.png is required" trend --db "$D/base.db"
expect_usage "report: -o $D/r.svg: must end in .html" report --db "$D/base.db" -o "$D/r.svg"
expect_usage "report: -o REPORT.html or -o REPORT.htm is required" report --db "$D/base.db"
check "no chart or page was left behind" bash -c "! ls '$D' | grep -qE '^(t|r)\.'"

# trend: a new kernel for the last 4 runs, marked on the axis.
cp "$D/base.db" "$D/k.db"
expect_rc 0 "import runs on another kernel" import --db "$D/k.db" "$D/new-kernel.json"
if command -v "${MAPBENCH_GNUPLOT:-gnuplot}" >/dev/null; then
	expect_rc 0 "trend -o SVG" trend --db "$D/k.db" -o "$D/trend.svg"
	check "the SVG has a panel per bench" \
		bash -c "grep -q 'map-lookup: latency_kernel' '$D/trend.svg' && grep -q 'bpf-noop: latency_kernel' '$D/trend.svg'"
	check "the new kernel is marked on the axis" grep -q "6.99.0-test" "$D/trend.svg"
	expect_rc 0 "trend -o PNG of one bench" trend --db "$D/k.db" map-lookup -o "$D/trend.png"
	check "the PNG is a PNG" bash -c "head -c 8 '$D/trend.png' | od -An -c | grep -q 'P   N   G'"
else
	echo "  SKIP [$NAME] trend: no gnuplot (scripts/install-deps.sh installs gnuplot-nox)"
fi

# report_check DB PAGE WHAT: the page parses, has a table row per series and an SVG per bench.
report_check() {
	local db=$1 page=$2 what=$3
	expect_rc 0 "$what: report" report --db "$db" -o "$page"
	check "$what: the page parses with the table rows and a chart per bench" \
		python3 - "$page" <<'PY'
import re
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.svgs, self.stack, self.verdicts = 0, 0, [], []
        self.in_tbody = False

    def handle_starttag(self, tag, attrs):
        if tag == "tbody":
            self.in_tbody = True
        elif tag == "tr" and self.in_tbody:
            self.rows += 1
            self.verdicts.append(dict(attrs).get("class"))
        elif tag == "svg":
            self.svgs += 1
        elif tag in ("script", "link", "img", "iframe"):
            sys.exit("outside reference: <%s>" % tag)

    def handle_endtag(self, tag):
        if tag == "tbody":
            self.in_tbody = False


text = open(sys.argv[1]).read()
p = Page()
p.feed(text)
p.close()
# Each chart is well-formed XML on its own, as an .svg file would be.
for svg in re.findall(r"<svg .*?</svg>", text, re.S):
    ET.fromstring(svg)
sys.exit(0 if p.rows == 2 and p.svgs == 2 and "regressed" in p.verdicts else
         "rows %d svgs %d verdicts %s" % (p.rows, p.svgs, p.verdicts))
PY
}

report_check "$D/regressed.db" "$D/report.html" sqlite
if [ "$E2E_SAN" = 1 ]; then
	:	# chromium does not run the binary: once is enough
elif command -v chromium >/dev/null; then
	timeout 60 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
		--dump-dom "file://$D/report.html" >"$D/dom.html" 2>"$D/chromium.err"
	check "chromium renders the table rows" \
		bash -c "[ \$(grep -o '<tr class=\"' '$D/dom.html' | wc -l) -eq 2 ]"
	check "chromium renders the two charts" bash -c "[ \$(grep -o '<svg' '$D/dom.html' | wc -l) -eq 2 ]"
	check "chromium's console has no error" bash -c "! grep -q 'CONSOLE' '$D/chromium.err'"
else
	echo "  SKIP [$NAME] report in a browser: no chromium (apt-get install chromium)"
fi

# The same against a PostgreSQL server this test starts (tests/e2e/lib_pg.sh).
# Under the sanitizers once is enough: the readers' code is the same for both back-ends, and
# test_history runs the store's PostgreSQL code under them.
. "$ROOT/tests/e2e/lib_pg.sh"
if [ "$E2E_SAN" = 1 ]; then
	echo "  SKIP [$NAME] PostgreSQL under the sanitizers: the readers' code ran above"
elif pg_start; then
	pg_db() {
		pg_createdb "gate_$1"
		DB=$(pg_url "gate_$1")
		expect_rc 0 "pg: import the 30 runs for $1" import --db "$DB" "$D/base.json"
	}
	gate_cases pg_db
	pg_createdb gate_history
	url=$(pg_url gate_history)
	expect_rc 0 "pg: import" import --db "$url" "$D/base.json" "$D/regressed.json"
	run history --db "$url" map-lookup --format csv
	check "pg: history lists the 31 runs of map-lookup" \
		bash -c "[ \$(tail -n +2 '$OUT' | wc -l) -eq 31 ]"
	report_check "$url" "$D/report-pg.html" pg
	cmp -s <(sed 's/^<p>[^<]*: /<p>/' "$D/report.html") \
		<(sed 's/^<p>[^<]*: /<p>/' "$D/report-pg.html")
	check "pg: the page is the one SQLite's history gives, but for its source line" [ $? -eq 0 ]
	pg_stop
else
	echo "  SKIP [$NAME] PostgreSQL: $PG_SKIP"
fi

finish
