#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Engine benchmarks: idle entries per second on one core, and peak memory at 1 M and 10 M
# entries (it must not grow with the trace length). Builds first, like the README commands.
set -euo pipefail
. "$(dirname "$0")/../scripts/setup.sh"
idlesim_install_deps
idlesim_build
B="$IDLESIM_BUILD/bench_engine"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# $(date -u +%Y-%m-%d) $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), one core (taskset -c 0)"
# Engine throughput per governor: 8-CPU skl, the workload replayed from memory.
for gov in $("$IDLESIM_BUILD/idlesim" governors | awk 'NR>1 && $1!="" && $1!~/^--/ {print $1}'); do
	taskset -c 0 "$B" --entries 10000000 --governor "$gov"
done
# The governors alone, without the engine: ns per select() + reflect() (bench/bench_governor.c).
taskset -c 0 "$IDLESIM_BUILD/bench_governor" --decisions 10000000
# What isolating a kernel file's calls costs (docs/speed.md): Debian's teo.c, as the fidelity
# test extracts it, called directly and through the guard.
k="$IDLESIM_BUILD/kernel-src/6.12/teo.c"
if [ -f "$k" ]; then
	for iso in off on; do
		taskset -c 0 "$IDLESIM_BUILD/bench_governor" --governor "$k" --isolation "$iso"
	done
fi
# One CPU, the generator as source, and a text file as source.
taskset -c 0 "$B" --entries 10000000 --governor oracle --cpus 1
# The one global queue (closed loops and --explain use it) instead of the lanes.
taskset -c 0 "$B" --entries 10000000 --governor oracle --queue heap
taskset -c 0 "$B" --entries 10000000 --governor oracle --source generator
taskset -c 0 "$B" --entries 10000000 --governor oracle --file "$tmp/bench.trace"
# Peak memory must not grow with length: 1 M against 10 M entries (generator source).
taskset -c 0 "$B" --entries 1000000 --governor oracle --source generator
# Kernel-trace import (idlesim import): MB/s on a 1 GB generated ftrace text file, next to
# `wc -l` on the same file, and peak memory (bench/bench_import.c).
taskset -c 0 "$IDLESIM_BUILD/bench_import" --mb 1024 --file "$tmp/bench.ftrace"
# Parallel comparisons: the same compare (tbench 1,2,4 clients x 3 governors x 8
# iterations = 72 closed-loop runs) on 1 and on 2 threads, best of 3 each, alternating (the
# VM's speed drifts); the outputs must be identical.
compare_args=(compare --workload tbench --clients 1,2,4 --machine skl
	--governor menu@6.19,teo@6.19,oracle --iterations 8 --duration-s 1)
t1=1e9
t2=1e9
for i in 1 2 3; do
	a=$( { /usr/bin/time -f %e "$IDLESIM_BUILD/idlesim" "${compare_args[@]}" --threads 1 -o "$tmp/cmp1" ; } 2>&1 )
	b=$( { /usr/bin/time -f %e "$IDLESIM_BUILD/idlesim" "${compare_args[@]}" --threads 2 -o "$tmp/cmp2" ; } 2>&1 )
	cmp -s "$tmp/cmp1" "$tmp/cmp2" || { echo "compare: output differs between 1 and 2 threads" >&2; exit 1; }
	t1=$(awk -v x="$t1" -v y="$a" 'BEGIN { print (y < x ? y : x) }')
	t2=$(awk -v x="$t2" -v y="$b" 'BEGIN { print (y < x ? y : x) }')
done
awk -v a="$t1" -v b="$t2" 'BEGIN { printf "compare, 72 runs (best of 3): 1 thread %.2f s, 2 threads %.2f s: speed-up %.2fx (identical output)\n", a, b, a / b }'
# Sweeps (bench/bench_sweep.c): 100 points, each a replay of a 1-minute 8-CPU trace, on 1
# and 2 threads (best of 3, alternating), then peak memory at 1,000 points against 100 (it
# must stay flat). docs/sweep.md has the numbers.
"$IDLESIM_BUILD/bench_sweep" --points 100 --threads 1,2 --runs 3 --dir "$tmp"
"$IDLESIM_BUILD/bench_sweep" --points 1000 --threads 2 --dir "$tmp"
