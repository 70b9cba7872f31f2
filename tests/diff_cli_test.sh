#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# idlesim diff through the binary (docs/diff.md), on tests/diff/three-timers.trace whose
# decisions are counted by hand:
#  - driven by B = deepest: one decision per period, 3; deepest enters C10 (skl) with the tick
#    stopped, so no tick ends an entry; A = shallowest answers POLL keeping the tick: each of
#    the 3 diverges in state and tick (the tick runs at every select: it restarts when the CPU
#    works), matrix[POLL][C10] = 3;
#  - driven by A = shallowest: POLL's time limit is C1E's 20 us target residency (the first
#    enabled state >= 10 us; under TICK_NSEC / 16 = 250 us), so each 1 ms period is 50 entries
#    (the 50th ends at its timer): 150 decisions, all divergent.
# Then identical sides, --max-divergence's exit status, the formats, and bad input.
#   tests/diff_cli_test.sh BIN SRCDIR
set -uo pipefail
bin=$1
src=$2
tr="$src/tests/diff/three-timers.trace"
. "$(dirname "$0")/cli_helpers.sh"

d=(diff -t "$tr" -m skl -g shallowest -g deepest)
"$bin" "${d[@]}" --drive B -f json >"$tmp/b.json"
if [ "$(top "$tmp/b.json" decisions)" = 3 ] && [ "$(top "$tmp/b.json" divergent)" = 3 ] &&
	has "$tmp/b.json" '"state_divergent": 3,' && has "$tmp/b.json" '"tick_divergent": 3,' &&
	[ "$(top "$tmp/b.json" first_divergence_ns)" = 100000 ]; then ok; else bad "drive B counts"; fi
# matrix row POLL: C10 (the 9th state of skl) holds the 3
if tr -d ' \n' <"$tmp/b.json" | grep -qF '"matrix":[[0,0,0,0,0,0,0,0,3],'; then ok; else bad "matrix"; fi
"$bin" "${d[@]}" -f csv >"$tmp/a.csv"
if has "$tmp/a.csv" "skl,0,150,150,100.000000,150,150,100000" &&
	has "$tmp/a.csv" "skl,all,150,150,100.000000,150,150,100000"; then ok; else bad "drive A csv"; fi
"$bin" "${d[@]}" --drive oracle -f json >"$tmp/o.json"
if [ "$(top "$tmp/o.json" divergent)" -gt 0 ] && has "$tmp/o.json" '"drive": "oracle"'; then ok
else bad "drive oracle"; fi

# Text: the header, the divergence lines with both sides, within 160 columns.
"$bin" "${d[@]}" --drive B >"$tmp/t.txt"
if has "$tmp/t.txt" "3 decisions, 3 divergent (100.000 %)" &&
	grep -q "^    A shallowest *-> POLL  tick keep" "$tmp/t.txt" &&
	grep -q "^    B deepest *-> C10   tick stop" "$tmp/t.txt"; then ok; else bad "text"; fi
"$bin" diff -g menu@4.18 -g teo@5.1 --divergences 50 >"$tmp/w.txt"
awk 'length > 160 { print "FAIL: line over 160 columns: " $0; exit 1 }' "$tmp/t.txt" "$tmp/w.txt" &&
	ok || bad "width"

