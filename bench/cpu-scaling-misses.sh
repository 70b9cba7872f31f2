#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The CPU-scaling curve of bench/cpu-scaling.sh counted instead of timed (issue 34, docs/speed.md
# "Scale with CPUs"): on this shared VM the CPU time of one replay swings by +-10 %, more
# than most single changes move it, while cachegrind's counts do not move at all. For 8,
# 64, 512 and 4096 CPUs (gnr's tables), per idle entry replayed: instructions, L1 data
# misses, and the misses of a simulated last level of 1 MiB (this machine's L2: the
# boundary 512 CPUs cross) and of 32 MiB (an L3: the one 4096 CPUs cross). Cachegrind counts
# the whole process, so each figure is the difference between --runs 2 and --runs 1 (the
# set-up, the workload generated into memory, is the same in both): one replay's worth.
# Misses are not time (no prefetching, no overlap), so a change is judged on both: these
# counts say what it does to the work, farm-bench's A/B says whether that shows.
#   bench/cpu-scaling-misses.sh   (BUILD=path/to/build to skip the build; ENTRIES (1000000),
#                                  GOVERNOR (teo@6.19), SIZES ("8:1x4x2 512:2x128x2 ..."))
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/setup.sh
. "$here/../scripts/setup.sh"
idlesim_bench_build
command -v valgrind >/dev/null || { echo "cpu-scaling-misses.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
entries=${ENTRIES:-1000000}
gov=${GOVERNOR:-teo@6.19}
sizes=${SIZES:-8:1x4x2 64:2x16x2 512:2x128x2 4096:8x256x2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# counts RUNS LL_BYTES CPUS TOPOLOGY: "entries Ir D1m LLm" of one cachegrind run
counts() {
	local out=$tmp/cg line e
	line=$(valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=49152,12,64 \
		--LL="$2,16,64" --cachegrind-out-file="$out" "$BUILD/bench_engine" --entries "$entries" \
		--governor "$gov" --machine gnr --topology "$4" --cpus "$3" --runs "$1" 2>/dev/null)
	e=$(sed -n 's/.* entries=\([0-9]*\).*/\1/p' <<<"$line")
	# the totals line of the output file: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
	awk -v e="$e" '/^summary:/ { print e, $2, $6 + $9, $7 + $10 }' "$out"
}

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $gov, $entries entries, cachegrind (valgrind $(valgrind --version | sed 's/valgrind-//')), one replay = --runs 2 minus --runs 1"
printf '%-6s %-9s %9s %12s %10s %14s %15s\n' CPUs topology entries instr/entry L1d_miss/e L2_1MiB_miss/e L3_32MiB_miss/e
for s in $sizes; do
	n=${s%%:*} t=${s#*:}
	read -r e1 i1 d1 l1 < <(counts 1 1048576 "$n" "$t")
	read -r e2 i2 d2 l2 < <(counts 2 1048576 "$n" "$t")
	read -r _ _ _ m1 < <(counts 1 33554432 "$n" "$t")
	read -r _ _ _ m2 < <(counts 2 33554432 "$n" "$t")
	[ "$e1" = "$e2" ] || { echo "cpu-scaling-misses.sh: the replays differ ($e1, $e2 entries)" >&2; exit 1; }
	e=$e1 # bench_engine prints the entries of one replay
	awk -v n="$n" -v t="$t" -v e="$e" -v i="$((i2 - i1))" -v d="$((d2 - d1))" -v l="$((l2 - l1))" \
		-v m="$((m2 - m1))" 'BEGIN { printf "%-6s %-9s %9d %12.1f %10.2f %14.2f %15.2f\n", n, t, e, i / e, d / e, l / e, m / e }'
done
