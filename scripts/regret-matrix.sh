#!/bin/sh
# regret-matrix.sh - count runs with negative energy regret over the docs/regret.md matrix:
# the 6 built-in machines x every registered governor x 7 traces x --wake-latency
# worst|typical. Prints one line per wake-latency model:
#   MODEL runs=N neg_total=N neg_core=N worst_core=J (trace machine governor)
# "core" is the regret minus its package share. Extra arguments go to every `idlesim run`
# (for instance --topology 2,12,1).
# Usage: scripts/regret-matrix.sh IDLESIM [run options...]
set -eu
bin=$1
shift
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$bin" gen --workload periodic --period-us 700 --busy-us 30 --cpus 8 --duration-s 0.3 --seed 5 -o "$tmp/p700.trace"
"$bin" gen --workload periodic --period-us 1000 --busy-us 20 --cpus 4 --duration-s 0.3 -o "$tmp/p1000.trace"
"$bin" gen --workload irq-poisson --mean-us 100 --busy-us 20 --cpus 8 --duration-s 0.3 -o "$tmp/poi100.trace"
"$bin" gen --workload irq-poisson --mean-us 500 --busy-us 20 --cpus 8 --duration-s 0.3 -o "$tmp/poi500.trace"
"$bin" gen --workload mixed --busy-us 10 --cpus 8 --duration-s 0.3 --seed 4 -o "$tmp/mixed.trace"
"$bin" gen --workload irq-fixed --interval-us 300 --busy-us 5 --cpus 8 --duration-s 0.3 -o "$tmp/fixed300.trace"
traces="$here/traces/demo.trace $tmp/p700.trace $tmp/p1000.trace $tmp/poi100.trace $tmp/poi500.trace $tmp/mixed.trace $tmp/fixed300.trace"
for w in worst typical; do
	for m in hsw bdw skl hsx bdx skx; do
		topo=
		if [ -n "${REGRET_MATRIX_NO_SMT:-}" ]; then
			case $m in
			hsw | bdw | skl) topo="--topology 1x8x1" ;;
			hsx) topo="--topology 2x24x1" ;;
			bdx) topo="--topology 2x40x1" ;;
			skx) topo="--topology 2x36x1" ;;
			esac
		fi
		for t in $traces; do
			# shellcheck disable=SC2086
			"$bin" run --machine "$m" --trace "$t" --wake-latency "$w" --format json $topo "$@" \
				-o "$tmp/out.json"
			jq -r --arg w "$w" --arg t "$(basename "$t")" '.runs[] |
				[$w, $t, .machine, .governor, .regret.energy_j,
				 (.regret.energy_j - .regret.package_energy_j),
				 (.regret.cpu_energy_j // "n/a"), (.regret.negative // "-")] | @tsv' \
				"$tmp/out.json"
		done
	done
done >"$tmp/all.tsv"
for w in worst typical; do
	awk -F'\t' -v w="$w" '$1 == w { n++; if ($5 < -1e-9) nt++; if ($6 < -1e-9) nc++;
		if ($7 != "n/a" && $7 < -1e-9) ncpu++; flag[$8]++;
		if ($6 < min) { min = $6; at = $2 " " $3 " " $4 } }
		END { printf "%s runs=%d neg_total=%d neg_core=%d worst_core=%.4f J (%s) " \
			"neg_cpu=%d flagged package=%d smt=%d core=%d\n", w, n, nt, nc, min, at,
			ncpu, flag["package"], flag["smt"], flag["core"] }' min=0 at=none "$tmp/all.tsv"
done
if [ -n "${REGRET_MATRIX_TSV:-}" ]; then cp "$tmp/all.tsv" "$REGRET_MATRIX_TSV"; fi
