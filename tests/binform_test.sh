#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The binary trace form through the binary (traces/FORMAT.md, "Binary form"):
#  - every trace the project ships (traces/, the valid traces of tests/traces, tests/diff):
#    text -> binary -> text gives the header and records of the text (both written in the
#    canonical form by convert --to text), and run (menu, teo, ladder; json) prints the same
#    on either form, but for the file's name and its hash (of its bytes);
#  - gen and import with an .itb output write the binary form of what they write as text
#    (the real traces of ../shared/traces/real, said loudly when absent);
#  - standard input, compare and check on the binary form;
#  - bad input through the CLI: exit 2, "FILE: byte N: ...", no output file.
#   tests/binform_test.sh BIN SRCDIR
set -uo pipefail
bin=$1
src=$2
real="$src/../shared/traces/real"
. "$(dirname "$0")/cli_helpers.sh"
cd "$src" || exit 1
magic() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "894954420d0a1a0a" ]; }
# the run report without the trace's name and hash
masked() { sed -e '/"trace": {/,/}/d' -e '/"trace": "/d' -e '/"hash": "/d' "$1"; }

n=0
for f in traces/*.trace traces/scenarios/*.trace tests/traces/valid/*/input tests/diff/*.trace; do
	n=$((n + 1))
	"$bin" convert "$f" "$tmp/b.itb" && magic "$tmp/b.itb" || { bad "$f: convert to binary"; continue; }
	"$bin" convert "$tmp/b.itb" "$tmp/b.trace" && "$bin" convert --to text "$f" "$tmp/t.trace" &&
		cmp -s "$tmp/b.trace" "$tmp/t.trace" && ok || bad "$f: text -> binary -> text differs"
	# binary -> binary is the same bytes (one encoding)
	"$bin" convert --to binary "$tmp/b.itb" "$tmp/b2.itb" && cmp -s "$tmp/b.itb" "$tmp/b2.itb" &&
		ok || bad "$f: binary -> binary differs"
	"$bin" run -t "$f" -g menu -g teo -g ladder -m skl -f json >"$tmp/t.json" 2>&1
	rt=$?
	"$bin" run -t "$tmp/b.itb" -g menu -g teo -g ladder -m skl -f json >"$tmp/b.json" 2>&1
	rb=$?
	# the same report, or (a trace of more CPUs than skl has) the same refusal
	if [ "$rt" = "$rb" ] && cmp -s <(masked "$tmp/t.json") <(masked "$tmp/b.json") &&
		{ { [ "$rt" = 0 ] && [ "$(masked "$tmp/t.json" | wc -l)" -gt 20 ]; } ||
			{ [ "$rt" = 2 ] && has "$tmp/t.json" "pick a larger machine"; }; }; then ok; else
		bad "$f: run differs on the binary form"
	fi
done
[ "$n" -ge 12 ] && ok || bad "only $n shipped traces found"

# gen: the open-loop generator and a model, both ways
for g in "--workload mixed --cpus 4 --duration-s 0.5" "--workload tbench --duration-s 0.01"; do
	# shellcheck disable=SC2086
	"$bin" gen $g -o "$tmp/g.trace" && "$bin" gen $g -o "$tmp/g.itb" && magic "$tmp/g.itb" &&
		"$bin" convert "$tmp/g.itb" "$tmp/g2.trace" && cmp -s "$tmp/g.trace" "$tmp/g2.trace" &&
		ok || bad "gen $g: .itb is not the binary form of the text"
done
# a binary trace on standard input, to run and to convert
"$bin" run -t traces/demo.trace -g menu -m skl -f json >"$tmp/t.json"
"$bin" convert traces/demo.trace "$tmp/d.itb"
"$bin" run -t - -g menu -m skl -f json <"$tmp/d.itb" >"$tmp/s.json" &&
	cmp -s <(masked "$tmp/t.json") <(masked "$tmp/s.json") && ok || bad "run -t - on the binary form"
"$bin" convert - "$tmp/s.trace" <"$tmp/d.itb" && "$bin" convert --to text traces/demo.trace "$tmp/d.trace" &&
	cmp -s "$tmp/s.trace" "$tmp/d.trace" && ok || bad "convert - (binary on stdin)"
# diff takes it as well
"$bin" diff -t traces/demo.trace -g menu -g teo -m skl -f json >"$tmp/t.json" 2>&1
"$bin" diff -t "$tmp/d.itb" -g menu -g teo -m skl -f json >"$tmp/b.json" 2>&1 &&
	cmp -s <(masked "$tmp/t.json" | grep -v demo) <(masked "$tmp/b.json" | grep -v d.itb) &&
	[ "$(wc -l <"$tmp/b.json")" -gt 10 ] && ok || bad "diff on the binary form: $(head -3 "$tmp/b.json")"

# import: -o x.itb is the binary form of -o x.trace, and prints the same summary
if [ -f "$real/README.md" ]; then
	dat=trappy-trace_idle.dat # with libtracecmd only (IDLESIM_TRACEDAT)
	"$bin" import "$real/$dat" -o /dev/null >/dev/null 2>&1 || { echo "NOTE: no trace.dat import in this build"; dat=; }
	for k in trappy-trace_idle.report.txt trappy-trace_idle_unsorted.txt trappy-trace_surfaceflinger.html $dat; do
		"$bin" import "$real/$k" -o "$tmp/i.trace" >"$tmp/i1.txt" 2>&1 &&
			"$bin" import "$real/$k" -o "$tmp/i.itb" >"$tmp/i2.txt" 2>&1 && magic "$tmp/i.itb" &&
			"$bin" convert "$tmp/i.itb" "$tmp/i2.trace" && "$bin" convert --to text "$tmp/i.trace" "$tmp/i1.trace" &&
			cmp -s "$tmp/i1.trace" "$tmp/i2.trace" && cmp -s "$tmp/i1.txt" "$tmp/i2.txt" &&
			[ "$(grep -c '^idle ' "$tmp/i1.trace")" -gt 0 ] && ok || bad "import $k: .itb differs from .trace"
		"$bin" run -t "$tmp/i.trace" -g menu -m skl -f json >"$tmp/t.json" 2>&1
		"$bin" run -t "$tmp/i.itb" -g menu -m skl -f json >"$tmp/b.json" 2>&1
		cmp -s <(masked "$tmp/t.json") <(masked "$tmp/b.json") && ok || bad "import $k: run differs"
	done
else
	echo "NOTE: $real is absent: the import round trips are not checked"
fi

# bad input: exit 2, the byte offset, no output file. demo.itb: 16 bytes of magic, version
# and length, the header, its CRC; its one block then starts with 'B'.
size=$(stat -c %s "$tmp/d.itb")
cut_at() { head -c "$1" "$tmp/d.itb" >"$tmp/cut.itb"; }
expect_bad() { # WHAT PATTERN: convert cut.itb fails as it should
	rm -f "$tmp/out.trace"
	"$bin" convert "$tmp/cut.itb" "$tmp/out.trace" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 2 ] && grep -qE -- "^idlesim: $tmp/cut.itb: $2" "$tmp/err" &&
		[ ! -e "$tmp/out.trace" ] && [ -z "$(ls "$tmp" | grep 'out.trace.tmp')" ]; then ok; else
		bad "$1: exit $rc, $(cat "$tmp/err")"
	fi
}
cut_at 5 && expect_bad "cut in the magic" "byte 0: truncated: the file ends at byte 5 inside the magic"
cut_at 20 && expect_bad "cut in the header" "byte 16: truncated: the file ends at byte 20 inside the header"
cut_at $((size - 200)) && expect_bad "cut in the block" "byte [0-9]+: truncated: the file ends at byte $((size - 200)) inside the block"
cut_at $((size - 13)) && expect_bad "no end block" "byte $((size - 13)): truncated: the end block is missing"
cut_at $((size - 1)) && expect_bad "cut in the end block" "byte $((size - 13)): truncated: the file ends at byte $((size - 1))"
{ cat "$tmp/d.itb"; printf x; } >"$tmp/cut.itb" && expect_bad "after the end" "byte $size: data after the end block"
cp "$tmp/d.itb" "$tmp/cut.itb" && printf '\x02' | dd of="$tmp/cut.itb" bs=1 seek=8 conv=notrunc 2>/dev/null &&
	expect_bad "version 2" "byte 8: unsupported binary trace version 2 \\(this idlesim reads 1\\)"
cp "$tmp/d.itb" "$tmp/cut.itb" && printf '\xff' | dd of="$tmp/cut.itb" bs=1 seek=$((size - 100)) conv=notrunc 2>/dev/null &&
	expect_bad "a damaged byte" "byte [0-9]+: checksum mismatch in the block"
# run says the same, exit 2
"$bin" run -t "$tmp/cut.itb" -g menu -m skl >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "checksum mismatch" "$tmp/err" && ok || bad "run on a damaged binary trace: $(cat "$tmp/err")"

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
