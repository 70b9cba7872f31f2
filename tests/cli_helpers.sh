# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the binary's shell tests (diff, validate, snapshot): a temporary directory
# removed at exit, the pass/fail counters and the checks they share.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
failed=0
ok() { pass=$((pass + 1)); }
bad() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}
# has FILE TEXT: FILE contains TEXT
has() { grep -qF -- "$2" "$1"; }
# top FILE KEY: the first (top-level) value of "KEY" in a JSON report
top() { grep -m1 "\"$2\":" "$1" | sed 's/.*: //; s/,$//'; }
