# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Sourced by the tests and the soak script: BPF objects and cgroups mapbench may leave behind.

# IDs of BPF programs and maps some process holds an fd of (what bpftool's pid view shows,
# without needing its iterator program).
held_bpf_ids() {
	local pid=${1:-[0-9]*}
	grep -hsE '^(prog_id|map_id):' /proc/$pid/fdinfo/* 2>/dev/null | awk '{ print $1 $2 }' | sort -u
}

# BPF programs and maps named mb_* that no process holds and no held program uses, one
# "prog:ID" or "map:ID" per line.
leftover_ids() {
	local held used
	held=$(held_bpf_ids | jq -R . | jq -s .)
	used=$(bpftool -j prog show 2>/dev/null | jq '[.[] | .map_ids // [] | .[]]')
	bpftool -j prog show 2>/dev/null | jq -r --argjson h "$held" \
		'.[] | select((.name // "") | startswith("mb_")) | select(("prog_id:" + (.id | tostring)) as $k | $h | index($k) | not) | "prog:\(.id)"'
	# Maps of held programs are alive through them.
	bpftool -j map show 2>/dev/null | jq -r --argjson h "$held" --argjson used "${used:-[]}" \
		'.[] | select((.name // "") | startswith("mb_")) | select(("map_id:" + (.id | tostring)) as $k | $h | index($k) | not) | select(.id as $i | $used | index($i) | not) | "map:\(.id)"'
}

# How many objects are left behind. Objects of processes that are starting or exiting while
# we look can seem unheld for an instant: only those unheld in two looks a second apart count.
leftover_bpf() {
	local first second
	first=$(leftover_ids | sort)
	[ -z "$first" ] && { echo 0; return; }
	sleep 1
	second=$(leftover_ids | sort)
	comm -12 <(echo "$first") <(echo "$second") | grep -c . || true
}

# Number of BPF programs process $1 holds.
bpf_held_by() {
	held_bpf_ids "$1" | grep -c '^prog_id:'
}

# mapbench memory cgroups on this system (v1 and v2 hierarchies). v1 ones nest in the
# process's own memory cgroup, which can be deep (memory/process_api/<id>/mapbench-*).
mapbench_cgroups() {
	find /sys/fs/cgroup -maxdepth 6 -name 'mapbench-*' -type d 2>/dev/null | wc -l
}
