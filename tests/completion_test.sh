#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# completion_test.sh BIN SRC: the bash completion (scripts/completion/idlesim.bash) on
# partial command lines, as bash would call it; the expected words are the commands and
# options of sim/cli/*.c and the names in governors/*.c (.name) and
# sim/machine/cstates_intel.c. The zsh one is checked where zsh is installed
# (completion_test.zsh).
set -u # not -e: compgen fails when nothing matches, as completion functions expect
bin=$1
src=$(cd "$2" && pwd)
# shellcheck source=scripts/completion/idlesim.bash
. "$src/scripts/completion/idlesim.bash"
fails=0
# complete WORD... -- EXPECTED...: the completions of the line, the last word being typed.
complete_is() {
	local words=() want
	while [ "$1" != "--" ]; do
		words+=("$1")
		shift
	done
	shift
	want="$*"
	COMP_WORDS=("$bin" "${words[@]}")
	COMP_CWORD=${#words[@]}
	COMPREPLY=()
	_idlesim
	local got
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//')
	want=$(printf '%s\n' $want | sort | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" != "$want" ]; then
		echo "FAIL: idlesim ${words[*]}<TAB>: got '$got', want '$want'" >&2
		fails=$((fails + 1))
	fi
}

cd "$(mktemp -d)" # no file names to complete
complete_is ru -- run
complete_is c -- compare check convert
complete_is --v -- --version
complete_is run --gov -- --governor --governor-timeout
complete_is check - -- --format --governor-timeout --housekeeping --output --threads --verbose --wake-latency -f -j -o -v
complete_is run --governor teo@6 -- teo@6.12 teo@6.19
complete_is run -g menu,teo@5 -- menu,teo@5.1 menu,teo@5.10 menu,teo@5.14
complete_is run --governor = lad -- ladder ladder@6.12
complete_is run --machine sk -- skl skx
complete_is compare --workload net -- netperf-udp
complete_is run --format p -- perfetto
complete_is check -f j -- json junit
complete_is compare --style "" -- mmtests normalized
complete_is run --wake-latency t -- typical
complete_is help sw -- sweep
complete_is sweep m -- merge
complete_is machines hs -- hsw hsx
rmdir "$PWD"

if command -v zsh >/dev/null 2>&1; then
	zsh -n "$src/scripts/completion/_idlesim" || {
		echo "FAIL: zsh -n _idlesim" >&2
		fails=$((fails + 1))
	}
	zsh -f "$src/tests/completion_test.zsh" "$bin" "$src" || fails=$((fails + 1))
else
	echo "note: zsh not installed: _idlesim was not checked" >&2
fi
[ "$fails" -eq 0 ] || exit 1
echo "completion_test: ok"
