#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Sysfs snapshots through the binary (docs/machines.md, "Your own machine"): each fixture of
# tests/snapshots as a directory, a .tar and a .tar.gz made here, imported with `machines
# import` (JSON with what is assumed); the guest and the server replayed with `run --machine
# SNAPSHOT` (the hybrid one only imported: its replay needs the hybrid runtime); and bad
# snapshots, each exit status 2 with the path inside the snapshot on stderr and no output file
# (neither the file nor a temporary).
#   tests/snapshot_cli_test.sh BIN SRCDIR
set -uo pipefail
bin=$1
src=$2
fix=$(cd "$src/tests/snapshots" && pwd)
. "$(dirname "$0")/cli_helpers.sh"

for f in adl-hybrid kvm-guest server-2s; do
	tar cf "$tmp/$f.tar" -C "$fix/$f" sys
	tar czf "$tmp/$f.tar.gz" -C "$fix" "$f"
	for s in "$fix/$f" "$tmp/$f.tar" "$tmp/$f.tar.gz"; do
		if "$bin" machines import "$s" -o "$tmp/m.json" 2>"$tmp/err" &&
			has "$tmp/m.json" '"assumed": "power and wake latency' &&
			has "$tmp/err" "assumed:"; then ok; else bad "import $s"; fi
		if "$bin" machines "$tmp/m.json" >"$tmp/out" && has "$tmp/out" "Assumed: power"; then
			ok
		else bad "machines M.json from $s"; fi
	done
done
"$bin" machines import "$fix/adl-hybrid" --name my-laptop -o "$tmp/adl.json" 2>/dev/null
if has "$tmp/adl.json" '"name": "my-laptop"' && has "$tmp/adl.json" '"name": "cpu_atom"' &&
	has "$tmp/adl.json" 'of built-in adl-l'; then ok; else bad "adl-hybrid JSON"; fi

# Replays: the text and JSON reports say what is assumed.
for s in "$fix/kvm-guest" "$tmp/server-2s.tar.gz" "$fix/adl-hybrid"; do
	if "$bin" run --machine "$s" -g menu@6.19 -o "$tmp/run.txt" 2>"$tmp/err" &&
		has "$tmp/run.txt" "assumed: power and wake latency of built-in"; then
		ok
	else bad "run --machine $s: $(cat "$tmp/err")"; fi
	if "$bin" run --machine "$s" -g teo@6.19 --format json -o "$tmp/run.json" 2>"$tmp/err" &&
		has "$tmp/run.json" '"assumed": "power and wake latency'; then
		ok
	else bad "run --machine $s --format json: $(cat "$tmp/err")"; fi
done

# compare's config and the HTML report say it too.
if "$bin" compare --workload tbench -g menu,teo -n 1 -j 1 --duration-s 0.01 \
	-m "$fix/kvm-guest" -o "$tmp/cmp.txt" 2>"$tmp/err" &&
	has "$tmp/cmp.txt" "machine kvm-guest: table" &&
	has "$tmp/cmp.txt" "; assumed: power and wake latency of built-in kvm"; then
	ok
else bad "compare -m kvm-guest: $(cat "$tmp/err")"; fi
if "$bin" report -m "$fix/server-2s" -g menu -o "$tmp/r.html" 2>"$tmp/err" &&
	has "$tmp/r.html" "<th>machine: assumed</th><td>power and wake latency of built-in skx"; then
	ok
else bad "report -m server-2s: $(cat "$tmp/err")"; fi

# Bad snapshots: copies of the guest with one thing broken.
# broken NAME EDIT: tmp/NAME, a copy of kvm-guest with EDIT run in its cpu directory
broken() {
	cp -r "$fix/kvm-guest" "$tmp/$1"
	(cd "$tmp/$1/sys/devices/system/cpu" && eval "$2")
}
broken missing "rm cpu3/cpuidle/state1/latency"
broken nonnum "echo 1x0 >cpu0/cpuidle/state1/latency"
broken negative "echo -5 >cpu5/cpuidle/state1/latency"
broken gap "mv cpu2/cpuidle/state1 cpu2/cpuidle/state2"
tar czf "$tmp/missing.tar.gz" -C "$tmp/missing" sys
tar cf "$tmp/abs.tar" -P "$fix/kvm-guest/sys/devices/system/cpu/online"
tar cf "$tmp/dotdot.tar" -P --transform 's,^sys,../sys,' -C "$fix/kvm-guest" sys
# expect SNAPSHOT WHERE: both commands exit 2 naming WHERE, and write nothing
expect() {
	local s=$1 where=$2 st
	rm -f "$tmp"/out.* "$tmp"/*.tmp.*
	"$bin" machines import "$s" -o "$tmp/out.json" 2>"$tmp/err"
	st=$?
	if [ $st -eq 2 ] && has "$tmp/err" "$where" && [ ! -e "$tmp/out.json" ]; then ok; else
		bad "import $s: status $st, $(cat "$tmp/err"), expected $where"
	fi
	"$bin" run --machine "$s" -g menu -o "$tmp/out.txt" 2>"$tmp/err"
	st=$?
	if [ $st -eq 2 ] && has "$tmp/err" "$where" && [ ! -e "$tmp/out.txt" ]; then ok; else
		bad "run --machine $s: status $st, $(cat "$tmp/err"), expected $where"
	fi
	if compgen -G "$tmp/*.tmp.*" >/dev/null; then bad "$s: a temporary file is left"; else ok; fi
}
cpu=sys/devices/system/cpu
expect "$tmp/missing" "$tmp/missing/$cpu/cpu3/cpuidle/state1/latency: missing"
expect "$tmp/missing.tar.gz" "$tmp/missing.tar.gz/$cpu/cpu3/cpuidle/state1/latency: missing"
expect "$tmp/nonnum" "$tmp/nonnum/$cpu/cpu0/cpuidle/state1/latency:1:2:"
expect "$tmp/negative" "$tmp/negative/$cpu/cpu5/cpuidle/state1/latency:1:1: negative"
expect "$tmp/gap" "$tmp/gap/$cpu/cpu2/cpuidle/state1: missing, but a deeper state"
expect "$tmp/abs.tar" "abs.tar/$fix/kvm-guest/$cpu/online: an absolute member name"
expect "$tmp/dotdot.tar" "dotdot.tar/../sys"

echo "snapshot_cli_test: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
