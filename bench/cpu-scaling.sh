#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The cost of an idle entry as the machine grows (issue 34, docs/speed.md "Scale with CPUs"):
# the same number of idle entries (an irq-poisson workload, bench/bench_engine.c, records
# replayed from memory) on gnr's tables at 8, 64, 512 and 4096 CPUs, per governor, best of
# RUNS replays in one process, the sizes alternating ROUNDS times (the VM's speed drifts);
# prints ns per entry (CPU time of the replay: the machine is shared; wall time with
# CLOCK=wall), the ratio to 8 CPUs and peak RSS.
#   bench/cpu-scaling.sh     (BUILD=path/to/build to skip the build; ENTRIES, RUNS, ROUNDS,
#                             GOVERNORS to change the defaults)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/setup.sh
. "$here/../scripts/setup.sh"
idlesim_bench_build
entries=${ENTRIES:-4000000}
runs=${RUNS:-3}
rounds=${ROUNDS:-3}
govs=${GOVERNORS:-teo@6.19 menu@6.19 oracle}
# CPUs and the topology they are laid out on (gnr: 2x128x2 is the real machine)
sizes="8:1x4x2 64:2x16x2 512:2x128x2 4096:8x256x2"
echo "# $(date -u +%Y-%m-%dT%H:%MZ) load $(cut -d' ' -f1-3 /proc/loadavg), $entries entries, best of $runs x $rounds rounds, one core, ${CLOCK:-cpu} time"
printf '%-10s %6s %-9s %10s %12s %8s %10s\n' governor CPUs topology entries ns_per_entry vs_8 peak_MB
for gov in $govs; do
	declare -A best=() ent=() rss=()
	for _ in $(seq "$rounds"); do
		for s in $sizes; do
			n=${s%%:*}
			line=$(taskset -c 0 "$BUILD/bench_engine" --entries "$entries" --governor "$gov" \
				--machine gnr --topology "${s#*:}" --cpus "$n" --runs "$runs")
			e=$(sed -n 's/.* entries=\([0-9]*\).*/\1/p' <<<"$line")
			sec=$(sed -n 's/.* seconds=\([0-9.]*\).*/\1/p' <<<"$line")
			# builds before cpu_seconds= print only the wall time
			if [ "${CLOCK:-cpu}" = cpu ] && grep -q ' cpu_seconds=' <<<"$line"; then
				sec=$(sed -n 's/.* cpu_seconds=\([0-9.]*\).*/\1/p' <<<"$line")
			fi
			ns=$(awk -v s="$sec" -v e="$e" 'BEGIN { printf "%.1f", s * 1e9 / e }')
			if [ -z "${best[$n]:-}" ] || awk -v a="$ns" -v b="${best[$n]}" 'BEGIN { exit !(a < b) }'; then
				best[$n]=$ns
			fi
			ent[$n]=$e
			rss[$n]=$(sed -n 's/.* peak_rss_kb=\([0-9]*\).*/\1/p' <<<"$line")
		done
	done
	for s in $sizes; do
		n=${s%%:*}
		printf '%-10s %6d %-9s %10d %12s %8.2f %10.1f\n' "$gov" "$n" "${s#*:}" "${ent[$n]}" "${best[$n]}" \
			"$(awk -v a="${best[$n]}" -v b="${best[8]}" 'BEGIN { print a / b }')" \
			"$(awk -v k="${rss[$n]}" 'BEGIN { print k / 1024 }')"
	done
	unset best ent rss
done