# HTML: the 3 divergences (driven by B), each alone and all divergent in its bin of 40 us
# (200 over the trace's 8 ms, 5 px each from x = 50): 0.1 ms (bin 2), then, the work after
# each C10 exit delayed by its 890 us (--wake-latency worst), 2.99 ms (bin 74) and 5.99 ms
# (bin 149); the matrix; the divergences.
"$bin" "${d[@]}" --drive B --wake-latency worst -f html -o "$tmp/d.html"
if [ "$(grep -c 'fill="#e63946" fill-opacity="1.000"' "$tmp/d.html")" = 3 ] &&
	has "$tmp/d.html" '<rect x="60.00" ' && has "$tmp/d.html" '<rect x="420.00" ' &&
	has "$tmp/d.html" '<rect x="795.00" ' && has "$tmp/d.html" "<th>C10</th>" &&
	has "$tmp/d.html" "The first 3 divergences" && has "$tmp/d.html" "</html>"; then ok
else bad "html"; fi

# The same governor and tunables on both sides: a valid report, 0 divergences, said plainly.
"$bin" diff -t "$tr" -m skl -g menu@6.12 --set-a menu.decay=8 -f json >"$tmp/s.json"
if [ "$(top "$tmp/s.json" divergent)" = 0 ] && has "$tmp/s.json" '"same": true'; then ok
else bad "same sides json"; fi
"$bin" diff -g menu -g menu@6.19 >"$tmp/s.txt"
if has "$tmp/s.txt" "A and B are the same governor with the same tunables" &&
	has "$tmp/s.txt" "divergent (0.000 %)"; then ok; else bad "same sides text"; fi
# One governor, two tunable sets: they do diverge on the demo trace.
"$bin" diff -g teo@6.12 --set-a teo.pulse=1024 --set-b teo.pulse=256 -f json >"$tmp/p.json"
if [ "$(top "$tmp/p.json" divergent)" -gt 0 ] && has "$tmp/p.json" '"same": false'; then ok
else bad "set-a/set-b"; fi

# --max-divergence: exit 3 above it (a message on stderr), 0 at or under it; junit and tap.
"$bin" "${d[@]}" --max-divergence 50 -f tap >"$tmp/t.tap" 2>"$tmp/err"
rc=$?
if [ $rc = 3 ] && has "$tmp/t.tap" "not ok 1 - " && has "$tmp/err" "more than --max-divergence 50 %"
then ok; else bad "max-divergence exceeded (rc $rc)"; fi
"$bin" "${d[@]}" --max-divergence 100 -f junit >"$tmp/j.xml"
rc=$?
if [ $rc = 0 ] && has "$tmp/j.xml" '<testsuites tests="1" failures="0">' &&
	! has "$tmp/j.xml" "<failure"; then ok; else bad "max-divergence met (rc $rc)"; fi
"$bin" "${d[@]}" --max-divergence 99.5 -f junit -o "$tmp/j2.xml"
if [ $? = 3 ] && has "$tmp/j2.xml" "<failure message=\"150 of 150 decisions diverge"; then ok
else bad "junit failure"; fi

# Bad input: exit 2, a message, no output file.
expect2() {
	local what=$1 msg=$2
	shift 2
	"$bin" "$@" -o "$tmp/never" 2>"$tmp/err"
	local rc=$?
	if [ $rc = 2 ] && has "$tmp/err" "$msg" && [ ! -e "$tmp/never" ] &&
		[ -z "$(ls "$tmp" | grep '^never.')" ]; then ok
	else bad "$what: rc $rc, $(cat "$tmp/err")"; fi
}
expect2 "one governor" "give two governors" diff -g menu
expect2 "three governors" "not 3" diff -g menu,teo,ladder
expect2 "unknown governor" "unknown governor 'nope'" diff -g menu -g nope
expect2 "bad drive" "'C' is not A, B or oracle" diff -g menu -g teo --drive C
expect2 "bad format" "'xml' is not one of" diff -g menu -g teo -f xml
expect2 "divergences with tap" "--divergences" diff -g menu -g teo -f tap --divergences 3
expect2 "set-b not of B" "--set-b (side B, teo@6.19)" diff -g menu -g teo --set-b menu.decay=4
expect2 "divergences with csv" "--divergences" diff -g menu -g teo -f csv --divergences 3
expect2 "bad max" "--max-divergence" diff -g menu -g teo --max-divergence 101
expect2 "missing trace" "no-such.trace" diff -g menu -g teo -t "$tmp/no-such.trace"
printf 'idlesim-trace v1\ncpus 2\nidle 0 10 5 timer\nidle 5 10 5 timer\n' >"$tmp/bad.trace"
expect2 "bad trace" "bad.trace:4" diff -g menu -g teo -t "$tmp/bad.trace"

echo "diff_cli_test: $pass passed, $failed failed"
[ "$failed" = 0 ]
