#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The scheduler's cost (docs/speed.md "The scheduler"): tbench with one client pair per
# two CPUs on skx's tables at 8, 32, 128 and 512 CPUs (--topology), with --placement
# pinned and sched, one run each of DURATION simulated seconds on one thread. Prints the
# wall time and the cost per request (wall / requests served): flat from 8 to 512 CPUs,
# and sched / pinned, which issue 31 wants at most 2 (half as fast).
#   bench/sched-speed.sh      (IDLESIM=path/to/idlesim to skip the build; DURATION=0.2)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/setup.sh
. "$here/../scripts/setup.sh"
idlesim_bench_binary sched-speed.sh
bin=$IDLESIM
dur=${DURATION:-0.2}
printf '%-7s %-5s %-8s %9s %10s %12s\n' CPUs topo placement wall_s requests ns_per_req
for topo in 1x4x2 1x16x2 2x32x2 8x32x2; do
	IFS=x read -r p c t <<<"$topo"
	n=$((p * c * t))
	for pl in pinned sched; do
		start=$(date +%s%N)
		json=$("$bin" compare --workload tbench --clients $((n / 2)) --placement $pl -m skx \
			--topology "$topo" -g menu -n 1 --duration-s "$dur" -j 1 -f json \
			--metric throughput)
		end=$(date +%s%N)
		# throughput is MB/s of 4096-byte requests
		req=$(jq -r '.cells[0].governors[0].samples[0]' <<<"$json" |
			awk -v d="$dur" '{ printf "%d", $1 * 1e6 * d / 4096 }')
		printf '%-7s %-5s %-8s %9.3f %10d %12d\n' "$n" "$topo" "$pl" \
			"$(awk -v a="$start" -v b="$end" 'BEGIN { print (b - a) / 1e9 }')" "$req" \
			"$(awk -v a="$start" -v b="$end" -v r="$req" 'BEGIN { printf "%d", (b - a) / r }')"
	done
done
