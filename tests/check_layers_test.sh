#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/check-layers.sh on a copy of the tree with faults put in by hand: it must pass the
# tree as it is and catch each fault with its own line (an upward include, an include not
# named from the root, a file outside the layer folders, and two files that include each
# other), exit status 1.
set -euo pipefail
src=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts"
cp -r "$src/sim" "$src/governors" "$src/include" "$tmp/"
cp "$src/scripts/check-layers.sh" "$tmp/scripts/"
fails=0
expect() { # what, exit status, line that must be printed
	local out rc=0
	out=$(bash "$tmp/scripts/check-layers.sh" 2>&1) || rc=$?
	if [ "$rc" -ne "$2" ] || ! grep -qF -- "$3" <<<"$out"; then
		echo "FAIL: $1: exit $rc, wanted $2 and a line with: $3"
		echo "$out" | sed 's/^/  | /'
		fails=$((fails + 1))
	else
		echo "ok: $1"
	fi
}
expect "the tree as it is" 0 "check-layers: ok:"

echo '#include "sim/run/run.h"' >>"$tmp/sim/base/alloc.c"
expect "base includes run" 1 \
	'sim/base/alloc.c:'"$(wc -l <"$tmp/sim/base/alloc.c")"': #include "sim/run/run.h": layer base may not use layer run'
cp "$src/sim/base/alloc.c" "$tmp/sim/base/alloc.c"

echo '#include "alloc.h"' >>"$tmp/sim/base/spool.c"
expect "an include not from the root" 1 'name the file from the root'
cp "$src/sim/base/spool.c" "$tmp/sim/base/spool.c"

echo '/* nothing */' >"$tmp/sim/stray.c"
expect "a file outside the layers" 1 'sim/stray.c: not in a layer folder'
rm "$tmp/sim/stray.c"

echo '#include "sim/trace/trace_int.h"' >>"$tmp/sim/trace/trace.h"
expect "two headers that include each other" 1 'a cycle'
cp "$src/sim/trace/trace.h" "$tmp/sim/trace/trace.h"

expect "the tree restored" 0 "check-layers: ok:"
echo "$((6 - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
