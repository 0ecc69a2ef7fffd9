#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The results history (docs/history.md): --db and MAPBENCH_DB as runs and sweeps go, two
# writers at once, a writer killed mid-sweep, import (added, then skipped), history in text,
# JSON and CSV with its filters, bad input, and the same against a real PostgreSQL server.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/e2e/lib_pg.sh"

SHORT=(-w0 -d2 --interval_ms 50 --no-linearity -q)
# Under the sanitizers (each process starts in ~0.25 s) the filters' variations are left out:
# their code runs under them in tests/unit/test_store.c.
full() { [ "$E2E_SAN" != 1 ]; }
DB=$TMP/h.db

sql() { sqlite3 -cmd '.timeout 10000' "$1" "$2" 2>/dev/null; }
rows() { sql "$1" 'SELECT count(*) FROM runs'; }
# Every run's samples are all there: no result half-written.
whole() {
	sql "$1" 'SELECT count(*) FROM runs r WHERE nsamples != (SELECT count(*) FROM samples s WHERE s.run_id = r.id)'
}

# ---- two runs writing the same file at once ----
"$MB" "${SHORT[@]}" bpf-noop map-lookup --db "$DB" -o "$TMP/a.json" >"$TMP/a.out" 2>&1 &
pa=$!
MAPBENCH_DB=$DB "$MB" "${SHORT[@]}" bpf-noop map-lookup -o "$TMP/b.json" >"$TMP/b.out" 2>&1 &
pb=$!
wait $pa
ra=$?
wait $pb
rb=$?
check "two writers at once: both exit 0 ($ra, $rb)" [ "$ra" -eq 0 ] && [ "$rb" -eq 0 ]
check "two writers: PRAGMA integrity_check says ok" [ "$(sql "$DB" 'PRAGMA integrity_check')" = ok ]
want=$(jq -s 'map(.results | map(select(.status == "ok")) | length) | add' "$TMP/a.json" "$TMP/b.json")
check "two writers: every result is there ($(rows "$DB") of $want)" [ "$(rows "$DB")" = "$want" ]
check "two writers: no result half-written" [ "$(whole "$DB")" = 0 ]
check "schema version recorded" [ "$(sql "$DB" 'SELECT max(version) FROM schema_migrations')" = 1 ]

# ---- import: the results the sink added are the same results; a new file takes them all ----
expect_rc 0 "import of documents the sink added already" import --db "$DB" "$TMP/a.json" "$TMP/b.json"
check "import: all already there" grep -q "0 results added, $want skipped" "$OUT"
expect_rc 0 "import into a new file" import --db "$TMP/i.db" "$TMP/a.json"
check "import: added" grep -q "^import: 2 results added, 0 skipped" "$OUT"
expect_rc 0 "import again" import --db "$TMP/i.db" "$TMP/a.json"
check "import again: skipped" grep -q "^import: 0 results added, 2 skipped" "$OUT"
# Four processes opening one new file at once: each waits for the others' set-up (switching a
# new file to WAL takes a lock SQLite's busy timeout does not wait for), none removes it.
for round in 1 2 3 4 5 6; do
	pids=()
	for i in 1 2 3 4; do
		"$MB" import --db "$TMP/new$round.db" "$TMP/a.json" >"$TMP/imp$i.out" 2>&1 &
		pids+=($!)
	done
	bad=0
	for p in "${pids[@]}"; do
		wait "$p" || bad=$((bad + 1))
	done
	check "four imports at once into a new file (round $round): all exit 0 ($bad failed: $(cat "$TMP"/imp?.out | grep -v '^import:' | head -1))" [ "$bad" -eq 0 ]
	check "four imports at once: the file holds the 2 results once" [ "$(rows "$TMP/new$round.db")" = 2 ]
done

# ---- history: text, JSON, CSV, filters ----
expect_rc 0 "history, text" history --db "$DB"
check "history text: a header and one line per run" [ "$(wc -l <"$OUT")" -eq $((want + 1)) ]
check "history text: the columns" grep -qE '^time +bench +params +mean +unit +spread +noisy +kernel +host +version' "$OUT"
check "history text: a bpf-noop line with its unit and kernel" \
	grep -qE "^20[0-9-]+T[0-9:]+Z +bpf-noop +producers=1 +[0-9.e+-]+ +ns/op .* $(uname -r) " "$OUT"
