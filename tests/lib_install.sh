#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# lib_install.sh - libidlesim as a user of an installed tree sees it (tests/CMakeLists.txt).
#
#   lib_install.sh symbols BUILD_DIR SOURCE_DIR
#	libidlesim.so and libidlesim.a define exactly the functions include/idlesim.h
#	declares with IDLESIM_API, and the shared library's SONAME is libidlesim.so.MAJOR.
#   lib_install.sh embed BUILD_DIR SOURCE_DIR IDLESIM_BINARY CC [CFLAGS...]
#	`cmake --install` of the library component into a temporary prefix, then moved (the
#	.pc file finds the prefix relative to itself); examples/embed.c,
#	copied out of the source tree, built with pkg-config of that prefix only, against the
#	shared and against the static library; each run's per-state usage, time, above and below
#	equal `idlesim run --format csv` on the same trace and machine. CFLAGS: the build's
#	instrumentation (sanitizers, coverage), which a program linking the library needs too.
set -eu

fail() {
	echo "lib_install.sh: $*" >&2
	exit 1
}

mode=$1 build=$2 src=$3
shift 3

# The public functions, from the header: every "IDLESIM_API type idlesim_name(".
api_names() {
	grep -v '^#' "$src/include/idlesim.h" | tr '\n' ' ' | grep -o 'IDLESIM_API [^(;]*(' |
		sed 's/($//; s/.*[ *]//' | sort -u
}

if [ "$mode" = symbols ]; then
	api_names >"$build/lib-api.txt"
	[ -s "$build/lib-api.txt" ] || fail "no IDLESIM_API function found in include/idlesim.h"
	so=$(readlink -f "$build/libidlesim.so")
	nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRVWiu]$/ { print $3 }' | sort -u >"$build/lib-so.txt"
	diff -u "$build/lib-api.txt" "$build/lib-so.txt" ||
		fail "libidlesim.so exports other functions than include/idlesim.h declares (- header, + library)"
	if [ -f "$build/libidlesim.a" ]; then
		nm --defined-only "$build/libidlesim.a" | awk '$2 ~ /^[A-Z]$/ { print $3 }' | sort -u \
			>"$build/lib-a.txt"
		diff -u "$build/lib-api.txt" "$build/lib-a.txt" ||
			fail "libidlesim.a defines other global symbols than include/idlesim.h declares"
	fi
	major=$(sed -n 's/^#define IDLESIM_VERSION_MAJOR \([0-9]*\)$/\1/p' "$src/include/idlesim.h")
	readelf -d "$so" | grep -q "SONAME.*\[libidlesim\.so\.$major\]" ||
		fail "the SONAME of $so is not libidlesim.so.$major"
	echo "libidlesim exports the $(wc -l <"$build/lib-api.txt") functions of include/idlesim.h"
	exit 0
fi

[ "$mode" = embed ] || fail "unknown mode '$mode'"
idlesim=$1 cc=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
prefix=$tmp/prefix

cmake --install "$build" --prefix "$prefix" --component library >"$tmp/install.log" ||
	{ cat "$tmp/install.log" >&2; fail "cmake --install failed"; }
# The installed tree is relocatable: everything below runs from a moved prefix.
mv "$prefix" "$tmp/moved"
prefix=$tmp/moved
pcdir=$(dirname "$(find "$prefix" -name idlesim.pc | head -n 1)")
[ -f "$pcdir/idlesim.pc" ] || fail "no idlesim.pc installed under $prefix"
export PKG_CONFIG_PATH="$pcdir"
pcprefix=$(pkg-config --variable=prefix idlesim)
[ "$(cd "$pcprefix" 2>/dev/null && pwd -P)" = "$(cd "$prefix" && pwd -P)" ] ||
	fail "idlesim.pc names prefix $pcprefix, not the moved $prefix"
libdir=$(pkg-config --variable=libdir idlesim)

# Only the installed tree: the example and the trace are copied away from the sources.
mkdir "$tmp/user"
cp "$src/examples/embed.c" "$src/traces/demo.trace" "$tmp/user/"
cd "$tmp/user"
warn="-std=c11 -Wall -Wextra -Werror -pedantic"

# shellcheck disable=SC2046,SC2086 # word splitting of the flags is wanted
$cc $warn "$@" embed.c $(pkg-config --cflags --libs idlesim) -o embed-shared
readelf -d embed-shared | grep -q 'NEEDED.*libidlesim\.so\.' ||
	fail "embed-shared does not load libidlesim.so"
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ./embed-shared demo.trace skl \
	>out-shared.txt || fail "embed-shared failed"
kinds=shared

if [ -f "$libdir/libidlesim.a" ]; then
	# -lidlesim would pick the .so: the archive by name, and the rest of --static --libs.
	libs=$(pkg-config --static --libs idlesim | sed 's/-lidlesim\b//')
	# shellcheck disable=SC2046,SC2086
	$cc $warn "$@" embed.c $(pkg-config --cflags idlesim) "$libdir/libidlesim.a" $libs \
		-o embed-static
	if readelf -d embed-static | grep -q 'NEEDED.*libidlesim'; then
		fail "embed-static loads libidlesim.so"
	fi
	./embed-static demo.trace skl >out-static.txt || fail "embed-static failed"
	kinds="$kinds static"
fi

# idlesim run's totals (cpu "all") as "governor state usage time_ns above below".
"$idlesim" run --trace demo.trace --machine skl --governor menu@6.19,teo@6.19 --format csv |
	awk -F, 'NR > 1 && $5 == "all" && $6 != "total" { print $3, $6, $7, $8, $9, $10 }' >want.txt
[ "$(wc -l <want.txt)" -eq 18 ] || fail "idlesim run gave $(wc -l <want.txt) state rows, not 2 x 9"
for k in $kinds; do
	awk '$1 ~ /@[0-9.]+$/ && NF >= 6 { print $1, $2, $3, $4, $5, $6 }' "out-$k.txt" >"got-$k.txt"
	diff -u want.txt "got-$k.txt" || fail "embed ($k library) differs from idlesim run"
done
echo "embed.c against the installed $kinds library: the same 18 state rows as idlesim run"
