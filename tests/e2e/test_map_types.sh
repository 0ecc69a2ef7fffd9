#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# mapbench --map-types: every map type of the kernel's BTF listed, each type bpftool reports
# available created here and either covered by a bench or given a reason, the JSON document's
# shape, its benches real ones; bad input refused.
. "$(dirname "$0")/lib.sh"

DOC=$TMP/types.json

expect_rc 0 "--map-types (text)" --map-types
check "text: a row for hash, created, with map-lookup" grep -qE '^hash +1 yes .*map-lookup' "$OUT"
check "text: the counts line" grep -qE '^[0-9]+ map types \([0-9]+ on this kernel\)' "$OUT"

expect_rc 0 "--map-types --format json -o" --map-types --format json -o "$DOC"
schema_check "$DOC" "$ROOT/docs/map-types.schema.json"
jq_check "every type covered or given a reason" "$DOC" \
	'all(.map_types[]; .covered or .why_not_covered != null)'
jq_check "every type not created says why" "$DOC" \
	'all(.map_types[]; .created or (.why_not_created | length > 10))'
jq_check "covered means benches, and a reason only without them" "$DOC" \
	'all(.map_types[]; .covered == ((.benches | length) > 0) and (.covered == (.why_not_covered == null)))'
jq_check "a memory row only for types created here" "$DOC" \
	'all(.map_types[]; .created or (.memory | length == 0))'
jq_check "the kernel's types first, by value, each once" "$DOC" \
	'[.map_types[] | select(.on_kernel) | .value] as $v | $v == ($v | sort | unique)'
jq_check "types not on the kernel: no value, not created" "$DOC" \
	'all(.map_types[] | select(.on_kernel | not); .value == null and (.created | not))'
jq_check "insn_array and the resizable hash named" "$DOC" \
	'[.map_types[].name] | index("insn_array") != null and index("rhash") != null'
jq_check "counts add up" "$DOC" \
	'.counts.types == (.map_types | length) and .counts.created == ([.map_types[] | select(.created)] | length)'

# The kernel's BTF names as many types (less UNSPEC, __MAX and the _DEPRECATED aliases).
nbtf=$(bpftool btf dump file /sys/kernel/btf/vmlinux format raw |
	awk '/ENUM .bpf_map_type./ {on = 1; next} on && /^\[/ {exit} on {print}' |
	grep -oE "'BPF_MAP_TYPE_[A-Z0-9_]+'" | grep -vE 'UNSPEC|_DEPRECATED' | sort -u | wc -l)
jq_check "on_kernel: the BTF's $nbtf types" "$DOC" ".counts.on_kernel == $nbtf"

# Every type bpftool reports available: in our list, created here, covered or explained.
bpftool feature probe kernel 2>/dev/null | sed -nE 's/^eBPF map_type ([a-z0-9_]+) is available$/\1/p' \
	>"$TMP/bpftool"
check "bpftool names some available map types" test "$(wc -l <"$TMP/bpftool")" -gt 10
# One jq over the list: the names that fail, none expected.
bad=$(jq -r --rawfile want "$TMP/bpftool" '($want | split("\n") | map(select(length > 0))) as $w |
	[.map_types[] | select(.created and (.covered or .why_not_covered != null)) | .name] as $ok |
	$w - $ok | join(" ")' "$DOC")
check "every type bpftool reports available is listed, created, covered or explained (wrong: ${bad:-none})" \
	test -z "$bad"

# Benches named are benches of --list.
"$MB" --list | sed -nE 's/^- ([a-z0-9-]+) .*/\1/p' | sort >"$TMP/benches"
jq -r '.map_types[] | .benches[], .memory[]' "$DOC" | sort -u >"$TMP/named"
check "every bench named is one of --list" test -z "$(comm -23 "$TMP/named" "$TMP/benches")"

# map-mem: a row for every type created here (all: the types but local storage; storage: those).
MM=$TMP/mm.json
expect_rc 0 "map-mem all,storage, small" -q map-mem --map_type all,storage --max_entries 64 \
	--settle_ms 0 --release_timeout_ms 0 --format json -o "$MM"
jq -r '[.map_types[] | select(.created) | .name] | join(" ")' "$DOC" >"$TMP/created"
bad=$(jq -r --arg want "$(cat "$TMP/created")" '.results[0].extra.footprint as $f |
	[$want | split(" ")[] | select($f[.] == null or $f[.].skipped != null or
		($f[.].rows | length) == 0 or any($f[.].rows[]; .error != null))] | join(" ")' "$MM")
check "map-mem: a row without error for every type created here (wrong: ${bad:-none})" test -z "$bad"
jq_check "--map-types: map-mem is the memory row of every type created here" "$DOC" \
	'all(.map_types[] | select(.created); .memory == ["map-mem"])'

# Named types made from a recipe take its sizes; one the kernel lacks ends the run (77).
expect_usage "--key_size 8: queue maps are made from their recipe" map-mem --map_type queue --key_size 8
if [ "$(jq '.map_types[] | select(.name == "insn_array") | .on_kernel' "$DOC")" = false ]; then
	expect_rc 77 "map-mem --map_type insn_array: not on this kernel" map-mem --map_type insn_array
	check "  said in one line" grep -q "insn_array: not on this kernel" "$ERR"
fi

expect_usage "--format csv: must be text or json" --map-types --format csv
expect_usage "takes no bench names" --map-types map-lookup
expect_usage "--map-types: -o/--output $TMP/b.json: -o given again" --map-types -o "$TMP/a.json" -o "$TMP/b.json"
finish
