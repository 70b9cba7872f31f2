#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Line coverage of the test suite: build with gcov instrumentation in build-cov/ (Debug,
# -DIDLESIM_COVERAGE=ON), run ctest, and print the line coverage of sim/ and governors/
# per directory (gcovr, from Debian). The per-file table is left in build-cov/coverage.txt
# and an HTML report in build-cov/coverage/index.html.
#
#   scripts/coverage.sh [CTEST ARGS...]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-cov"

if ! command -v gcovr >/dev/null 2>&1; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "coverage.sh: gcovr is missing: apt-get install gcovr" >&2
		exit 2
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq gcovr >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get install -y -qq gcovr >/dev/null; }
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DIDLESIM_COVERAGE=ON >/dev/null
cmake --build "$build" --parallel "$jobs" >/dev/null
find "$build" -name '*.gcda' -delete
(cd "$build" && ctest --parallel "$jobs" "$@" >"$build/ctest.log" 2>&1) ||
	{ cat "$build/ctest.log"; echo "coverage.sh: tests failed (coverage below is partial)" >&2; }
tail -n 3 "$build/ctest.log" | head -n 1

filters=(--filter "$root/sim/" --filter "$root/governors/")
mkdir -p "$build/coverage"
gcovr --root "$root" --object-directory "$build" "${filters[@]}" \
	--txt "$build/coverage.txt" --json-summary "$build/coverage.json" \
	--html-details "$build/coverage/index.html" >/dev/null

python3 - "$build/coverage.json" <<'PY'
import json, os, sys
files = json.load(open(sys.argv[1]))["files"]
dirs = {}
for f in files:
    d = os.path.dirname(f["filename"]) or "."
    tot, cov = dirs.get(d, (0, 0))
    dirs[d] = (tot + f["line_total"], cov + f["line_covered"])
print("%-12s %8s %8s %7s" % ("directory", "lines", "covered", "%"))
T = C = 0
for d in sorted(dirs):
    tot, cov = dirs[d]
    T += tot
    C += cov
    print("%-12s %8d %8d %6.1f%%" % (d + "/", tot, cov, 100.0 * cov / tot if tot else 100))
print("%-12s %8d %8d %6.1f%%" % ("total", T, C, 100.0 * C / T if T else 100))
PY
echo "per file: $build/coverage.txt; annotated: $build/coverage/index.html"
