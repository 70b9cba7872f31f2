#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Build idlesim (the binary only, with progress; scripts/test.sh builds the rest) and run
# the default comparison: the demo trace on the hsx, bdx and skl machine tables through
# every registered governor. Extra arguments go to `idlesim run`.
set -euo pipefail
# shellcheck source=scripts/setup.sh
. "$(dirname "$0")/setup.sh"
idlesim_install_deps
idlesim_build idlesim
exec "$IDLESIM_BUILD/idlesim" run "$@"
