#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Regenerates the timer-world table of docs/benchmarks.md on stdout (Markdown): menu against
# teo on each closed-loop benchmark model, skl and hsx, in every timer world (the
# --housekeeping presets; docs/workloads.md "Timers"). Each row group is one `idlesim
# compare --housekeeping LIST` (3 iterations of 0.5 s, seeds 1..3, HZ 250, typical exits
# unless EXITS=worst), read back from its JSON output; a difference whose verdict changes
# between the worlds is marked "flips". GOVS=A,B picks the pair (default menu@4.18,teo@5.1,
# issue 30's). IDLESIM=path/to/idlesim uses that binary; without it, builds in build/ first,
# like the README commands. Needs jq.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/setup.sh
. "$here/../scripts/setup.sh"
idlesim_bench_binary timer-worlds.sh

GOVS=${GOVS:-menu@4.18,teo@5.1}
EXITS=${EXITS:-typical}
WORLDS=nohz-6.12,nohz-6.1,nohz-idle,hz-tick-100,hz-tick-250,hz-tick-1000,legacy-10ms,none
# the tables in docs/benchmarks.md were made with every thread on a fixed CPU, before the
# scheduler (PLACEMENT=sched for the scheduler's world)
PLACEMENT=${PLACEMENT:-pinned}
COMMON=(-g "$GOVS" -m "skl,hsx" -n 3 --duration-s 0.5 --wake-latency "$EXITS"
	--housekeeping "$WORLDS" --placement "$PLACEMENT")

rev=$(git -C "$here" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
git -C "$here" diff --quiet HEAD -- sim governors 2>/dev/null || rev="$rev (sim/ or governors/ modified)"
echo "<!-- bench/timer-worlds.sh: source $rev, $("$IDLESIM" --version 2>/dev/null | head -1),"
echo "     GOVS=$GOVS EXITS=$EXITS -->"
echo
base=${GOVS%%,*}
other=${GOVS#*,}
echo "| model, figure | M | timer world | $base | $other | |"
echo "|---|---|---|---|---|---|"

# row LABEL METRIC WORKLOAD-ARGS...: one table row per cell (value, machine, world), in the
# order of the worlds list. Cell text as bench/evidence.sh's: mean (percent against the
# first governor, positive = better, `*` = significant, p < 0.10).
row() {
	local label=$1 metric=$2
	shift 2
	"$IDLESIM" compare "$@" "${COMMON[@]}" --metric "$metric" --format json |
		jq -r --arg worlds "$WORLDS" '
			($worlds | split(",")) as $w |
			.cells[] | .housekeeping as $h | [(.value // 0), (if .machine == "skl" then 0 else 1 end),
				    ($w | index($h)), .machine, .housekeeping,
				    .governors[0].mean, .governors[1].mean, .governors[1].pct,
				    .governors[1].significant, .governors[1].flips_with_timer_world]
			| @tsv' |
		sort -t "$(printf '\t')" -k1,1n -k2,2n -k3,3n -s |
		awk -F '\t' -v label="$label" '
			{
				l = label
				sub(/\{v\}/, $1, l)
				pct = sprintf("%+.1f", $8)
				if (pct == "+0.0" || pct == "-0.0")
					pct = "±0"
				printf "| %s | %s | %s | %.2f | %.2f (%s %%%s) | %s |\n", l, $4, $5, $6,
				       $7, pct, $9 == "true" ? "*" : "", $10 == "true" ? "flips" : ""
			}'
}

row "tbench {v} client(s), MB/s" throughput --workload tbench --clients 1,2,4
row "dbench {v} client(s), MB/s" throughput --workload dbench --clients 1,2,4
row "netperf-udp, MB/s received" throughput --workload netperf-udp
row "sockperf pp, half round trip µs" latency_mean --workload sockperf --mode 1
