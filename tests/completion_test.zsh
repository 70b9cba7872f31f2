# SPDX-License-Identifier: GPL-2.0-only
# completion_test.zsh BIN SRC: the zsh completion (scripts/completion/_idlesim) with the
# completion system's builtins replaced by stubs that print what would be offered (zsh
# itself then filters by the typed prefix, so every candidate is listed here). Run by
# completion_test.sh where zsh is installed.
bin=$1
src=$2
fails=0
setopt extendedglob # [a-z]# below
compadd() {
	while [[ $1 == -* && $1 != -- ]]; do
		if [[ $1 == -a ]]; then
			print -l -- ${(P)2}
			shift 2
			continue
		fi
		shift
	done
	[[ $1 == -- ]] && shift
	(( $# )) && print -l -- "$@"
}
_files() { print -- "<files $*>" }
_alternative() {
	local s
	for s in "$@"; do
		print -- "<${s%%:*}>"
		[[ $s == *_values* ]] && print -l -- ${=${s##*_values -s , [a-z]# }}
	done
}
# offers WORD... -- EXPECTED...: what the function offers for the last word.
offers() {
	local -a w
	while [[ $1 != -- ]]; do w+=("$1"); shift; done
	shift
	words=("$bin" "${w[@]}")
	CURRENT=${#words}
	local got="$({ source "$src/scripts/completion/_idlesim" } | tr '\n' ' ')"
	if [[ "${got% }" != "$*" ]]; then
		print -u2 "FAIL: zsh: idlesim ${w[*]}<TAB>: got '${got% }', want '$*'"
		(( fails++ ))
	fi
}
offers '' -- run gen import report machines governors compare check sweep help --help --version
offers check --format '' -- text json junit tap
offers run -f '' -- text json csv ftrace perfetto
offers compare --style '' -- mmtests normalized
offers help '' -- run gen import report machines governors compare check sweep help
offers check - -- --format --output --threads --verbose --wake-latency -f -j -o -v
offers machines '' -- hsw bdw skl hsx bdx skx calibrate '<files -g *.json>'
offers run --machine '' -- '<machines>' hsw bdw skl hsx bdx skx '<files>'
offers run --wake-latency '' -- worst typical measured
exit $(( fails > 0 ))
