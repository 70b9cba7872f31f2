#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Build idlesim with warnings as errors and run the whole test suite.
set -euo pipefail
# shellcheck source=scripts/setup.sh
. "$(dirname "$0")/setup.sh"
idlesim_install_deps
idlesim_install_test_deps
idlesim_build
cd "$IDLESIM_BUILD"
rc=0
ctest --output-on-failure --parallel "$(nproc 2>/dev/null || echo 2)" "$@" || rc=$?
idlesim_report_skips "$IDLESIM_BUILD" || true
exit "$rc"
