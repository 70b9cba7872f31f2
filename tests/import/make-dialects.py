#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Render the hand-written scenario below in every text dialect idlesim import reads.

The events are written here by hand, once; this script only lays them out the way each tool
prints them (column widths, flags, timestamp precision, plugin rewrites), so that every
fixture in tests/import/scenario.* describes the same events and must convert to the same
records (tests/import/scenario.expected, computed by hand: see the comment at the top of
tests/test_import.c). The fixtures are checked in; the tests do not run this script.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
BASE_S = 100  # the trace starts at 100.000000 s

T1 = "ffff8881000a0000"   # an hrtimer_wakeup hrtimer (nanosleep)
TICK0 = "ffff88817fc1e0c0"  # CPU 0's tick
W1 = "ffff888100b0c000"   # a timer_list timer (schedule_timeout)

# (time in us after BASE_S, cpu, comm, pid, tgid, flags, system, event, raw payload, plugin payload)
def sw(prev, ppid, pstate, nxt, npid):
    raw = (f"prev_comm={prev} prev_pid={ppid} prev_prio=120 prev_state={pstate} ==> "
           f"next_comm={nxt} next_pid={npid} next_prio=120")
    plug = f"{prev}:{ppid} [120] {pstate} ==> {nxt}:{npid} [120]"
    return raw, plug

def wk(comm, pid, cpu):
    return (f"comm={comm} pid={pid} prio=120 target_cpu={cpu:03d}",
            f"{comm}:{pid} [120] success=1 CPU:{cpu:03d}")

def hs(tm, fn, exp, mode):
    return (f"hrtimer={tm} function={fn} expires={exp} softexpires={exp} mode={mode}",
            f"hrtimer=0x{tm} function={fn} expires={exp} softexpires={exp}")

def he(tm, fn, now):
    return (f"hrtimer={tm} function={fn} now={now}", f"hrtimer=0x{tm} now={now} function={fn}/0x0")

def hc(tm):
    return (f"hrtimer={tm}", f"hrtimer=0x{tm}")

def raw(s):
    return (s, s)

