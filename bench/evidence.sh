#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Regenerates the table of docs/benchmarks.md on stdout (Markdown): every closed-loop
# benchmark model, every modelled menu and teo version, skl and hsx, worst-case and typical
# exits. Each row is one `idlesim compare` (3 iterations of 0.5 s, seeds 1..3, HZ 250,
# default timers), read back from its JSON output. IDLESIM=path/to/idlesim uses that binary;
# without it, builds in build/ first, like the README commands. Needs jq.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/setup.sh
. "$here/../scripts/setup.sh"
idlesim_bench_binary evidence.sh

GOVS=menu@6.19,menu@6.6,menu@4.18,teo@6.19,teo@5.14,teo@5.1
COMMON=(-g "$GOVS" -m "skl,hsx" -n 3 --duration-s 0.5)

rev=$(git -C "$here" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
git -C "$here" diff --quiet HEAD -- sim governors 2>/dev/null || rev="$rev (sim/ or governors/ modified)"
echo "<!-- bench/evidence.sh: source $rev, $("$IDLESIM" --version 2>/dev/null | head -1) -->"
echo
printf '| model, figure | M | exits |'
printf ' %s |' ${GOVS//,/ }
echo
printf '|---|---|---|'
printf -- '---|%.0s' ${GOVS//,/ }
echo

# row LABEL METRIC WORKLOAD-ARGS...: one compare per exit model; one table row per cell
# (parameter value) and machine, ordered value, machine (skl first), exits (worst first).
# Cell text: mean (percent against menu@6.19, positive = better, `*` = significant by
# compare's t-test, p < 0.10); identical figures print as the mean alone.
row() {
	local label=$1 metric=$2
	shift 2
	local wl
	for wl in worst typical; do
		"$IDLESIM" compare "$@" "${COMMON[@]}" --metric "$metric" --wake-latency "$wl" \
			--format json |
			jq -r --arg wl "$wl" '.cells[] |
				[.value, (if .machine == "skl" then 0 else 1 end), $wl, .machine] +
				[.governors[] | .mean, .pct, .significant] | @tsv'
	done | sort -t "$(printf '\t')" -k1,1n -k2,2n -k3,3r -s |
		awk -F '\t' -v label="$label" '
			function cell(mean, pct, sig) {
				if (pct == 0 && sig == "false")
					return sprintf("%.2f", mean)
				pct = sprintf("%+.1f", pct)
				if (pct == "+0.0" || pct == "-0.0")
					pct = "±0"
				return sprintf("%.2f (%s %%%s)", mean, pct, sig == "true" ? "*" : "")
			}
			{
				l = label
				sub(/\{v\}/, $1, l)
				line = "| " l " | " $4 " | " $3 " |"
				for (i = 5; i <= NF; i += 3)
					line = line " " cell($i, $(i + 1), $(i + 2)) " |"
				print line
			}'
}

row "tbench {v} client(s), MB/s" throughput --workload tbench --clients 1,4
row "netperf-udp, MB/s received" throughput --workload netperf-udp
row "sockperf tp, mean latency µs" latency_mean --workload sockperf --mode 0
row "sockperf pp, half round trip µs" latency_mean --workload sockperf --mode 1
row "dbench {v} client(s), MB/s" throughput --workload dbench --clients 1,8
row "cyclictest 1 ms, mean latency µs" latency_mean --workload cyclictest
