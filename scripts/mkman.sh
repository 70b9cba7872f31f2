#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# mkman.sh BIN OUTDIR: write idlesim.1 and idlesim-CMD.1, one for each command that
# `BIN --help` lists, into OUTDIR, with help2man from the binary's own help texts
# (sim/cli/cli_help.c): the help and the man pages have one source, so they cannot drift
# apart. Run by the build (CMakeLists.txt, "man pages"); tests/man_test.sh checks the result.
set -eu
bin=$1
out=$2
ver=$("$bin" --version | awk '{ print $2 }')
wrap="$out/wrap"
mkdir -p "$wrap"

# "  run        replay traces ..." -> "run"; "  help CMD   help for a command" -> "help"
cmds=$("$bin" --help | awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { f = 0 }')
summary() {
	"$bin" --help | awk -v c="$1" '/^commands:/ { f = 1; next }
		f && $1 == c { sub(/^ *[a-z]+ +(CMD +)?/, ""); print; exit }'
}

see_also=".BR idlesim (1)"
for c in $cmds; do
	see_also="$see_also,
.BR idlesim\\-$c (1)"
done

cat >"$wrap/top.h2m" <<EOT
[ENVIRONMENT]
.TP
.B IDLESIM_DATA_DIR
the data directory (traces/, kcompat/); default: ../share/idlesim next to the binary
.TP
.B IDLESIM_KCOMPAT_DIR
the kernel-compatibility layer for \\-\\-governor PATH.c; default: kcompat/ in the data directory
.TP
.B IDLESIM_CC
the compiler for \\-\\-governor PATH.c (default: cc)
.TP
.B IDLESIM_GOVERNOR_TIMEOUT
the limit, in seconds, of one call into a \\-\\-governor PATH.c governor (default: 5; 0: none)
[FILES]
.TP
.I PREFIX/share/idlesim/traces/demo.trace
the default trace of run and report
.TP
.I PREFIX/share/idlesim/traces/expect-example.json
an expectation file for idlesim check
[SEE ALSO]
$see_also
EOT
printf '[SEE ALSO]\n%s\n' "$see_also" >"$wrap/sub.h2m"

help2man --no-info --no-discard-stderr --version-string="$ver" --include="$wrap/top.h2m" \
	--name="a simulator of the Linux cpuidle governors" --output="$out/idlesim.1" "$bin"
for c in $cmds; do
	# A program named idlesim-CMD, so that the page's name is (help2man takes it from the
	# program's file name).
	printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$bin" "$c" >"$wrap/idlesim-$c"
	chmod +x "$wrap/idlesim-$c"
	help2man --no-info --no-discard-stderr --version-string="$ver" --include="$wrap/sub.h2m" \
		--name="$(summary "$c")" --output="$out/idlesim-$c.1" "$wrap/idlesim-$c"
done