expect_rc 0 "history, json" history --db "$DB" --format json
cp "$OUT" "$TMP/h.json"
schema_check "$TMP/h.json" "$ROOT/docs/history.schema.json"
jq_check "history json: every run, with samples" "$TMP/h.json" \
	"(.runs | length) == $want and all(.runs[]; (.samples | length) == 2 and .unit == \"ns/op\" and (.mean | type) == \"number\" and .kernel == \"$(uname -r)\")"
expect_rc 0 "history, csv" history --db "$DB" --format csv
check "history csv: a header and one row per run" [ "$(wc -l <"$OUT")" -eq $((want + 1)) ]
check "history csv: its header" grep -q '^id,time,bench,params,figure,unit,higher_is_better,mean,median,stddev,cv,samples,noisy,kernel,' "$OUT"
if full; then
	expect_rc 0 "history BENCH" history --db "$DB" bpf-noop --format csv
	check "history BENCH: its runs only" [ "$(grep -c ',bpf-noop,' "$OUT")" -eq 2 ] && [ "$(wc -l <"$OUT")" -eq 3 ]
	expect_rc 0 "history --param" history --db "$DB" map-lookup --param key_size=4 --param producers=1 --format csv
	check "history --param: the runs with that value" [ "$(wc -l <"$OUT")" -eq 3 ]
	expect_rc 0 "history --param no match" history --db "$DB" --param key_size=5
	check "history --param no match: says so" grep -q '^No runs match' "$OUT"
	expect_rc 0 "history --since the future" history --db "$DB" --since 2999-01-01 --format csv
	check "history --since: none" [ "$(wc -l <"$OUT")" -eq 0 ]
	expect_rc 0 "history --since a past date" history --db "$DB" --since 2000-01-01T00:00 --kernel "$(uname -r)" --format csv
	check "history --since --kernel: all" [ "$(wc -l <"$OUT")" -eq $((want + 1)) ]
fi

# ---- a writer killed mid-sweep ----
KDB=$TMP/k.db
# Started from a subshell, so that this shell has no job to report "Killed" about.
("$MB" sweep "${SHORT[@]}" bpf-loop --param nr_loops=1..100000*10 --db "$KDB" >/dev/null 2>&1 &
 echo $! >"$TMP/killed.pid")
pk=$(<"$TMP/killed.pid")
has_row() { [ "$(rows "$KDB")" -ge 1 ] 2>/dev/null; }
gone() { ! alive "$pk"; }
wait_for "the killed sweep's history holds a result" "$pk" has_row
kill -9 "$pk"
wait_for "the killed sweep is gone" - gone
check "killed writer: PRAGMA integrity_check says ok" [ "$(sql "$KDB" 'PRAGMA integrity_check')" = ok ]
check "killed writer: its finished results are there" [ "$(rows "$KDB")" -ge 1 ]
check "killed writer: no result half-written" [ "$(whole "$KDB")" = 0 ]
expect_rc 0 "killed writer: the history opens again" history --db "$KDB" bpf-loop --format csv
check "killed writer: history lists its runs" [ "$(wc -l <"$OUT")" -eq $(($(rows "$KDB") + 1)) ]

