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
# One CPU (no cross-CPU queue work), the generator as source, and a text file as source.
taskset -c 0 "$B" --entries 10000000 --governor oracle --cpus 1
taskset -c 0 "$B" --entries 10000000 --governor oracle --source generator
taskset -c 0 "$B" --entries 10000000 --governor oracle --file "$tmp/bench.trace"
# Peak memory must not grow with length: 1 M against 10 M entries (generator source).
taskset -c 0 "$B" --entries 1000000 --governor oracle --source generator
# Kernel-trace import (idlesim import): MB/s on a 1 GB generated ftrace text file, next to
# `wc -l` on the same file, and peak memory (bench/bench_import.c).
taskset -c 0 "$IDLESIM_BUILD/bench_import" --mb 1024 --file "$tmp/bench.ftrace"
