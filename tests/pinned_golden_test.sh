#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `--placement pinned` reproduces, byte for byte, what `compare` printed before the
# scheduler existed: tests/golden/pinned-* were written by the version before it
# (dcddb89) with the same commands without --placement.
#   tests/pinned_golden_test.sh BIN SRCDIR
set -uo pipefail
bin=$1
golden=$2/tests/golden
failed=0
# Parameters added after dcddb89 are set to the value that is that version's model and
# their one line is taken out: dbench's flush-spread-pct 0 (a flush exactly every
# flush-every-th operation, the model before the option).
added='^      "flush-spread-pct": 0,$'
check() { # NAME ARGS...
	local name=$1
	shift
	if ! "$bin" compare "$@" --placement pinned | grep -v -- "$added" | cmp -s - "$golden/$name"; then
		echo "FAIL: $name differs from the pre-scheduler output:"
		"$bin" compare "$@" --placement pinned | grep -v -- "$added" | diff "$golden/$name" - | head -20
		failed=$((failed + 1))
	fi
}
check pinned-tbench.txt --workload tbench --clients 1,2 -m skl -g menu@4.18,teo@5.1 --iterations 2 --duration-s 0.2
check pinned-dbench.json --workload dbench --clients 1,4 -m skl -g menu,teo --iterations 2 --duration-s 0.2 -f json \
	--flush-spread-pct 0
check pinned-hackbench.csv --workload hackbench -m skl -g menu,teo --iterations 2 --duration-s 0.1 -f csv
check pinned-netperf-udp.txt --workload netperf-udp --msg-bytes 64,1024 -m hsx -g menu,teo --iterations 2 --duration-s 0.1
check pinned-cyclictest.txt --workload cyclictest --cpus 4 -m skl -g menu,ladder --iterations 2 --duration-s 0.2
check pinned-sockperf.json --workload sockperf -m skl -g menu,teo --iterations 2 --duration-s 0.2 -f json
[ "$failed" -eq 0 ] && echo "pinned_golden_test: 6 outputs byte for byte"
exit $((failed > 0))
