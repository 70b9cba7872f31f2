#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The lockstep diff's cost (docs/diff.md, "Speed and memory"): on gen --workload mixed --cpus
# 8 of 20 s and 200 s, `diff -g menu@6.12 -g teo@6.12 -m skl -f json` against the two runs
# it replaces (`run -g menu@6.12`, then `run -g teo@6.12`, -f json), timed in turn by
# farm-bench (ratios pair by pair, median of 5), and the 200 s diff against the 20 s one
# (10 times the decisions: time and peak memory). Issue 33 wants the diff at least half the
# speed of the two runs (A/B wall <= 2) and memory flat in the trace's length.
#   bench/diff-speed.sh      (IDLESIM=path/to/idlesim to skip the build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/setup.sh
. "$here/../scripts/setup.sh"
idlesim_bench_binary diff-speed.sh
bin=$IDLESIM
command -v farm-bench >/dev/null 2>&1 || { echo "diff-speed.sh: needs farm-bench" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" gen --workload mixed --cpus 8 --duration-s 20 -o "$tmp/t20.trace" >/dev/null
"$bin" gen --workload mixed --cpus 8 --duration-s 200 -o "$tmp/t200.trace" >/dev/null
echo "== diff (A) vs run menu@6.12 + run teo@6.12 (B), 20 s trace"
farm-bench -n 5 --timeout 600 --vs "sh -c '$bin run -t $tmp/t20.trace -m skl -g menu@6.12 -f json >/dev/null && $bin run -t $tmp/t20.trace -m skl -g teo@6.12 -f json >/dev/null'" \
	-- "$bin" diff -t "$tmp/t20.trace" -m skl -g menu@6.12 -g teo@6.12 -f json -o "$tmp/d20.json"
echo "== diff on the 200 s trace (A) vs the 20 s trace (B)"
farm-bench -n 3 --timeout 600 --vs "$bin diff -t $tmp/t20.trace -m skl -g menu@6.12 -g teo@6.12 -f json -o $tmp/d20.json" \
	-- "$bin" diff -t "$tmp/t200.trace" -m skl -g menu@6.12 -g teo@6.12 -f json -o "$tmp/d200.json"
echo "decisions: 20 s $(grep -m1 '"decisions"' "$tmp/d20.json"), 200 s $(grep -m1 '"decisions"' "$tmp/d200.json")"