EXIT = "state=4294967295"
E = [
    (0,     0, "taskA", 100, 100, "d..2.", "timer", "hrtimer_start", *hs(T1, "hrtimer_wakeup", 100005000000, "ABS")),
    (5,     0, "taskA", 100, 100, "d..2.", "timer", "hrtimer_start", *hs(TICK0, "tick_sched_timer", 100004000000, "ABS_PINNED_HARD")),
    (7,     0, "taskA", 100, 100, "...1.", "power", "cpu_frequency", *raw("state=800000 cpu_id=0")),
    (10,    0, "taskA", 100, 100, "d..2.", "sched", "sched_switch", *sw("taskA", 100, "S", "swapper/0", 0)),
    (20,    0, "<idle>", 0, None, "d..1.", "power", "cpu_idle", *raw("state=2 cpu_id=0")),
    (100,   1, "<idle>", 0, None, "dN.1.", "power", "cpu_idle", *raw(EXIT + " cpu_id=1")),
    (102,   1, "<idle>", 0, None, "d.h1.", "irq", "irq_handler_entry", *raw("irq=31 name=nvme0q1")),
    (110,   1, "<idle>", 0, None, "d..2.", "sched", "sched_switch", *sw("swapper/1", 0, "R", "taskC", 300)),
    (1000,  1, "taskC", 300, 300, "d..2.", "sched", "sched_switch", *sw("taskC", 300, "S", "swapper/1", 0)),
    (1010,  1, "<idle>", 0, None, "d..1.", "power", "cpu_idle", *raw("state=1 cpu_id=1")),
    (1500,  1, "<idle>", 0, None, "d..1.", "power", "cpu_idle", *raw(EXIT + " cpu_id=1")),
    (1502,  1, "<idle>", 0, None, "...1.", "power", "cpu_idle_miss", *raw("cpu_id=1 state=1 type=below")),
    (1510,  1, "<idle>", 0, None, "d..1.", "power", "cpu_idle", *raw("state=1 cpu_id=1")),
    (2000,  1, "<idle>", 0, None, "dN.1.", "power", "cpu_idle", *raw(EXIT + " cpu_id=1")),
    (2001,  1, "<idle>", 0, None, "d.h1.", "irq", "irq_handler_entry", *raw("irq=31 name=nvme0q1")),
    (2010,  1, "<idle>", 0, None, "d..2.", "sched", "sched_switch", *sw("swapper/1", 0, "R", "taskC", 300)),
    (2500,  1, "taskC", 300, 300, "d..2.", "sched", "sched_migrate_task", *raw("comm=taskC pid=300 prio=120 orig_cpu=1 dest_cpu=0")),
    (3000,  1, "taskC", 300, 300, "d..2.", "sched", "sched_switch", *sw("taskC", 300, "S", "swapper/1", 0)),
    (3005,  1, "<idle>", 0, None, "d..1.", "timer", "tick_stop", *raw("success=1 dependency=NONE")),
    (3010,  1, "<idle>", 0, None, "d..1.", "power", "cpu_idle", *raw("state=6 cpu_id=1")),
    (4000,  0, "<idle>", 0, None, "d..1.", "power", "cpu_idle", *raw(EXIT + " cpu_id=0")),
    (4002,  0, "<idle>", 0, None, "d.h1.", "timer", "hrtimer_cancel", *hc(TICK0)),
    (4003,  0, "<idle>", 0, None, "d.h1.", "timer", "hrtimer_expire_entry", *he(TICK0, "tick_sched_timer", 100004000500)),
    (4004,  0, "<idle>", 0, None, "...1.", "power", "cpu_idle_miss", *raw("cpu_id=0 state=2 type=below")),
    (4010,  0, "<idle>", 0, None, "d..1.", "timer", "hrtimer_start", *hs(TICK0, "tick_sched_timer", 100008000000, "ABS_PINNED_HARD")),
    (4020,  0, "<idle>", 0, None, "d..1.", "power", "cpu_idle", *raw("state=2 cpu_id=0")),
    (5000,  0, "<idle>", 0, None, "d..1.", "power", "cpu_idle", *raw(EXIT + " cpu_id=0")),
    (5002,  0, "<idle>", 0, None, "d.h1.", "timer", "hrtimer_cancel", *hc(T1)),
    (5003,  0, "<idle>", 0, None, "d.h1.", "timer", "hrtimer_expire_entry", *he(T1, "hrtimer_wakeup", 100005000500)),
    (5005,  0, "<idle>", 0, None, "dNh2.", "sched", "sched_wakeup", *wk("taskA", 100, 0)),
    (5007,  0, "<idle>", 0, None, ".N.1.", "power", "cpu_idle_miss", *raw("cpu_id=0 state=2 type=below")),
    (5010,  0, "<idle>", 0, None, "d..2.", "sched", "sched_switch", *sw("swapper/0", 0, "R", "taskA", 100)),
    (5500,  0, "taskA", 100, 100, "d..1.", "timer", "timer_start", *raw(f"timer={W1} function=process_timeout expires=4294937296 [timeout=25] bucket_expiry=4294937296 cpu=0 idx=25 flags=")),
    (6000,  0, "taskA", 100, 100, "d..2.", "sched", "sched_switch", *sw("taskA", 100, "S", "swapper/0", 0)),
    (6010,  0, "<idle>", 0, None, "d..1.", "power", "cpu_idle", *raw("state=1 cpu_id=0")),
    (7000,  0, "<idle>", 0, None, "d..1.", "power", "cpu_idle", *raw(EXIT + " cpu_id=0")),
    (7002,  0, "<idle>", 0, None, "d.h1.", "irq", "irq_handler_entry", *raw("irq=30 name=eth0")),
    (7004,  0, "<idle>", 0, None, "..s1.", "irq", "softirq_entry", *raw("vec=3 [action=NET_RX]")),
    (7006,  0, "<idle>", 0, None, "dNs2.", "sched", "sched_wakeup", *wk("taskA", 100, 0)),
    (7008,  0, "<idle>", 0, None, ".N.1.", "power", "cpu_idle_miss", *raw("cpu_id=0 state=1 type=below")),
    (7010,  0, "<idle>", 0, None, "d..2.", "sched", "sched_switch", *sw("swapper/0", 0, "R", "taskA", 100)),
    (8000,  0, "taskA", 100, 100, "d..2.", "sched", "sched_switch", *sw("taskA", 100, "S", "swapper/0", 0)),
    (8010,  0, "<idle>", 0, None, "d..1.", "power", "cpu_idle", *raw("state=8 cpu_id=0")),
    (9000,  0, "<idle>", 0, None, "dN.1.", "power", "cpu_idle", *raw(EXIT + " cpu_id=0")),
    (9001,  0, "<idle>", 0, None, "dNh1.", "ipi", "ipi_entry", *raw("(Rescheduling interrupts)")),
    (9002,  0, "<idle>", 0, None, ".N.1.", "power", "cpu_idle_miss", *raw("cpu_id=0 state=8 type=above")),
    (9010,  0, "<idle>", 0, None, "d..2.", "sched", "sched_switch", *sw("swapper/0", 0, "R", "taskB", 200)),
    (11990, 0, "taskB", 200, 200, "d..3.", "sched", "sched_wakeup", *wk("taskD", 400, 1)),
    (11991, 0, "taskB", 200, 200, "d..3.", "ipi", "ipi_raise", *raw("target_mask=00000000,00000002 (Rescheduling interrupts)")),
    (12000, 1, "<idle>", 0, None, "dN.1.", "power", "cpu_idle", *raw(EXIT + " cpu_id=1")),
    (12005, 1, "<idle>", 0, None, "d..2.", "sched", "sched_switch", *sw("swapper/1", 0, "R", "taskD", 400)),
    (12100, 0, "taskB", 200, 200, "d..2.", "sched", "sched_switch", *sw("taskB", 200, "S", "swapper/0", 0)),
    (12110, 0, "<idle>", 0, None, "d..1.", "power", "cpu_idle", *raw("state=3 cpu_id=0")),
    (12200, 1, "taskD", 400, 400, "d..2.", "sched", "sched_switch", *sw("taskD", 400, "S", "swapper/1", 0)),
]

