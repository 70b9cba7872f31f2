#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# idlesim diff against the kernel's own governor files (Debian linux-source-6.12, extracted
# into a temporary directory, never the repository):
#  - menu, teo and ladder of 6.12 against the ports of the same release: 0 divergences on the
#    demo trace (skl) and on hsx;
#  - teo.c with one constant changed (DECAY_SHIFT 3 -> 4) against teo@6.12: divergences, and
#    exactly those of teo@6.12 against itself with --set-b teo.decay_shift=4 (the same count,
#    and the same per-CPU counts and first divergences); with that tunable on side A the file
#    and the port agree again: 0.
# Without the package: SKIPPED, exit 77 (ctest lists it as skipped).
#   tests/diff_kernel_test.sh BIN
set -uo pipefail
bin=$1
tarball=/usr/src/linux-source-6.12.tar.xz
if [ ! -f "$tarball" ]; then
	echo "SKIPPED: $tarball is absent (apt-get install linux-source-6.12): diff against the" \
		"kernel's own governor files did not run"
	exit 77
fi
. "$(dirname "$0")/cli_helpers.sh"
tar -xJf "$tarball" -C "$tmp" --wildcards 'linux-source-6.12/drivers/cpuidle/governors/*' \
	'linux-source-6.12/drivers/cpuidle/cpuidle.h' || { echo "FAILED: cannot extract $tarball"; exit 1; }
k=$tmp/linux-source-6.12/drivers/cpuidle/governors

for g in menu teo ladder; do
	"$bin" diff -g "$g@6.12" -g "$k/$g.c" -m skl,hsx -f json >"$tmp/$g.json" 2>"$tmp/err"
	n=$(top "$tmp/$g.json" decisions)
	if [ "$(top "$tmp/$g.json" divergent)" = 0 ] && [ "${n:-0}" -gt 10000 ]; then ok
	else bad "$g@6.12 vs $g.c: $(top "$tmp/$g.json" divergent) of $n diverge; $(cat "$tmp/err")"; fi
done

sed 's/^#define DECAY_SHIFT[[:space:]]*3$/#define DECAY_SHIFT\t4/' "$k/teo.c" >"$k/teo-decay4.c"
if cmp -s "$k/teo.c" "$k/teo-decay4.c"; then
	bad "DECAY_SHIFT not found in teo.c"
fi
"$bin" diff -g teo@6.12 -g "$k/teo-decay4.c" -f json >"$tmp/file.json" 2>"$tmp/err"
"$bin" diff -g teo@6.12 --set-b teo.decay_shift=4 -f json >"$tmp/set.json"
# per CPU: decisions, divergent (state, tick) and the first divergence
"$bin" diff -g teo@6.12 -g "$k/teo-decay4.c" -f csv >"$tmp/file.csv"
"$bin" diff -g teo@6.12 --set-b teo.decay_shift=4 -f csv >"$tmp/set.csv"
nf=$(top "$tmp/file.json" divergent)
if [ "${nf:-0}" -gt 0 ] && [ "$nf" = "$(top "$tmp/set.json" divergent)" ] &&
	cmp -s "$tmp/file.csv" "$tmp/set.csv"; then ok
else bad "changed constant: file $nf vs tunable $(top "$tmp/set.json" divergent); $(cat "$tmp/err")"; fi
"$bin" diff -g teo@6.12 --set-a teo.decay_shift=4 -g "$k/teo-decay4.c" -f json >"$tmp/same.json"
if [ "$(top "$tmp/same.json" divergent)" = 0 ]; then ok; else bad "port with decay_shift=4 vs file"; fi

echo "diff_kernel_test: $pass passed, $failed failed"
[ "$failed" = 0 ]
