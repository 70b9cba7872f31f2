#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# man_test.sh BIN MANDIR: idlesim.1 and one idlesim-CMD.1 for each command `BIN --help`
# lists, each mentioning every option that `BIN help CMD` lists (the pages are made from
# the help texts, scripts/mkman.sh: this catches a page that was not remade), and each
# rendering without a warning where man(1) is installed.
set -eu
bin=$1
dir=$2
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
# The roff source as text: "\-\-per\-cpu" -> "--per-cpu", fonts dropped.
plain() {
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$1"
}

[ -f "$dir/idlesim.1" ] || fail "no idlesim.1"
cmds=$("$bin" --help | awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { f = 0 }')
[ -n "$cmds" ] || fail "idlesim --help lists no commands"
n=0
for c in $cmds; do
	page="$dir/idlesim-$c.1"
	[ -f "$page" ] || fail "no man page for $c ($page)"
	plain "$dir/idlesim.1" | grep -q "idlesim-$c" || fail "idlesim.1 does not name idlesim-$c"
	for o in $("$bin" help "$c" | grep -o -e '--[a-z][a-z0-9-]*' -e '^ *-[a-zA-Z],' | tr -d ' ,' | sort -u); do
		plain "$page" | grep -q -e "$o" || fail "idlesim-$c.1 does not mention $o"
		n=$((n + 1))
	done
	if command -v man >/dev/null 2>&1; then
		w=$(MANWIDTH=100 man --warnings -l "$page" 2>&1 >/dev/null) || fail "man -l $page"
		[ -z "$w" ] || fail "man -l $page warns: $w"
	fi
done
[ "$n" -gt 50 ] || fail "only $n options checked: the help texts were not read"
echo "man_test: ok ($n options in $(echo $cmds | wc -w) pages)"
