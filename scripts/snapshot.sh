#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A sysfs snapshot of this machine for idlesim (docs/machines.md, "Your own machine"): the
# files of /sys/devices/system/cpu that describe the CPUs and their idle states, the
# parameters of the intel_idle, haltpoll and cpuidle_haltpoll modules and the hybrid CPU
# lists, as a .tar.gz whose members are sys/devices/system/cpu/..., sys/module/... and
# sys/devices/cpu_core/cpus. Needs only coreutils and tar; runs as any user.
#
#   scripts/snapshot.sh [OUT.tar.gz]        (default: snapshot-HOSTNAME.tar.gz)
#
# then: idlesim machines import OUT.tar.gz -o my.json, or idlesim run --machine OUT.tar.gz.
# sysfs files report a size of 4096 whatever they hold, so a plain tar of /sys does not
# work: each file is read with cat into a temporary tree, which is then archived.
set -euo pipefail
out=${1:-snapshot-$(uname -n).tar.gz}
case "$out" in
/*) ;;
*) out="$PWD/$out" ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out.tmp.$$"' EXIT

# copy FILE: a readable file of /sys into the tree (files that cannot be read are left out)
copy() {
	[ -f "$1" ] && [ -r "$1" ] || return 0
	mkdir -p "$tmp$(dirname "$1")"
	cat "$1" >"$tmp$1" 2>/dev/null || rm -f "$tmp$1"
}

c=/sys/devices/system/cpu
for f in online possible present cpuidle/current_driver cpuidle/current_governor \
	cpuidle/current_governor_ro cpuidle/available_governors; do
	copy "$c/$f"
done
for d in "$c"/cpu[0-9]*; do
	for f in "$d"/topology/*; do
		copy "$f"
	done
	for s in "$d"/cpuidle/state[0-9]*; do
		for f in name desc latency residency disable default_status; do
			copy "$s/$f"
		done
	done
done
for m in intel_idle haltpoll cpuidle_haltpoll cpuidle; do
	for f in /sys/module/"$m"/parameters/*; do
		copy "$f"
	done
done
copy /sys/devices/cpu_core/cpus
copy /sys/devices/cpu_atom/cpus

if [ ! -f "$tmp$c/cpuidle/current_driver" ]; then
	echo "snapshot.sh: $c/cpuidle/current_driver cannot be read: is cpuidle on?" >&2
	exit 2
fi
tar czf "$out.tmp.$$" -C "$tmp" sys
mv "$out.tmp.$$" "$out"
echo "snapshot.sh: wrote $out (driver $(cat "$c/cpuidle/current_driver"));" \
	"idlesim machines import $out -o machine.json" >&2
