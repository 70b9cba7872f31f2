#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Fuzz every reader of idlesim with libFuzzer (clang, AddressSanitizer, UBSan).
#
#   scripts/fuzz.sh [SECONDS] [HARNESS...]
#
# Builds the harnesses of tests/fuzz in build-fuzz/ (clang, -DIDLESIM_FUZZ=ON) and runs each
# for SECONDS (default 60), one after the other: all of them, or the ones named
# (fuzz_trace, fuzz_machine, fuzz_import, fuzz_import_ftrace, ...). Each starts from its seed
# corpus tests/fuzz/HARNESS/ (read, never written) plus what earlier runs found, kept in
# build-fuzz/corpus/HARNESS/; tests/fuzz/HARNESS.dict is its dictionary when there is one.
# A crash, leak, sanitizer report or timeout leaves the input in build-fuzz/crashes/ and
# makes the script exit 1 after the other harnesses ran. Once the bug is fixed, copy the
# input into tests/fuzz/HARNESS/ as a regression case: every ctest replays those corpora.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-fuzz"
secs=${1:-60}
[ $# -gt 0 ] && shift
case "$secs" in
'' | *[!0-9]*)
	echo "usage: scripts/fuzz.sh [SECONDS] [HARNESS...]" >&2
	exit 2
	;;
esac

if ! command -v clang >/dev/null 2>&1; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "fuzz.sh: clang is missing: apt-get install clang" >&2
		exit 2
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq clang >/dev/null
fi

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
	-DCMAKE_C_FLAGS="-O1 -g" -DIDLESIM_FUZZ=ON -DIDLESIM_TESTS=OFF >/dev/null

if [ $# -gt 0 ]; then
	harnesses=("$@")
else
	harnesses=()
	for d in "$root"/tests/fuzz/fuzz_*/; do
		harnesses+=("$(basename "$d")")
	done
fi
cmake --build "$build" --parallel "$(nproc 2>/dev/null || echo 2)" --target "${harnesses[@]}" \
	>/dev/null

mkdir -p "$build/crashes"
# what libtracecmd and libtraceevent leak themselves (fuzz_import_dat, fuzz_import on trace.dat)
export LSAN_OPTIONS="suppressions=$root/tests/lsan-libtracecmd.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
failed=()
for h in "${harnesses[@]}"; do
	dict=()
	if [ -f "$root/tests/fuzz/$h.dict" ]; then
		dict=("-dict=$root/tests/fuzz/$h.dict")
	elif [[ $h == fuzz_import* ]]; then
		dict=("-dict=$root/tests/fuzz/fuzz_import.dict")
	fi
	mkdir -p "$build/corpus/$h"
	echo "== $h: ${secs}s" >&2
	if ! "$build/$h" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$build/crashes/$h-" "${dict[@]}" \
		"$build/corpus/$h" "$root/tests/fuzz/$h" 2>"$build/$h.log"; then
		failed+=("$h")
		grep -E "^(==[0-9]+==ERROR|SUMMARY|.*runtime error)|Test unit written" \
			"$build/$h.log" >&2 || tail -20 "$build/$h.log" >&2
	fi
	grep -E "^stat::(number_of_executed_units|new_units_added|peak_rss_mb)" \
		"$build/$h.log" | sed "s/^/  /" >&2 || true
done

if [ ${#failed[@]} -gt 0 ]; then
	echo "fuzz.sh: failures in: ${failed[*]} (inputs in $build/crashes/, logs in $build/*.log)" >&2
	exit 1
fi
echo "fuzz.sh: ${#harnesses[@]} harnesses, ${secs}s each, no failure" >&2
