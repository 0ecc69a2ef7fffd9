#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Builds eval.c against src/util/json.c, json-c and jansson (static, as STATIC=1 would link them),
# runs each and prints the static binaries' sizes. Needs: apt-get install libjson-c-dev
# libjansson-dev. Usage: scripts/json-eval/run.sh [MiB of the big document, default 50; 0 skips]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/json-eval}
mkdir -p "$OUT"
declare -A LIBS=([mbjson]=src/util/json.c [jsonc]=-ljson-c [jansson]=-ljansson)
for b in mbjson jsonc jansson; do
	gcc -O2 -static -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -Isrc/util \
		scripts/json-eval/eval.c "scripts/json-eval/be_$b.c" ${LIBS[$b]} -lm -o "$OUT/je-$b"
done
echo "load: $(uptime)"
for b in mbjson jsonc jansson; do
	"$OUT/je-$b" "${1:-50}"
done
echo "load: $(uptime)"
size "$OUT"/je-*