# ---- bad input: one line, exit 2, nothing made ----
expect_usage "--db $TMP/no/such/dir/x.db" "${SHORT[@]}" bpf-noop --db "$TMP/no/such/dir/x.db"
printf 'not a database, just text long enough to hold a header..........................\n%.0s' 1 2 >"$TMP/text.db"
cp "$TMP/text.db" "$TMP/text.orig"
expect_usage "--db $TMP/text.db" "${SHORT[@]}" bpf-noop --db "$TMP/text.db"
check "a file that is no database is left as it was" cmp -s "$TMP/text.db" "$TMP/text.orig"
check "... and nothing beside it" [ ! -e "$TMP/text.db-wal" ] && [ ! -e "$TMP/text.db-shm" ]
expect_usage "--since 2026-02-30" history --db "$DB" --since 2026-02-30
full && expect_usage "--param key_size" history --db "$DB" --param key_size
expect_usage "no such file" history --db "$TMP/missing.db"
check "history never makes a file" [ ! -e "$TMP/missing.db" ]
echo '{"not": "mapbench"}' >"$TMP/bad.json"
expect_usage "bad.json" import --db "$TMP/new.db" "$TMP/a.json" "$TMP/bad.json"
check "a bad document: no history made" [ ! -e "$TMP/new.db" ]
MAPBENCH_DB= expect_usage "--db FILE|URL (or MAPBENCH_DB)" import "$TMP/a.json"
expect_usage "--param bogus" sweep "${SHORT[@]}" bpf-noop --param bogus=1 --db "$TMP/s.db"
check "a refused sweep makes no history" [ ! -e "$TMP/s.db" ]

# ---- PostgreSQL: the same history on a real server ----
if pg_start; then
	pg_createdb h1
	URL=$(pg_url h1)
	expect_rc 0 "postgres: a run with --db URL" "${SHORT[@]}" bpf-noop map-lookup --db "$URL" -o "$TMP/p.json"
	expect_rc 0 "postgres: import of the same results" import --db "$URL" "$TMP/p.json"
	check "postgres: import skips what the run added" grep -q '^import: 0 results added, 2 skipped' "$OUT"
	expect_rc 0 "postgres: import of other documents" import --db "$URL" "$TMP/a.json" "$TMP/b.json"
	check "postgres: added" grep -q "^import: $want results added" "$OUT"
	expect_rc 0 "postgres: history json" history --db "$URL" --format json
	cp "$OUT" "$TMP/pg.json"
	schema_check "$TMP/pg.json" "$ROOT/docs/history.schema.json"
	jq_check "postgres: history holds every run with its samples" "$TMP/pg.json" \
		"(.runs | length) == $((want + 2)) and all(.runs[]; (.samples | length) == 2)"
	full && expect_rc 0 "postgres: history BENCH --param, csv" history --db "$URL" map-lookup --param key_size=4 --format csv
	full && check "postgres: the filter" [ "$(wc -l <"$OUT")" -eq 4 ]
	full && expect_rc 0 "postgres: history text" history --db "$URL" --since 2000-01-01
	full && check "postgres: text lines" [ "$(wc -l <"$OUT")" -eq $((want + 3)) ]
	check "postgres: samples all there" [ "$(pg_sql "${URL##*dbname=}" 'SELECT count(*) FROM samples')" -eq $((2 * (want + 2))) ]
	# Two writers at once on a new database: the migration once, every result kept.
	pg_createdb h2
	URL2=$(pg_url h2)
	"$MB" import -q --db "$URL2" "$TMP/a.json" 2>"$TMP/i1.err" &
	pa=$!
	"$MB" import -q --db "$URL2" "$TMP/a.json" "$TMP/b.json" 2>"$TMP/i2.err" &
	pb=$!
	wait $pa
	ra=$?
	wait $pb
	rb=$?
	check "postgres: two importers at once both exit 0 ($ra, $rb: $(cat "$TMP/i1.err" "$TMP/i2.err"))" \
		[ "$ra" -eq 0 ] && [ "$rb" -eq 0 ]
	check "postgres: two importers: each result once" \
		[ "$(pg_sql "${URL2##*dbname=}" 'SELECT count(*) FROM runs')" -eq "$want" ]
	check "postgres: two importers: one migration" \
		[ "$(pg_sql "${URL2##*dbname=}" 'SELECT count(*) FROM schema_migrations')" -eq 1 ]
	expect_usage "cannot connect to PostgreSQL" "${SHORT[@]}" bpf-noop --db "host=$PG_DIR port=$PG_PORT user=postgres dbname=nosuchdb"
else
	echo "  SKIP [$NAME] PostgreSQL: $PG_SKIP"
fi

finish
