#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# idlesim validate through the binary (docs/diff.md, "validate"):
#  - tests/validate/one-entry.ftrace: one recorded entry (state 1, C1 on skl) with an hrtimer
#    500 us ahead; menu@6.12 with no history predicts 500 us and picks C6 (its header says
#    why): 1 entry, 0 agree, matrix[C1][C6] = 1, the disagreement shown with rule=timer;
#  - the real traces of ../shared/traces/real on tests/validate/juno.json (Juno's idle states):
#    entries = the cpu_idle entry events of the text report counted here with grep, the
#    kernel's choices (matrix rows) as the trace has them, every entry lacking its sleep
#    length (no timer events);
#  - self-consistency: a run exported as ftrace (run --format ftrace writes the timers, the
#    tick's arming and stop, the tick seen during an exit, the switches to tasks) validates at
#    100 % against the governor that made it: every built-in governor (the two oracles know
#    the future: no trace holds it) on every built-in machine, on a generated 4-CPU trace;
#  - a recording directory (governor, release, trace.txt): the governor of that release;
#  - bad input: exit 2, a message, no output file.
#   tests/validate_cli_test.sh BIN SRCDIR
set -uo pipefail
bin=$1
src=$2
v="$src/tests/validate"
real="$src/../shared/traces/real"
. "$(dirname "$0")/cli_helpers.sh"
flat() { tr -d ' \n' <"$1"; }

"$bin" validate "$v/one-entry.ftrace" -g menu@6.12 -m skl -f json >"$tmp/one.json"
if [ "$(top "$tmp/one.json" entries)" = 1 ] && [ "$(top "$tmp/one.json" agree)" = 0 ] &&
	flat "$tmp/one.json" | grep -qF '"matrix":[[0,0,0,0,0,0,0,0,0],[0,0,0,0,1,0,0,0,0],' &&
	has "$tmp/one.json" '"kernel": "C1",' && has "$tmp/one.json" '"ours": "C6",' &&
	has "$tmp/one.json" '"sleep_length_ns": 500000,'; then ok; else bad "one-entry json"; fi
"$bin" validate "$v/one-entry.ftrace" -g menu@6.12 -m skl >"$tmp/one.txt"
if has "$tmp/one.txt" "100.000100s cpu0 kernel C1, menu@6.12 C6 (tick on, keep) sleep 500us | rule=timer" &&
	has "$tmp/one.txt" "1 entries, 0 agree" &&
	awk 'length > 160 { exit 1 }' "$tmp/one.txt"; then ok; else bad "one-entry text"; fi

