#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Write the libFuzzer dictionaries, so that the fuzzers reach past the first words they would
# otherwise have to guess byte by byte:
#   cli [MAPBENCH]  fuzz_cli: from mapbench's own --list and --help, every bench name, option
#                   name and named value (map types, flags, use cases, ...), and number syntax;
#   doc             fuzz_doc: every key and enumerated value of docs/*.schema.json.
#
# Usage: scripts/fuzz-dict.sh cli build-san/mapbench > build-san/fuzz/cli.dict
#        scripts/fuzz-dict.sh doc > tests/fuzz/doc.dict
# The cli dictionary follows the families, so the fuzz build makes it from the binary it built
# (make fuzz-run) and it is never committed; the doc dictionary follows the schemas only and is
# committed: tests/e2e/test_cli.sh fails when it differs from what this writes.
set -eu
export LC_ALL=C

quote() { sort -u | sed 's/\\/\\\\/g; s/"/\\"/g; s/.*/"&"/'; }

cli_words() {
	bin=$1
	help=$("$bin" --help)
	"$bin" --list | sed -n 's/^- \([a-z0-9-]*\) .*/\1/p'
	printf '%s\n' "$help" | grep -oE -- '--[a-zA-Z0-9_-]+'
	printf '%s\n' "$help" | grep -oE -- '(^| )-[a-z],' | tr -d ' ,'
	# Named values: snake_case words (map types, flags, use cases, tests) and "one of" lists.
	printf '%s\n' "$help" | grep -oE '[a-z][a-z0-9]*(_[a-z0-9]+)+'
	printf '%s\n' "$help" | grep -oE 'one of [a-z0-9_, ]+' | sed 's/^one of //' |
		tr ',' '\n' | tr -d ' '
	printf '%s\n' sweep compare plot zipf: uniform seq loss0 loss1 parallel \
		0x k M G .. , = 1k 10k 1M 0-1
}

doc_words() {
	schemas="$(dirname "$0")/../docs/output.schema.json $(dirname "$0")/../docs/comparison.schema.json"
	# Keys, as they appear in a document: "name":
	cat $schemas | grep -oE '"[a-zA-Z0-9_]+" *:' | sed 's/ *:$//; s/^"//; s/"$//' |
		sed 's/.*/"&":/'
	# Enumerated string values.
	cat $schemas | grep -oE '"enum": *\[[^]]*\]' | grep -oE '"[^"]+"' | grep -v '^"enum"$'
	printf '%s\n' '{' '}' '[' ']' null true false 1e308 -0 '"\u0000"'
}

case "${1:-}" in
cli)	cli_words "${2:-build/mapbench}" | quote ;;
doc)	doc_words | quote ;;
*)	echo "usage: $0 cli [MAPBENCH] | doc" >&2; exit 2 ;;
esac
