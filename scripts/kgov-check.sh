#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Check the governor files of any kernel tree against idlesim's ports, decision by decision:
# each FILE=PORT pair runs drivers/cpuidle/governors/FILE.c of TREE in lockstep with the
# port over the fidelity matrix of test_kgov_fidelity (tests/test_kgov.c, "fidelity-file";
# docs/kernel-governor-files.md). Nothing of the tree is copied; the modules go to the
# usual cache ($XDG_CACHE_HOME/idlesim).
#
#   scripts/kgov-check.sh TREE [FILE=PORT ...]
#
# TREE is a kernel source tree or its drivers/cpuidle/governors directory. Without pairs:
# teo=teo@6.19 menu=menu@6.19 ladder=ladder@6.12 (the newest ports). The build tree is
# $IDLESIM_BUILD (default: build/ of this checkout; test_kgov must be built). Exit status:
# 0 if every file agrees with its port whenever a timer is pending, 1 if one does not, 2 on
# bad arguments.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${IDLESIM_BUILD:-$root/build}
bin="$build/tests/test_kgov"

if [ $# -lt 1 ]; then
	echo "usage: scripts/kgov-check.sh TREE [FILE=PORT ...]  (e.g. teo=teo@5.14)" >&2
	exit 2
fi
tree=$1
shift
dir="$tree/drivers/cpuidle/governors"
[ -d "$dir" ] || dir="$tree"
if [ ! -x "$bin" ]; then
	echo "kgov-check.sh: $bin is missing (cmake --build $build --target test_kgov)" >&2
	exit 2
fi
[ $# -gt 0 ] || set -- teo=teo@6.19 menu=menu@6.19 ladder=ladder@6.12

status=0
for pair in "$@"; do
	file=${pair%%=*}
	port=${pair#*=}
	if [ "$file" = "$pair" ] || [ -z "$port" ]; then
		echo "kgov-check.sh: '$pair' is not FILE=PORT" >&2
		exit 2
	fi
	path="$dir/$file.c"
	if [ ! -r "$path" ]; then
		echo "kgov-check.sh: $path: no such file" >&2
		status=1
		continue
	fi
	echo "== $path against $port"
	"$bin" fidelity-file "$path" "$port" || status=1
done
exit $status
