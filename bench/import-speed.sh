#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The speed of `idlesim import` on realistic ftrace text (issue 34; docs/import.md, "The
# parallel parse"): gen_ftrace.py output of SIZE (default 200M) at 8 and 64 CPUs, each
# import timed against `wc -l` of the same file in the same run, in turn (wc, import, wc,
# import, ...), best of RUNS (default 5) wall seconds each, and best CPU seconds (user +
# system) each; on one core (taskset -c 0, -j 1) and with -j 2 on two cores. The ratio
# printed is wc's wall time / import's: 0.3 means the import takes 3.3 times as long as
# counting the lines. Then the peak memory (/usr/bin/time -f %M) of -j 1 and -j 2.
#   bench/import-speed.sh [SIZE] [RUNS]   (IDLESIM=path/to/idlesim to skip the build;
#                                          GEN_FTRACE=path/to/gen_ftrace.py)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/setup.sh
. "$here/../scripts/setup.sh"
idlesim_bench_binary import-speed.sh
bin=$IDLESIM
size=${1:-200M}
runs=${2:-5}
gen=${GEN_FTRACE:-$here/../../shared/bench/gen_ftrace.py}
[ -f "$gen" ] || { echo "import-speed.sh: no $gen (set GEN_FTRACE)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }

# one run of "$@": "WALL CPU" seconds (CPU = user + system, the kernel's accounting; on a
# loaded machine the wall time swings, the CPU time much less)
once() {
	local TIMEFORMAT='%3R %3U %3S'
	{ time "$@" >/dev/null; } 2>"$tmp/t"
	awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$tmp/t"
}

min() { echo "if ($1 < $2) $1 else $2" | bc -l; }

# wc -l and the import, in turn, $runs times; prints the bests of each and their ratios
pair() {
	local pin=$1 file=$2 jobs=$3 bw=9999 bi=9999 cw=9999 ci=9999 w i
	for _ in $(seq "$runs"); do
		read -r w c < <(once taskset -c "$pin" wc -l "$file")
		bw=$(min "$w" "$bw")
		cw=$(min "$c" "$cw")
		read -r i c < <(once taskset -c "$pin" "$bin" import "$file" -j "$jobs" -o "$tmp/out.trace")
		bi=$(min "$i" "$bi")
		ci=$(min "$c" "$ci")
	done
	printf '  cores %-4s -j %s: wall: wc -l %.3f s, import %.3f s, ratio %.3f; cpu: wc -l %.3f s, import %.3f s\n' \
		"$pin" "$jobs" "$bw" "$bi" "$(echo "$bw / $bi" | bc -l)" "$cw" "$ci"
}

for cpus in 8 64; do
	f=$tmp/f$cpus.txt
	python3 "$gen" -o "$f" -s "$size" -n "$cpus" --header ftrace >/dev/null
	echo "== gen_ftrace.py -s $size -n $cpus --header ftrace: $(wc -l <"$f") lines"
	cat "$f" >/dev/null # in the page cache before the first run
	pair 0 "$f" 1
	pair 0,1 "$f" 2
	for jobs in 1 2; do
		/usr/bin/time -f %M -o "$tmp/mem" "$bin" import "$f" -j "$jobs" -o "$tmp/out.trace" >/dev/null
		echo "  peak RSS -j $jobs: $(cat "$tmp/mem") KiB"
	done
	"$bin" import "$f" -j 2 -o "$tmp/par.trace" >"$tmp/par.txt"
	"$bin" import "$f" -j 1 -o "$tmp/one.trace" >"$tmp/one.txt"
	if cmp -s <(grep -v '^source \|^# converted' "$tmp/par.trace") \
		<(grep -v '^source \|^# converted' "$tmp/one.trace") &&
		cmp -s <(tail -n +2 "$tmp/par.txt") <(tail -n +2 "$tmp/one.txt"); then
		echo "  -j 2 output: the same as -j 1"
	else
		echo "  -j 2 output: DIFFERS from -j 1" >&2
		exit 1
	fi
	rm -f "$f"
done
