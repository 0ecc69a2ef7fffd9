#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Write fuzz_cli's libFuzzer dictionary from mapbench's own --list and --help: every bench
# name, every option name and every named value an option takes, plus the number syntax.
# Without it the fuzzer rarely guesses "--map_type" or "lru_percpu_hash", and the options of
# the bench families stay unexplored.
#
# Usage: scripts/fuzz-dict.sh [MAPBENCH] > tests/fuzz/cli.dict
# (tests/e2e/test_cli.sh fails when an option is missing from the committed dictionary.)
set -eu
export LC_ALL=C

bin=${1:-build/mapbench}
help=$("$bin" --help)

{
	"$bin" --list | sed -n 's/^- \([a-z0-9-]*\) .*/\1/p'
	printf '%s\n' "$help" | grep -oE -- '--[a-zA-Z0-9_-]+'
	printf '%s\n' "$help" | grep -oE -- '(^| )-[a-z],' | tr -d ' ,'
	# Named values: snake_case words (map types, flags, use cases, tests) and "one of" lists.
	printf '%s\n' "$help" | grep -oE '[a-z][a-z0-9]*(_[a-z0-9]+)+'
	printf '%s\n' "$help" | grep -oE 'one of [a-z0-9_, ]+' | sed 's/^one of //' |
		tr ',' '\n' | tr -d ' '
	printf '%s\n' sweep compare plot zipf: uniform seq loss0 loss1 parallel 0x k M G .. , = 1k 10k 1M 0-1
} | sort -u | sed 's/\\/\\\\/g; s/"/\\"/g; s/.*/"&"/'
