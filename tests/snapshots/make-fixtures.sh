#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Writes the sysfs snapshot fixtures of tests/snapshots/ (committed; run again only to change
# them). Every value is typed here by hand from the kernel's rules, never taken from idlesim:
#  - adl-hybrid: an i7-1260P-like Alder Lake under intel_idle (4 P-cores with SMT, 8 E-cores:
#    12 cores, 16 CPUs). Table: POLL (cpuidle_poll_state_init) then adl_l_cstates of
#    drivers/idle/intel_idle.c (v6.12), whose C1 is CPUIDLE_FLAG_UNUSABLE (C1E promotion on),
#    so sysfs shows POLL, C1E 2/4, C6 170/500, C8 200/600, C10 230/700 (latency/residency,
#    us). Numbering as on such a laptop: P-core threads 0-7 with siblings adjacent
#    (core_id 0, 4, 8, 12), E-cores 8-15 (core_id 16..23); /sys/devices/cpu_core/cpus 0-7,
#    cpu_atom/cpus 8-15. Kernel >= 5.6: default_status present.
#  - kvm-guest: a KVM guest with cpuidle-haltpoll, 8 vCPUs, one package, no SMT: POLL and
#    "haltpoll idle" / "default architecture idle" 1/1 (haltpoll_driver); governor haltpoll;
#    /sys/module/haltpoll/parameters with guest_halt_poll_ns 400000 (the default is 200000)
#    and the other defaults; cpuidle_haltpoll force N.
#  - server-2s: a two-socket Skylake-SP-like server under intel_idle, 2 packages x 4 cores x
#    2 threads, Linux's numbering (first threads 0-7, package 0 then 1; siblings 8-15), core
#    ids 0, 2, 4, 8 in each package; skx_cstates: POLL, C1 2/2, C1E 10/20, C6 133/600.
#    An older kernel (before 5.6): no default_status, and current_governor_ro instead of
#    current_governor.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# put FILE VALUE: a sysfs file, its value and a newline
put() {
	mkdir -p "$(dirname "$1")"
	printf '%s\n' "$2" >"$1"
}

# state DIR K NAME DESC LATENCY RESIDENCY [DEFAULT_STATUS]
state() {
	local d="$1/state$2"
	put "$d/name" "$3"
	put "$d/desc" "$4"
	put "$d/latency" "$5"
	put "$d/residency" "$6"
	put "$d/disable" 0
	[ -z "${7:-}" ] || put "$d/default_status" "$7"
}

# top ROOT CPUS DRIVER: the files of a snapshot's top (CPUS is the online list), no governor
top() {
	local c="$1/sys/devices/system/cpu"
	rm -rf "$1"
	put "$c/online" "$2"
	put "$c/possible" "$2"
	put "$c/present" "$2"
	put "$c/cpuidle/current_driver" "$3"
}

# topo CPUDIR PACKAGE CORE SIBLINGS
topo() {
	put "$1/topology/physical_package_id" "$2"
	put "$1/topology/die_id" 0
	put "$1/topology/core_id" "$3"
	put "$1/topology/thread_siblings_list" "$4"
}

adl() {
	local root="$here/adl-hybrid" cpu c d core
	top "$root" 0-15 intel_idle
	c="$root/sys/devices/system/cpu"
	put "$c/cpuidle/current_governor" menu
	put "$c/cpuidle/current_governor_ro" menu
	put "$root/sys/devices/cpu_core/cpus" 0-7
	put "$root/sys/devices/cpu_atom/cpus" 8-15
	for p in max_cstate:9 states_off:0 preferred_cstates:0 no_acpi:N use_acpi:N \
		force_irq_on:N ibrs_off:N; do
		put "$root/sys/module/intel_idle/parameters/${p%%:*}" "${p#*:}"
	done
	for cpu in $(seq 0 15); do
		d="$c/cpu$cpu"
		if [ "$cpu" -lt 8 ]; then
			core=$((cpu / 2)) # P-core k: CPUs 2k and 2k+1, core_id 4k
			topo "$d" 0 $((core * 4)) "$((core * 2))-$((core * 2 + 1))"
		else
			topo "$d" 0 $((cpu + 8)) "$cpu"
		fi
		state "$d/cpuidle" 0 POLL "CPUIDLE CORE POLL IDLE" 0 0 enabled
		state "$d/cpuidle" 1 C1E "MWAIT 0x01" 2 4 enabled
		state "$d/cpuidle" 2 C6 "MWAIT 0x20" 170 500 enabled
		state "$d/cpuidle" 3 C8 "MWAIT 0x40" 200 600 enabled
		state "$d/cpuidle" 4 C10 "MWAIT 0x60" 230 700 enabled
	done
}

guest() {
	local root="$here/kvm-guest" cpu c d
	top "$root" 0-7 haltpoll
	c="$root/sys/devices/system/cpu"
	put "$c/cpuidle/current_governor" haltpoll
	put "$c/cpuidle/current_governor_ro" haltpoll
	for p in guest_halt_poll_ns:400000 guest_halt_poll_shrink:2 guest_halt_poll_grow:2 \
		guest_halt_poll_grow_start:50000 guest_halt_poll_allow_shrink:Y; do
		put "$root/sys/module/haltpoll/parameters/${p%%:*}" "${p#*:}"
	done
	put "$root/sys/module/cpuidle_haltpoll/parameters/force" N
	for cpu in $(seq 0 7); do
		d="$c/cpu$cpu"
		topo "$d" 0 "$cpu" "$cpu"
		state "$d/cpuidle" 0 POLL "CPUIDLE CORE POLL IDLE" 0 0 enabled
		state "$d/cpuidle" 1 "haltpoll idle" "default architecture idle" 1 1 enabled
	done
}

server() {
	local root="$here/server-2s" cpu c d core ids=(0 2 4 8)
	top "$root" 0-15 intel_idle
	c="$root/sys/devices/system/cpu"
	put "$c/cpuidle/current_governor_ro" menu
	for p in max_cstate:9 states_off:0 preferred_cstates:0 no_acpi:N use_acpi:N; do
		put "$root/sys/module/intel_idle/parameters/${p%%:*}" "${p#*:}"
	done
	for cpu in $(seq 0 15); do
		d="$c/cpu$cpu"
		core=$((cpu % 8))
		topo "$d" $((core / 4)) "${ids[$((core % 4))]}" "$core,$((core + 8))"
		state "$d/cpuidle" 0 POLL "CPUIDLE CORE POLL IDLE" 0 0
		state "$d/cpuidle" 1 C1 "MWAIT 0x00" 2 2
		state "$d/cpuidle" 2 C1E "MWAIT 0x01" 10 20
		state "$d/cpuidle" 3 C6 "MWAIT 0x20" 133 600
	done
}

adl
guest
server
