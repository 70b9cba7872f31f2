#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Record this machine's idle decisions for `idlesim validate DIR` (docs/diff.md, "Validate
# on my machine"): trace-cmd records exactly the events idlesim's importer and validate read
# for SECONDS, on every CPU, and the directory gets what validate needs besides:
#
#   DIR/trace.dat          power:cpu_idle (the kernel's choice), power:cpu_idle_miss (its
#                          above/below verdict, >= 6.0), timer:hrtimer_start/_cancel/
#                          _expire_entry and timer:timer_start/_cancel/_expire_entry (the
#                          pending timers: the sleep length; the tick's expiries: got_tick and
#                          the jiffy grid), timer:tick_stop (the tick state), sched:sched_switch
#                          (a task ran between entries), irq/ipi entries (what woke the CPU)
#   DIR/snapshot.tar.gz    the machine (scripts/snapshot.sh): its idle-state table
#   DIR/governor           /sys/devices/system/cpu/cpuidle/current_governor
#   DIR/release            uname -r: which modelled release of the governor validate picks
#
#   sudo scripts/record.sh SECONDS [DIR]     (default DIR: recording-HOSTNAME)
#   idlesim validate DIR
#
# Needs root (tracefs) and trace-cmd (Debian: apt-get install trace-cmd). The cost: every
# idle entry and exit, timer arming and expiry is an event (docs/diff.md says what it costs
# and how to measure it on your machine); the buffer is 64 MiB per CPU (-b), so a busy
# machine may still lose events: trace-cmd report then prints [LOST N EVENTS], which the
# importer counts.
set -euo pipefail
secs=${1:?usage: scripts/record.sh SECONDS [DIR]}
dir=${2:-recording-$(uname -n)}
here=$(cd "$(dirname "$0")" && pwd)
command -v trace-cmd >/dev/null 2>&1 || { echo "record.sh: trace-cmd not found (apt-get install trace-cmd)" >&2; exit 2; }
case "$secs" in
'' | *[!0-9.]*) echo "record.sh: SECONDS must be a number, not '$secs'" >&2; exit 2 ;;
esac
mkdir -p "$dir"
events=(power:cpu_idle timer:hrtimer_start timer:hrtimer_cancel timer:hrtimer_expire_entry
	timer:timer_start timer:timer_cancel timer:timer_expire_entry timer:tick_stop
	sched:sched_switch sched:sched_wakeup irq:irq_handler_entry irq:softirq_entry)
# optional events: recorded where the kernel has them
for e in power:cpu_idle_miss ipi:ipi_entry ipi:ipi_raise irq_vectors:local_timer_entry \
	irq_vectors:reschedule_entry irq_vectors:call_function_entry; do
	[ -d "/sys/kernel/tracing/events/${e%%:*}/${e#*:}" ] && events+=("$e")
done
args=()
for e in "${events[@]}"; do args+=(-e "$e"); done
cat /sys/devices/system/cpu/cpuidle/current_governor >"$dir/governor" 2>/dev/null ||
	cat /sys/devices/system/cpu/cpuidle/current_governor_ro >"$dir/governor" 2>/dev/null ||
	echo "record.sh: warning: no cpuidle governor in sysfs (give validate --governor)" >&2
uname -r >"$dir/release"
"$here/snapshot.sh" "$dir/snapshot.tar.gz"
trace-cmd record -q -b 65536 -o "$dir/trace.dat" "${args[@]}" sleep "$secs"
echo "record.sh: $dir: trace.dat ($(du -h "$dir/trace.dat" | cut -f1)), snapshot.tar.gz," \
	"governor $(cat "$dir/governor" 2>/dev/null), release $(cat "$dir/release")"
echo "then: idlesim validate $dir"
