# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Sourced by the tests and the soak script: BPF objects and cgroups mapbench may leave behind.

# IDs of BPF programs and maps some process holds an fd of (what bpftool's pid view shows,
# without needing its iterator program). Read through the threads: a process whose main
# thread has exited while another lives (one stuck in the kernel, say) still holds its fds,
# and only its threads' fdinfo shows them.
held_bpf_ids() {
	local pid=${1:-[0-9]*}
	grep -hsE '^(prog_id|map_id):' /proc/$pid/task/*/fdinfo/* 2>/dev/null |
		awk '{ print $1 $2 }' | sort -u
}

# BPF programs and maps whose name matches the regex $1 (default ^mb_) that no process
# holds and no held program uses, one "prog:ID" or "map:ID" per line.
leftover_ids() {
	local re=${1:-^mb_} held used
	held=$(held_bpf_ids | jq -R . | jq -s .)
	used=$(bpftool -j prog show 2>/dev/null | jq '[.[] | .map_ids // [] | .[]]')
	bpftool -j prog show 2>/dev/null | jq -r --arg re "$re" --argjson h "$held" \
		'.[] | select((.name // "") | test($re)) | select(("prog_id:" + (.id | tostring)) as $k | $h | index($k) | not) | "prog:\(.id)"'
	# Maps of held programs are alive through them.
	bpftool -j map show 2>/dev/null | jq -r --arg re "$re" --argjson h "$held" --argjson used "${used:-[]}" \
		'.[] | select((.name // "") | test($re)) | select(("map_id:" + (.id | tostring)) as $k | $h | index($k) | not) | select(.id as $i | $used | index($i) | not) | "map:\(.id)"'
}

# How many objects (name matching $1, default ^mb_) are left behind. A closed object can
# outlive its process for a while: a link is released by a kernel worker after RCU grace
# periods (seconds under load), and objects of processes starting or exiting look unheld for
# an instant. Only objects unheld in every look for 10 s count.
leftover_bpf() {
	local re=${1:-^mb_} left now
	left=$(leftover_ids "$re" | sort)
	for _ in $(seq 20); do
		[ -z "$left" ] && break
		sleep 0.5
		now=$(leftover_ids "$re" | sort)
		left=$(comm -12 <(echo "$left") <(echo "$now"))
	done
	echo "$left" | grep -c . || true
}

# Number of BPF programs process $1 holds.
bpf_held_by() {
	held_bpf_ids "$1" | grep -c '^prog_id:'
}

# mapbench memory cgroups (mapbench-<pid>-<n>, v1 and v2 hierarchies) whose process is gone:
# left behind. Those of running processes (other tests, other users) do not count.
mapbench_cgroups() {
	local n=0 d pid
	for d in $(find /sys/fs/cgroup -maxdepth 6 -name 'mapbench-*' -type d 2>/dev/null); do
		pid=${d##*/mapbench-}
		pid=${pid%%-*}
		[ -d "/proc/$pid" ] || n=$((n + 1))
	done
	echo "$n"
}
