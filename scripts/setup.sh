#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Shared by demo.sh and test.sh (sourced, not run): install what a fresh Debian 12 lacks,
# then configure and build idlesim in build/ or $IDLESIM_BUILD (Release, warnings as errors).
set -euo pipefail

IDLESIM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IDLESIM_BUILD=${IDLESIM_BUILD:-$IDLESIM_ROOT/build} # the environment may name another
IDLESIM_PACKAGES=(build-essential cmake pkg-config libjansson-dev libcmocka-dev libarchive-dev zlib1g-dev)

idlesim_missing_deps() {
	local missing=()
	command -v cc >/dev/null 2>&1 || missing+=(build-essential)
	command -v cmake >/dev/null 2>&1 || missing+=(cmake)
	command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
	if command -v pkg-config >/dev/null 2>&1; then
		pkg-config --exists jansson || missing+=(libjansson-dev)
		pkg-config --exists cmocka || missing+=(libcmocka-dev)
		pkg-config --exists libarchive || missing+=(libarchive-dev)
		pkg-config --exists zlib || missing+=(zlib1g-dev)
	else
		missing+=(libjansson-dev libcmocka-dev libarchive-dev zlib1g-dev)
	fi
	echo "${missing[@]:-}"
}

# Optional: trace.dat import (idlesim import, CMake option IDLESIM_TRACEDAT). Debian's
# libtracecmd-dev needs the other two for its pkg-config file. Installed when run as root.
IDLESIM_OPTIONAL_PACKAGES=(libtracecmd-dev libtraceevent-dev libtracefs-dev)

idlesim_install_deps() {
	local missing
	missing=$(idlesim_missing_deps)
	if [ "$(id -u)" -eq 0 ] && ! { command -v pkg-config >/dev/null 2>&1 &&
		pkg-config --exists libtracecmd 2>/dev/null; }; then
		missing="${missing:+$missing }${IDLESIM_OPTIONAL_PACKAGES[*]}"
	fi
	# Optional too: the man pages (CMake option IDLESIM_MAN) are made with help2man.
	if [ "$(id -u)" -eq 0 ] && ! command -v help2man >/dev/null 2>&1; then
		missing="${missing:+$missing }help2man"
	fi
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "idlesim: missing build dependencies: $missing" >&2
		echo "idlesim: run this script as root, or: sudo apt-get install ${IDLESIM_PACKAGES[*]}" >&2
		exit 2
	fi
	echo "idlesim: installing $missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq $missing >/dev/null
}

# For the test run only (test.sh, not demo.sh): the browser test (tests/test_browser.c)
# renders the HTML report in headless Chromium and reads its screenshot with libpng; the
# kernel-file fidelity test (test_kgov_fidelity) compiles the menu, teo and ladder files of
# Debian's kernel source packages (tarballs under /usr/src). Installed when run as root;
# without them those tests say loudly that they were skipped.
idlesim_install_test_pkgs() {
	local what="$1"; shift
	if [ "$(id -u)" -ne 0 ]; then
		echo "idlesim: WARNING: $* missing: $what will be SKIPPED (sudo apt-get install $*)" >&2
		return 0
	fi
	echo "idlesim: installing $* (for $what)" >&2
	{ DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1 ||
		{ apt-get update -qq &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; }; } ||
		echo "idlesim: WARNING: could not install $*: $what will be SKIPPED" >&2
}

idlesim_install_test_deps() {
	{ [ -x /usr/bin/chromium ] && [ -f /usr/include/png.h ]; } ||
		idlesim_install_test_pkgs test_browser chromium libpng-dev
	{ [ -f /usr/src/linux-source-6.1.tar.xz ] && [ -f /usr/src/linux-source-6.12.tar.xz ]; } ||
		idlesim_install_test_pkgs test_kgov_fidelity linux-source-6.1 linux-source-6.12
	# the Python binding's tests (pytest, pip/cmake installs, the notebook): Debian's python3
	/usr/bin/python3 -c 'import numpy, pandas, matplotlib, pytest, nbclient, nbformat, ipykernel, venv, ensurepip' \
		>/dev/null 2>&1 ||
		idlesim_install_test_pkgs python_pytest python3-numpy python3-pandas python3-matplotlib \
			python3-pytest python3-nbclient python3-nbformat python3-ipykernel python3-venv
	return 0
}

# The build's "[ 45%] Building C object ..." lines as one line redrawn in place on a
# terminal, one line per tenth of the build elsewhere (CI logs); every other line (a
# compiler's error or warning) as it is.
idlesim_progress() {
	local line pct shown=-10 tty=false
	[ -t 2 ] && tty=true
	while IFS= read -r line; do
		if [[ $line =~ ^\[\ *([0-9]+)%\]\ (.*)$ ]]; then
			pct=${BASH_REMATCH[1]}
			if $tty; then
				printf '\r\033[K[%3d%%] %.70s' "$pct" "${BASH_REMATCH[2]}" >&2
			elif ((pct >= shown + 10)); then
				shown=$pct
				echo "[$pct%] ${BASH_REMATCH[2]}" >&2
			fi
		else
			$tty && printf '\r\033[K' >&2
			echo "$line" >&2
		fi
	done
	$tty && printf '\r\033[K' >&2
	return 0
}

# Configure build/ (printing the configure summary: trace.dat import, man pages) and build
# the given targets, all without any, with progress.
idlesim_build() {
	local log="$IDLESIM_BUILD/configure.log" targets=()
	local t
	for t in "$@"; do
		targets+=(--target "$t")
	done
	mkdir -p "$IDLESIM_BUILD"
	echo "idlesim: configuring $IDLESIM_BUILD" >&2
	if ! cmake -S "$IDLESIM_ROOT" -B "$IDLESIM_BUILD" -DCMAKE_BUILD_TYPE=Release \
		-DIDLESIM_WERROR=ON >"$log" 2>&1; then
		cat "$log" >&2
		exit 1
	fi
	grep '^-- idlesim: ' "$log" | sed 's/^-- /  /' >&2 || true
	echo "idlesim: building ${*:-everything} (the first build takes a minute)" >&2
	cmake --build "$IDLESIM_BUILD" --parallel "$(nproc 2>/dev/null || echo 2)" "${targets[@]}" \
		2>&1 | idlesim_progress
}

# Tests that could not run: ctest only lists them as "Skipped" (exit 77, see
# tests/CMakeLists.txt) and counts a cmocka skip() as a pass, so repeat, loudly, what each
# said. Prints nothing when every test ran; returns 1 if some did not.
idlesim_report_skips() {
	local log="$1/Testing/Temporary/LastTest.log"
	[ -f "$log" ] || return 0
	grep -h -e '^SKIPPED: ' -e '^\[  SKIPPED \] test_' "$log" | sort -u |
		sed 's/^/idlesim: WARNING: /' | grep . >&2 || return 0
	return 1
}

# For the benchmarks that run build/bench_*: BUILD (the build directory), built here unless
# the caller set it.
idlesim_bench_build() {
	if [ -z "${BUILD:-}" ]; then
		idlesim_install_deps
		idlesim_build
		BUILD=$IDLESIM_BUILD
	fi
}

# For the bench scripts that read `idlesim compare` JSON: IDLESIM is the binary given in the
# environment, else build/idlesim built as the README commands build it; jq must be there.
# $1 names the calling script in the message.
idlesim_bench_binary() {
	if [ -z "${IDLESIM:-}" ]; then
		idlesim_install_deps
		idlesim_build
		IDLESIM="$IDLESIM_BUILD/idlesim"
	fi
	command -v jq >/dev/null || { echo "$1: needs jq" >&2; exit 2; }
}
