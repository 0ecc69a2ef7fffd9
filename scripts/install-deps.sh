#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Install the Debian packages mapbench needs to build, run and test.
# Idempotent: installs only what is missing. Without root or apt it prints
# the command to run and exits non-zero.
set -eu

# libsqlite3-dev and libpq-dev: the results history (docs/history.md); sqlite3 and postgresql:
# its tests (a server each test starts and stops itself); chromium: the history report's test
# opens the page headless.
PACKAGES="make gcc clang llvm pkg-config libbpf-dev bpftool libelf-dev zlib1g-dev \
libzstd-dev libsqlite3-dev libpq-dev libclang-rt-dev libcmocka-dev jq python3 \
python3-jsonschema gnuplot-nox procps valgrind sqlite3 postgresql chromium"

missing=""
for pkg in $PACKAGES; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	case "$status" in
	*"install ok installed"*) ;;
	*) missing="$missing $pkg" ;;
	esac
done

# mapbench plot writes SVG and PNG: check gnuplot has both terminals (png: pngcairo or gd).
check_gnuplot() {
	if ! gnuplot -e 'set terminal svg; set terminal png' >/dev/null 2>&1; then
		echo "install-deps: gnuplot cannot write SVG and PNG (gnuplot-nox should): mapbench plot will fail" >&2
		return 1
	fi
}

if [ -z "$missing" ]; then
	[ "${1:-}" = "-q" ] || echo "install-deps: all packages present"
	check_gnuplot
	exit
fi

cmd="apt-get install -y --no-install-recommends$missing"
if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: apt-get not found; install these packages by hand:$missing" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing" >&2
	echo "install-deps: run as root: sudo $cmd" >&2
	exit 1
fi

echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# A stale package index makes installs fail with 404s: refresh once, then retry.
if ! apt-get install -y --no-install-recommends $missing; then
	apt-get update
	apt-get install -y --no-install-recommends $missing
fi
check_gnuplot
