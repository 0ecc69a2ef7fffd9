#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# What the kernel refuses becomes one clear message: memory, sizes, missing features.
. "$(dirname "$0")/lib.sh"

# A map too large for the memory of any machine (131 TB): the kernel's ENOMEM, and what to change.
expect_rc 1 "array of 2G x 64 KiB values" "${FAST[@]}" map-lookup --map_type array \
	--max_entries 2000000000 --value_size 65536 --nr_entries 10
check "ENOMEM says what to change" grep -qx "mapbench: map-lookup: cannot create the array map (2000000000 entries of 4 + 65536 bytes): not enough memory for the map (ENOMEM): lower --max_entries or --value_size, or raise the memory cgroup limit" "$ERR"

# A size the kernel rejects at creation: E2BIG, named.
expect_rc 1 "hash of 4G entries" "${FAST[@]}" map-lookup --map_type hash --max_entries 4000000000 \
	--nr_entries 10
check "E2BIG names the limit hit" grep -qx "mapbench: map-lookup: cannot create the hash map (4000000000 entries of 4 + 8 bytes): the kernel refused the size (E2BIG): key, value or entry count above its limit" "$ERR"

# Sizes probed before anything is made: the kernel's own range, a usage error.
expect_usage "--value_size 65536: percpu_hash maps take values of 1..32768 bytes on this kernel (E2BIG)" \
	"${FAST[@]}" map-lookup --map_type percpu_hash --value_size 65536
expect_usage "--key_size 600: must be 4..512" "${FAST[@]}" map-lookup --key_size 600

# A kernel feature some machines lack (trampolines, which some hypervisors and kernels block):
# used where the kernel allows it, else skipped with the reason, exit 77.
run "${FAST[@]}" lpm-trie-free --free_method fentry --nr_entries 100 --format json
if [ "$rc" -eq 0 ]; then
	jq_check "fentry allowed here: the free is timed by fentry" "$OUT" \
		'.results[0].status == "ok" and .results[0].extra.free.method == "fentry"'
else
	check "fentry where trampolines are blocked: exit 77 (got $rc)" [ "$rc" -eq 77 ]
	check "the skip names what is missing" grep -q "skipped: .*trampolines" "$ERR"
fi
check "no libbpf noise" bash -c "! grep -q '^libbpf:' $ERR"

# Nothing of a failed run is left behind.
check "no BPF object left behind" [ "$(leftover_bpf)" -eq 0 ]

finish