if [ -f "$real/README.md" ]; then
	t="$real/trappy-trace_idle.report.txt"
	n=$(grep -c 'cpu_idle:.*state=[0-9]\{1,2\} ' "$t")
	n0=$(grep -c 'cpu_idle:.*state=0 ' "$t")
	n2=$(grep -c 'cpu_idle:.*state=2 ' "$t")
	"$bin" validate "$t" -g menu@6.12 -m "$v/juno.json" -f json >"$tmp/r.json"
	rows=$(flat "$tmp/r.json" | sed 's/.*"matrix":\[\[\([0-9]*\),\([0-9]*\),\([0-9]*\)\],\[\([0-9]*\),\([0-9]*\),\([0-9]*\)\],\[\([0-9]*\),\([0-9]*\),\([0-9]*\)\]\].*/\1 \2 \3 \4 \5 \6 \7 \8 \9/')
	set -- $rows
	if [ "$(top "$tmp/r.json" entries)" = "$n" ] && [ $(($1 + $2 + $3)) = "$n0" ] &&
		[ $(($7 + $8 + $9)) = "$n2" ] && [ "$(top "$tmp/r.json" no_timer_events)" = "$n" ]
	then ok; else bad "trappy report: entries $(top "$tmp/r.json" entries) of $n, rows $rows"; fi
	"$bin" validate "$real/trappy-trace_surfaceflinger.html" -g teo@6.12 -m "$v/juno.json" \
		>"$tmp/sf.txt" && has "$tmp/sf.txt" "agree with the kernel's choice" && ok ||
		bad "surfaceflinger"
	if "$bin" import "$real/trappy-trace_idle.dat" -o "$tmp/x.trace" >/dev/null 2>&1; then
		"$bin" validate "$real/trappy-trace_idle.dat" -g menu@6.12 -m "$v/juno.json" -f json \
			>"$tmp/d.json"
		if [ "$(flat "$tmp/d.json" | sed 's/"trace":"[^"]*",//; s/"idlesim_version[^,]*,//')" = \
			"$(flat "$tmp/r.json" | sed 's/"trace":"[^"]*",//; s/"idlesim_version[^,]*,//')" ]
		then ok; else bad "trace.dat and its report differ"; fi
	else
		echo "WARNING: trace.dat support not built: its validate check did NOT run" >&2
	fi
else
	echo "WARNING: $real not found: validate of the real traces did NOT run" >&2
fi

# Self-consistency: every governor x machine, 100 %.
"$bin" gen --workload mixed --cpus 4 --duration-s 0.2 -o "$tmp/g4.trace" >/dev/null 2>&1 ||
	bad "gen"
govs=$("$bin" governors | awk 'NR > 1 && /^[^ ]/ { print $1 }' | grep -v '^oracle')
machines=$("$bin" machines | awk 'NR > 1 { print $1 }')
pairs=0
for m in $machines; do
	for g in $govs; do
		pairs=$((pairs + 1))
		if ! "$bin" run -t "$tmp/g4.trace" -m "$m" -g "$g" --format ftrace -o "$tmp/x.ftrace"; then
			bad "run $m $g"
			continue
		fi
		"$bin" validate "$tmp/x.ftrace" -g "$g" -m "$m" --hz 250 -f json >"$tmp/x.json"
		e=$(top "$tmp/x.json" entries)
		if [ "${e:-0}" -gt 100 ] && [ "$(top "$tmp/x.json" agree)" = "$e" ] &&
			[ "$(top "$tmp/x.json" no_timer_events)" = 0 ]; then ok
		else bad "self-consistency $m $g: $(top "$tmp/x.json" agree) of $e agree"; fi
	done
done
[ "$pairs" -ge 300 ] && ok || bad "only $pairs governor x machine pairs"

# A recording directory: the family in governor, the newest model not newer than release.
mkdir "$tmp/rec"
cp "$v/one-entry.ftrace" "$tmp/rec/trace.txt"
echo menu >"$tmp/rec/governor"
echo 6.12.0-13-amd64 >"$tmp/rec/release"
"$bin" validate "$tmp/rec" -m skl >"$tmp/rec.txt" && has "$tmp/rec.txt" "through menu@6.12" &&
	ok || bad "recording dir 6.12"
echo 6.3.1 >"$tmp/rec/release"
"$bin" validate "$tmp/rec" -m skl >"$tmp/rec.txt" && has "$tmp/rec.txt" "through menu@6.1" &&
	ok || bad "recording dir 6.3"

expect2() {
	local what=$1 msg=$2
	shift 2
	"$bin" "$@" -o "$tmp/never" 2>"$tmp/err"
	local rc=$?
	if [ $rc = 2 ] && has "$tmp/err" "$msg" && [ ! -e "$tmp/never" ]; then ok
	else bad "$what: rc $rc, $(cat "$tmp/err")"; fi
}
sed 's/cpu_idle: state=1 /cpu_idle: state=5 /' "$v/one-entry.ftrace" >"$tmp/state5.ftrace"
expect2 "state beyond the table" "entered state 5, beyond machine juno's table (3 states" \
	validate "$tmp/state5.ftrace" -g menu -m "$v/juno.json"
grep -v cpu_idle "$v/one-entry.ftrace" >"$tmp/noidle.ftrace"
expect2 "no cpu_idle" "no idle period found" validate "$tmp/noidle.ftrace" -g menu -m skl
expect2 "native trace" "holds no kernel choice" validate "$src/traces/demo.trace" -g menu -m skl
expect2 "no machine" "give the recording machine" validate "$v/one-entry.ftrace" -g menu
expect2 "no governor" "give the governor" validate "$v/one-entry.ftrace" -m skl
expect2 "no trace" "give a kernel trace" validate -g menu -m skl
expect2 "unknown governor" "unknown governor 'nope'" validate "$v/one-entry.ftrace" -g nope -m skl
expect2 "empty dir" "holds trace.dat or trace.txt" validate "$tmp" -g menu -m skl

echo "validate_cli_test: $pass passed, $failed failed"
[ "$failed" = 0 ]