def ts6(us):
    return f"{BASE_S + us // 1000000}.{us % 1000000:06d}"

def ts9(us):
    return f"{BASE_S + us // 1000000}.{us % 1000000:06d}000"

def write(name, lines):
    with open(os.path.join(HERE, name), "w") as f:
        f.write("\n".join(lines) + "\n")

FTRACE_HDR = """# tracer: nop
#
# entries-in-buffer/entries-written: 54/54   #P:2
#
#                                _-----=> irqs-off/BH-disabled
#                               / _----=> need-resched
#                              | / _---=> hardirq/softirq
#                              || / _--=> preempt-depth
#                              ||| / _-=> migrate-disable
#                              |||| /     delay
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |""".split("\n")

def ftrace5():
    return FTRACE_HDR + [f"{c:>16}-{p:<7} [{cpu:03d}] {fl} {ts6(t):>12}: {ev}: {r}"
                         for t, cpu, c, p, tg, fl, sys, ev, r, pl in E]

write("scenario.ftrace", ftrace5())

# The same, lines out of order: two per-CPU inversions and one across CPUs.
lines = ftrace5()
def find(us, cpu):
    for i, l in enumerate(lines):
        if f"[{cpu:03d}]" in l and f"{ts6(us)}:" in l:
            return i
    raise KeyError(us)
for a, b in [((1500, 1), (1502, 1)), ((8000, 0), (8010, 0)), ((11991, 0), (12000, 1))]:
    i, j = find(*a), find(*b)
    lines[i], lines[j] = lines[j], lines[i]
write("scenario-unsorted.ftrace", lines)

# Android systrace: 4 flag characters, the TGID column, inside the HTML wrapper.
sys_lines = ["# tracer: nop", "#",
             "# entries-in-buffer/entries-written: 54/54   #P:2", "#",
             "#                                      _-----=> irqs-off",
             "#                                     / _----=> need-resched",
             "#                                    | / _---=> hardirq/softirq",
             "#                                    || / _--=> preempt-depth",
             "#                                    ||| /     delay",
             "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION",
             "#              | |        |      |   ||||       |         |"]
for t, cpu, c, p, tg, fl, sys, ev, r, pl in E:
    tgid = "-----" if tg is None else f"{tg:>5}"
    sys_lines.append(f"{c:>16}-{p:<5} ({tgid}) [{cpu:03d}] {fl[:4]} {ts6(t):>12}: {ev}: {r}")
html = ["<!DOCTYPE html>", "<html>", "<head>", "<title>Android System Trace</title>",
        "<script>var x = document.querySelectorAll('.trace-data');</script>", "</head>", "<body>",
        "<!-- BEGIN TRACE -->", '  <script class="trace-data" type="application/text">'] + sys_lines + [
        "  </script>", '  <script class="trace-data" type="application/text">',
        '{"traceEvents": [], "metadata": {"clock-domain": "SYSTRACE"}}  </script>',
        "<!-- END TRACE -->", "</body>", "</html>"]
write("scenario.html", html)

# trace-cmd report: cpus= header, padded event names, plugin rewrites, flags, us.
write("scenario.report", ["cpus=2"] + [
    f"{c:>16}-{p:<5} [{cpu:03d}] {fl} {ts6(t):>12}: {ev + ':':<20} {pl}"
    for t, cpu, c, p, tg, fl, sys, ev, r, pl in E])

# trace-cmd report -t -R: ns timestamps, no flags column (trace-cmd 3.2), raw fields.
write("scenario-ns.report", ["version = 6", "cpus=2"] + [
    f"{c:>16}-{p:<5} [{cpu:03d}] {ts9(t)}: {ev + ':':<20} {r}"
    for t, cpu, c, p, tg, fl, sys, ev, r, pl in E])

# trace-cmd report -l: the latency layout, CPU glued to the flags.
write("scenario-latency.report", ["cpus=2"] + [
    f"{c:>16}-{p:<5} {cpu}{fl} {ts6(t):>12}: {ev + ':':<20} {pl}"
    for t, cpu, c, p, tg, fl, sys, ev, r, pl in E])

# perf script: comm, pid, [cpu], ns timestamp, system:event. No CPU count anywhere.
write("scenario.perf", [
    f"{('swapper' if c == '<idle>' else c):>16} {p:>6} [{cpu:03d}] {ts9(t)}: {sys + ':' + ev + ':':>28} {r}"
    for t, cpu, c, p, tg, fl, sys, ev, r, pl in E])

# The kernel's own latency-format (options/latency-format): relative microseconds.
lat = ["# tracer: nop", "#", "#                  _------=> CPU#", "#  cmd     pid   ||||| time  |   caller",
       "#     \\   /      |||||  \\    |   /"]
for t, cpu, c, p, tg, fl, sys, ev, r, pl in E:
    lat.append(f"{c[:8]:>8}-{p:<7} {cpu:3d}{fl} {t:4d}us : {ev}: {r}")
write("scenario-latency-us.ftrace", lat)
