#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The command x option table (tests/cli_options.tsv) against the binary:
#  1. every option `idlesim help CMD` lists has a row (a new option must say which formats
#     use it: none is accepted in silence);
#  2. an option given with a format that does not use it is an error naming it, exit 2;
#     with a format that uses it, it is no such error.
#   tests/cli_options_test.sh BIN SRCDIR
set -uo pipefail
bin=$1
src=$2
table="$src/tests/cli_options.tsv"
cd "$src" || exit 1
pass=0
failed=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

declare -A formats=([run]="text json csv ftrace perfetto" [compare]="text json csv html"
	[check]="text json junit tap" [import]="text json" [diff]="text json csv junit tap html"
	[validate]="text json")
# Arguments that make each command otherwise valid (so the error is the option's).
declare -A base=([run]="-t traces/scenarios/irq-fixed.trace -m skl -g oracle"
	[compare]="--workload tbench -g menu -n 1 -j 1 --duration-s 0.01"
	[check]="traces/expect-example.json -j 1" [import]="tests/import/scenario.ftrace"
	[diff]="-t tests/diff/three-timers.trace -m skl -g menu -g teo"
	[validate]="tests/import/scenario.ftrace -g menu -m skl")

# 1. Every option of the help texts is in the table.
for cmd in run report gen import convert compare check sweep diff validate; do
	while read -r o; do
		if awk -F'\t' -v c="$cmd" -v o="$o" '$1 == c && $2 == o { f = 1 } END { exit !f }' \
			"$table"; then ok; else bad "$cmd $o: listed by 'idlesim help $cmd' but not in tests/cli_options.tsv"; fi
	done < <("$bin" help "$cmd" | awk '/^ +-/ { sub(/   +.*/, ""); print }' |
		grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
done

# 2. Formats that do not use an option refuse it by name; one that uses it does not.
while IFS=$'\t' read -r cmd o val used; do
	case "$cmd" in '#'* | '') continue ;; esac
	[ "$used" = "*" ] && continue
	args=("$o")
	[ "$val" = "-" ] || args+=("$val")
	for f in ${formats[$cmd]}; do
		# shellcheck disable=SC2086
		err=$("$bin" "$cmd" ${base[$cmd]} "${args[@]}" --format "$f" -o /dev/null 2>&1 >/dev/null)
		rc=$?
		if [[ " ${used//,/ } " == *" $f "* ]]; then
			if [[ "$err" == *"$cmd $o:"* ]]; then
				bad "$cmd $o --format $f: refused, but $f uses it: $err"
			else ok; fi
		elif [ "$rc" -eq 2 ] && [[ "$err" == *"idlesim: $cmd $o: "* ]]; then
			ok
		else
			bad "$cmd $o --format $f: exit $rc, wanted 2 and 'idlesim: $cmd $o: ...'; got: $err"
		fi
	done
done <"$table"
echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
