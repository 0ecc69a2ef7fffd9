# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# A real PostgreSQL server for a test, in a temporary directory: initdb, started by pg_ctl on a
# unix socket only (no TCP port to find or to collide on), ready when pg_isready says so,
# stopped and removed when the test exits. Source it after lib.sh:
#
#   . "$ROOT/tests/e2e/lib_pg.sh"
#   if pg_start; then pg_createdb h; ... --db "$(pg_url h)" ...
#   else echo "  SKIP [$NAME] $PG_SKIP"; fi
#
# The server refuses to run as root, and the tests run as root: it then runs as the
# `postgres` user (Debian's postgresql package makes it), which owns its directory.

PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)}
PG_DIR=
PG_PORT=5432
PG_SKIP=

# Why no server can be started here (in PG_SKIP), or nothing.
pg_check() {
	local tool
	for tool in initdb pg_ctl pg_isready createdb; do
		if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/$tool" ]; then
			PG_SKIP="no PostgreSQL server binaries ($tool; scripts/install-deps.sh installs Debian's postgresql)"
			return 1
		fi
	done
	if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
		PG_SKIP="running as root and no 'postgres' user to run the server as"
		return 1
	fi
	return 0
}

# pg_as CMD...: runs CMD as the server's owner (postgres when we are root, else ourselves).
pg_as() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

pg_ready() {
	"$PG_BIN/pg_isready" -q -h "$PG_DIR" -p "$PG_PORT"
}

# pg_start: a fresh server; returns 1 with PG_SKIP set when there can be none here.
pg_start() {
	pg_check || return 1
	PG_DIR=$(mktemp -d /tmp/mb-pg.XXXXXX) || return 1
	[ "$(id -u)" = 0 ] && chown postgres: "$PG_DIR"
	trap 'pg_stop; busy_stop; rm -rf "$TMP"' EXIT
	if ! pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U postgres --no-sync \
		>"$PG_DIR/initdb.log" 2>&1; then
		fail "initdb: $(tail -n 3 "$PG_DIR/initdb.log")"
		return 1
	fi
	# No wait here (-W): readiness is pg_isready's to say.
	if ! pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -W \
		-o "-c listen_addresses='' -c unix_socket_directories='$PG_DIR' -p $PG_PORT -c fsync=off" \
		start >/dev/null 2>&1; then
		fail "pg_ctl start: $(tail -n 3 "$PG_DIR/server.log" 2>/dev/null)"
		return 1
	fi
	wait_for "the PostgreSQL server accepts connections" - pg_ready
}

# pg_createdb DBNAME: a new database (in this shell, so that a failure counts).
pg_createdb() {
	pg_as "$PG_BIN/createdb" -h "$PG_DIR" -p "$PG_PORT" -U postgres "$1" >/dev/null 2>&1 ||
		fail "createdb $1"
}

# pg_url DBNAME: the connection string of database DBNAME (libpq's key=value words).
pg_url() {
	echo "host=$PG_DIR port=$PG_PORT user=postgres dbname=$1"
}

# pg_sql DBNAME SQL: one query with psql, its rows unaligned.
pg_sql() {
	pg_as "$PG_BIN/psql" -X -q -A -t -h "$PG_DIR" -p "$PG_PORT" -U postgres -d "$1" -c "$2"
}

pg_stop() {
	[ -n "$PG_DIR" ] || return 0
	[ -d "$PG_DIR/data" ] && pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop \
		>/dev/null 2>&1
	rm -rf "$PG_DIR"
	PG_DIR=
}
