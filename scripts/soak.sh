#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Soak test: run every bench again and again for SECONDS (default 1800) and check that
# nothing grows: the mapbench process's RSS across rounds within one process, and the BPF
# programs, maps and mapbench cgroups left on the system after each process.
#
#   scripts/soak.sh [SECONDS]        MAPBENCH=path/to/mapbench (default build/mapbench)
set -u
cd "$(dirname "$0")/.." || exit 1
MB=${MAPBENCH:-build/mapbench}
SECONDS_WANTED=${1:-1800}
ROUNDS_PER_PROCESS=${SOAK_ROUNDS:-5}
QUICK=(-w0 -d1 --interval_ms 100)

# Benches whose defaults are slow for a soak get smaller settings here.
bench_args() {
	case "$1" in
	map-mem) echo --max_entries 1000 --settle_ms 50 --release_timeout_ms 2000 ;;
	*) ;;
	esac
}

. scripts/bpf-objects.sh

mapfile -t benches < <("$MB" --list | sed -n 's/^- \([^ ]*\).*/\1/p')
[ ${#benches[@]} -gt 0 ] || { echo "soak: no bench listed by $MB" >&2; exit 1; }
# Benches that need their own options run in processes of their own: an option after a group
# of bench names applies to the whole group. Each process runs its benches ROUNDS_PER_PROCESS
# times; its peak RSS is read meanwhile (VmHWM, the kernel's high-water mark: sampling VmRSS
# every 0.5 s misses short peaks, such as libbpf parsing the kernel's BTF).
declare -a kinds=("plain")
declare -A kind_args kind_args1 first_peak
plain=()
for b in "${benches[@]}"; do
	extra=$(bench_args "$b")
	if [ -z "$extra" ]; then
		plain+=("$b")
		continue
	fi
	kinds+=("$b")
	kind_args1[$b]="$b $extra"
	for ((r = 0; r < ROUNDS_PER_PROCESS; r++)); do
		kind_args[$b]+="$b $extra "
	done
done
kind_args1[plain]="${plain[*]}"
for ((r = 0; r < ROUNDS_PER_PROCESS; r++)); do
	kind_args[plain]+="${plain[*]} "
done

# Peak RSS of a process that runs $1's benches once: the reference a process that runs them
# ROUNDS_PER_PROCESS times is held to (a leak per round shows as a higher peak).
peak_of_one_round() {
	local pid peak=0 rss
	# shellcheck disable=SC2086
	"$MB" -q "${QUICK[@]}" ${kind_args1[$1]} --format json -o /tmp/soak.$$.json >/dev/null 2>&1 &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		rss=$(awk '/^VmHWM:/ { print $2 }' /proc/$pid/status 2>/dev/null)
		[ -n "$rss" ] && [ "$rss" -gt "$peak" ] && peak=$rss
		sleep 0.2
	done
	wait $pid
	echo "$peak"
}

for kind in "${kinds[@]}"; do
	first_peak[$kind]=$(peak_of_one_round "$kind")
	echo "soak: one round of '$kind': peak RSS ${first_peak[$kind]} kB"
done
base_objects=$(leftover_bpf)
base_cgroups=$(mapbench_cgroups)
start=$(date +%s)
proc=0
fail=0
echo "soak: ${#benches[@]} benches x $ROUNDS_PER_PROCESS per process (${#kinds[@]} kinds of process), for $SECONDS_WANTED s"
while [ $(( $(date +%s) - start )) -lt "$SECONDS_WANTED" ] && [ "$fail" -eq 0 ]; do
	for kind in "${kinds[@]}"; do
		proc=$((proc + 1))
		# shellcheck disable=SC2086
		"$MB" -q "${QUICK[@]}" ${kind_args[$kind]} --format json -o /tmp/soak.$$.json \
			>/dev/null 2>/tmp/soak.$$.err &
		pid=$!
		peak=0
		while kill -0 $pid 2>/dev/null; do
			rss=$(awk '/^VmHWM:/ { print $2 }' /proc/$pid/status 2>/dev/null)
			[ -n "$rss" ] && [ "$rss" -gt "$peak" ] && peak=$rss
			sleep 0.5
		done
		wait $pid
		rc=$?
		objects=$(leftover_bpf)
		cg=$(mapbench_cgroups)
		printf 'soak: process %d (%s): exit %d, peak RSS %d kB, BPF objects %d (start %d), cgroups %d (start %d)\n' \
			"$proc" "$kind" "$rc" "$peak" "$objects" "$base_objects" "$cg" "$base_cgroups"
		if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
			echo "soak: mapbench failed:"; tail -n 5 /tmp/soak.$$.err; fail=1
		fi
		if [ "$objects" -gt "$base_objects" ] || [ "$cg" -gt "$base_cgroups" ]; then
			echo "soak: BPF objects or cgroups left behind"; fail=1
		fi
		# More rounds in one process, and process after process: memory must not grow.
		if [ "$peak" -gt $(( first_peak[$kind] + first_peak[$kind] / 5 + 4096 )) ]; then
			echo "soak: peak RSS of '$kind' processes grew from ${first_peak[$kind]} kB to $peak kB"
			fail=1
		fi
		[ "$fail" -eq 0 ] || break
	done
done
rm -f /tmp/soak.$$.json /tmp/soak.$$.err
[ "$fail" -eq 0 ] && echo "soak: PASS after $proc processes, $(( $(date +%s) - start )) s"
exit $fail
