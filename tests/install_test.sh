#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# install_test.sh SRC BUILD [CMAKE]: `cmake --install BUILD` into a temporary prefix, move the
# prefix elsewhere, and run from there as a user would: the demo command (`idlesim run`)
# must find the installed data relative to the binary (sim/base/datadir.h) and print what the
# build tree's binary prints; `--governor PATH.c` must compile against the installed
# compatibility layer (skipped, loudly, without a C compiler: exit 77); no path of the
# source or build tree may be in the binary for data lookup; the environment overrides
# ($IDLESIM_DATA_DIR, $IDLESIM_KCOMPAT_DIR) must still win.
set -eu
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
cmake=${3:-cmake}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset IDLESIM_DATA_DIR IDLESIM_KCOMPAT_DIR
export XDG_CACHE_HOME="$tmp/cache"
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

"$cmake" --install "$build" --prefix "$tmp/first" >"$tmp/install.log" || {
	cat "$tmp/install.log"
	fail "cmake --install"
}
mv "$tmp/first" "$tmp/moved"
p="$tmp/moved"
for f in bin/idlesim share/idlesim/traces/demo.trace share/idlesim/traces/expect-example.json \
	share/idlesim/traces/scenarios/periodic-timer.trace share/idlesim/kcompat/kmod.c \
	share/idlesim/kcompat/include/linux/cpuidle.h share/bash-completion/completions/idlesim \
	share/zsh/site-functions/_idlesim; do
	[ -f "$p/$f" ] || fail "not installed: $f"
done
if grep -q '^IDLESIM_MAN:BOOL=ON' "$build/CMakeCache.txt"; then
	[ -f "$p/share/man/man1/idlesim.1" ] && [ -f "$p/share/man/man1/idlesim-run.1" ] ||
		fail "man pages not installed"
fi

# No compiled-in path of the trees for data: the source's traces/ and the build tree's
# layer (the two paths binaries had compiled in), nor the build tree's data directory.
# (Debug info and sanitizer diagnostics name source files, kcompat headers among them.)
for s in "$src/traces" "$build/idlesim-data" "$build/kcompat"; do
	if grep -aqF "$s" "$p/bin/idlesim"; then
		fail "the installed binary contains $s"
	fi
done

# The demo command, from a directory that has no traces/ of its own.
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"
"$p/bin/idlesim" run >"$tmp/installed.txt" || fail "installed idlesim run"
"$build/idlesim" run >"$tmp/built.txt" || fail "build-tree idlesim run"
cmp -s "$tmp/installed.txt" "$tmp/built.txt" || {
	diff "$tmp/built.txt" "$tmp/installed.txt" | head -n 20
	fail "the installed binary's demo differs from the build tree's"
}
grep -q '^traces/demo.trace  skl ' "$tmp/installed.txt" || fail "no demo trace row"
"$p/bin/idlesim" check "$p/share/idlesim/traces/expect-example.json" >/dev/null ||
	fail "check on the installed expectation example"

# Without its data, the moved binary must fail (found nothing else, e.g. the source tree).
mv "$p/share/idlesim" "$p/share/idlesim.off"
if "$p/bin/idlesim" run >"$tmp/nodata.txt" 2>&1; then
	fail "ran without its data directory: it found data elsewhere"
fi
grep -q 'demo.trace' "$tmp/nodata.txt" || fail "no message naming the demo trace"
# $IDLESIM_DATA_DIR wins.
IDLESIM_DATA_DIR="$p/share/idlesim.off" "$p/bin/idlesim" run >"$tmp/env.txt" ||
	fail "IDLESIM_DATA_DIR"
cmp -s "$tmp/env.txt" "$tmp/built.txt" || fail "IDLESIM_DATA_DIR: not the demo output"
mv "$p/share/idlesim.off" "$p/share/idlesim"

# --governor PATH.c against the installed layer: a governor file of ours, copied here.
if ! command -v "${IDLESIM_CC:-cc}" >/dev/null 2>&1; then
	echo "SKIPPED: no C compiler (${IDLESIM_CC:-cc}): --governor PATH.c from the installed tree was not tested" >&2
	exit 77
fi
mkdir "$tmp/gov"
cp "$src/tests/kgov/toy.c" "$src/tests/kgov/toy.h" "$tmp/gov/"
"$p/bin/idlesim" run -m skl -g "$tmp/gov/toy.c" >"$tmp/toy.txt" || fail "--governor toy.c"
grep -q ' toy@file:toy.c ' "$tmp/toy.txt" || fail "no toy@file:toy.c row"
# $IDLESIM_KCOMPAT_DIR wins: a missing layer is an error.
rm -rf "$XDG_CACHE_HOME"
if IDLESIM_KCOMPAT_DIR="$tmp/none" "$p/bin/idlesim" run -m skl -g "$tmp/gov/toy.c" \
	>/dev/null 2>"$tmp/kc.txt"; then
	fail "IDLESIM_KCOMPAT_DIR=$tmp/none was not used"
fi
grep -q "$tmp/none" "$tmp/kc.txt" || fail "the error does not name IDLESIM_KCOMPAT_DIR's path"
echo "install_test: ok ($p)"
