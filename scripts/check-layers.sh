#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Check the direction of sim/'s layers (docs/layout.md): every #include in sim/ must name,
# from the root, a file of a layer that its own layer may use, and no two files of sim/ may
# depend on each other, directly or around a ring. With a build directory the same rules
# hold for the calls too: which object file uses a symbol that which other one defines
# (nm), so a function declared low but defined high up, or two files that call each other,
# are caught as well.
#
#   scripts/check-layers.sh [BUILD_DIR]
#
# Exit status 0 when every rule holds, 1 with one line per broken rule, 2 for bad usage.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ $# -gt 1 ]; then
	echo "usage: scripts/check-layers.sh [BUILD_DIR]" >&2
	exit 2
fi
objdir=
if [ $# -eq 1 ]; then
	objdir="$1/CMakeFiles/idlesim_core.dir"
	if [ ! -d "$objdir/sim" ]; then
		echo "check-layers: $objdir/sim: no object files (build first)" >&2
		exit 2
	fi
fi
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

# "inc FILE LINE TARGET" for every quoted include of sim/ and governors/.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -co --exclude-standard -- 'sim/*.[ch]' 'governors/*.[ch]'
else # an unpacked release: every file
	find sim governors -name '*.[ch]'
fi | sort >"$tmp/files"
sed 's/^/file /' "$tmp/files" >"$tmp/deps"
xargs grep -Hn -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' <"$tmp/files" |
	sed -E 's/^([^:]+):([0-9]+):[^"]*"([^"]+)".*/inc \1 \2 \3/' >>"$tmp/deps"
# "call FROM TO SYMBOL" for every symbol one object file of idlesim_core uses from another.
if [ -n "$objdir" ]; then
	(cd "$objdir" && find sim governors -name '*.o' | sort | while read -r o; do
		[ ! -f "$root/${o%.o}" ] || echo "$o" # not one left by a file that has moved since
	done | xargs nm -A | awk '{
		f = $1; sub(/\.o:.*/, "", f)
		if ($2 == "U") print f, "U", $3
		else if (NF == 3 && $2 ~ /^[TDBRVWG]$/) print f, "D", $3 }') | awk '
		$2 == "D" { def[$3] = $1; next }
		{ n++; uf[n] = $1; us[n] = $3 }
		END { for (i = 1; i <= n; i++) if ((us[i] in def) && def[us[i]] != uf[i])
			print "call", uf[i], def[us[i]], us[i] }' | sort -u >>"$tmp/deps"
fi

awk -v edges="$tmp/edges" '
	BEGIN {
		# What each layer may use besides itself (every layer below it, listed): "face" is
		# sim/libidlesim.c, the public library; "gov" governors/; "public" include/idlesim.h.
		a["base"] = ""
		a["machine"] = "base gov"
		a["trace"] = "base"
		a["import"] = "base machine trace gov"
		a["engine"] = "base machine trace gov"
		a["sched"] = "base machine trace engine gov"
		a["workload"] = "base machine trace engine sched gov"
		a["run"] = "base machine trace import engine sched workload gov"
		a["report"] = "base machine trace import engine sched workload run gov"
		a["study"] = "base machine trace import engine sched workload run report gov"
		a["cli"] = "base machine trace import engine sched workload run report study gov face"
		a["face"] = "base machine trace import engine sched workload run report study gov public"
		a["gov"] = "gov"
		for (l in a) { n = split(a[l], w, " "); for (i = 1; i <= n; i++) ok[l, w[i]] = 1; ok[l, l] = 1 }
		bad = 0
	}
	function layer(p,   s) {
		if (p == "sim/libidlesim.c") return "face"
		if (p ~ /^sim\/[^\/]+\/[^\/]+$/) { s = p; sub(/^sim\//, "", s); sub(/\/.*/, "", s); return s }
		if (p ~ /^governors\//) return "gov"
		if (p == "include/idlesim.h") return "public"
		return ""
	}
	function module(p) { sub(/\.[ch]$/, "", p); return p }
	function fail(msg) { print "check-layers: " msg; bad = 1 }
	$1 == "file" {
		if (layer($2) == "" || !(layer($2) in a)) {
			seen[$2]++
			fail($2 ": not in a layer folder (sim/LAYER/, docs/layout.md)")
		}
		next
	}
	$1 == "inc" {
		f = $2; from = layer(f); to = layer($4)
		if (from == "" || !(from in a)) {
			next # said once, above
		}
		if (to == "") {
			if (from != "gov") fail(f ":" $3 ": #include \"" $4 "\": name the file from the root (sim/LAYER/...)")
			next
		}
		if (!ok[from, to]) fail(f ":" $3 ": #include \"" $4 "\": layer " from " may not use layer " to)
		# Files of sim/ that include each other (headers, file by file).
		if (f ~ /^sim\// && $4 ~ /^sim\//) print f, $4 > edges
		next
	}
	$1 == "call" {
		from = layer($2); to = layer($3)
		if (from == "" || to == "") next
		if (!ok[from, to]) fail($2 " calls " $4 "() of " $3 ": layer " from " may not use layer " to)
		# Files of sim/ that call each other (object by object). governors/ is left out: its
		# ports register from their initcalls with the registry that calls those, as the
		# kernel does.
		if ($2 ~ /^sim\// && $3 ~ /^sim\//) print $2, $3 > edges
		next
	}
	END { exit bad }
' "$tmp/deps" || bad=1
bad=${bad:-0}

# Cycles: tsort names the files of every ring it finds.
touch "$tmp/edges"
if ! loops=$(sort -u "$tmp/edges" | tsort 2>&1 >/dev/null); then
	echo "check-layers: files of sim/ that depend on each other (a cycle):"
	echo "$loops" | sed -E 's/^tsort: -: input contains a loop:/  ring:/; s/^tsort: /    /'
	bad=1
fi
if [ "$bad" -eq 0 ]; then
	echo "check-layers: ok: $(grep -c '^inc' "$tmp/deps") includes$([ -n "$objdir" ] &&
		echo " and $(grep -c '^call' "$tmp/deps") calls") in the layers' directions, no cycle"
fi
exit "$bad"
